import QRCode from 'qrcode'
import { SECURITY_MESSAGES, type Authenticator } from '../../domain/accountSecurity.ts'
import { ApiError } from '../api/apiError.ts'
import type { AuthedContext, RouteHandler } from '../api/context.ts'
import { hashPassword, verifyPassword } from '../auth/passwords.ts'
import type { MfaAuthenticatorsTable } from './tables.ts'
import type { Selectable } from 'kysely'
import { consumeLinkToken, issueLinkToken, sendLinkMail } from './mailLinks.ts'
import { createTotpSecret, matchTotp, otpauthUri } from './totp.ts'

type AuthenticatorRow = Selectable<MfaAuthenticatorsTable>

function toAuthenticator(row: AuthenticatorRow): Authenticator {
  return { id: row.id, name: row.name, confirmed: row.confirmed === 1, createdAt: row.created_at }
}

async function organizationName({ db, user }: AuthedContext): Promise<string> {
  const row = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', user.organization_id)
    .executeTakeFirstOrThrow()
  return row.name
}

/** Users of an organization with single sign-on have no password or two-factor of ours. */
export const SSO_MANAGED_MESSAGE = 'Your organization signs you in with single sign-on'

async function refuseSingleSignOnUser({ db, user }: AuthedContext): Promise<void> {
  const own = await db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select('organizations.sso_connection')
    .where('users.id', '=', user.id)
    .executeTakeFirst()
  if (own?.sso_connection) throw new ApiError('forbidden', SSO_MANAGED_MESSAGE)
}

export const requestPasswordReset: RouteHandler<'requestPasswordReset'> = async (_r, context) => {
  const { db, clock, user, dataDir } = context
  await refuseSingleSignOnUser(context)
  const token = await issueLinkToken(db, clock, user.id, 'reset')
  await sendLinkMail({
    dataDir,
    to: user.email,
    firstName: user.first_name,
    token,
    purpose: 'reset',
    organizationName: await organizationName(context),
  })
  return { ok: true }
}

export const changePassword: RouteHandler<'changePassword'> = async ({ body }, context) => {
  const { db, user } = context
  await refuseSingleSignOnUser(context)
  if (!(await verifyPassword(body.currentPassword, user.password_hash)))
    throw new ApiError('wrong_input', SECURITY_MESSAGES.currentPasswordWrong)
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(body.newPassword) })
    .where('id', '=', user.id)
    .execute()
  return { ok: true }
}

/** Sets the password of the user an invitation or reset e-mail was sent to; the link works once. */
export const resetPassword: RouteHandler<'resetPassword'> = async ({ body }, { db, clock }) => {
  const passwordHash = await hashPassword(body.password)
  const userId = await consumeLinkToken(db, clock, body.token)
  if (userId === null) throw new ApiError('invalid_grant', SECURITY_MESSAGES.linkInvalid)
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .execute()
    // A new password ends every other login of the account.
    await trx
      .updateTable('sessions')
      .set({ revoked_at: clock.nowIso() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute()
  })
  return { ok: true }
}

export const listAuthenticators: RouteHandler<'listAuthenticators'> = async (_r, { db, user }) => {
  const rows = await db
    .selectFrom('mfa_authenticators')
    .selectAll()
    .where('user_id', '=', user.id)
    .orderBy('id')
    .execute()
  return rows.map(toAuthenticator)
}

/** Starts an enrolment; unconfirmed leftovers of earlier tries are dropped. */
export const enrolAuthenticator: RouteHandler<'enrolAuthenticator'> = async ({ body }, context) => {
  const { db, clock, user } = context
  await refuseSingleSignOnUser(context)
  await db
    .deleteFrom('mfa_authenticators')
    .where('user_id', '=', user.id)
    .where('confirmed', '=', 0)
    .execute()
  const secret = createTotpSecret()
  const row = await db
    .insertInto('mfa_authenticators')
    .values({
      user_id: user.id,
      name: body.name ?? 'Authenticator app',
      secret,
      confirmed: 0,
      last_step: null,
      created_at: clock.nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const uri = otpauthUri(secret, user.email)
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' })
  return { authenticator: toAuthenticator(row), secret, otpauthUri: uri, qrSvg }
}

async function ownAuthenticator({ db, user }: AuthedContext, id: number) {
  const row = await db
    .selectFrom('mfa_authenticators')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', user.id)
    .executeTakeFirst()
  if (!row) throw new ApiError('resource_not_found', 'Authenticator not found')
  return row
}

export const verifyAuthenticator: RouteHandler<'verifyAuthenticator'> = async (
  { params, body },
  context,
) => {
  const row = await ownAuthenticator(context, params.id)
  const step = matchTotp(row.secret, body.code, context.clock.nowMs(), row.last_step)
  if (step === null) throw new ApiError('wrong_input', SECURITY_MESSAGES.codeWrong)
  const updated = await context.db
    .updateTable('mfa_authenticators')
    .set({ confirmed: 1, last_step: step })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return toAuthenticator(updated)
}

export const deleteAuthenticator: RouteHandler<'deleteAuthenticator'> = async (
  { params },
  context,
) => {
  const row = await ownAuthenticator(context, params.id)
  await context.db.deleteFrom('mfa_authenticators').where('id', '=', row.id).execute()
  return { id: row.id }
}

/**
 * The second factor of a login: nothing to do without a confirmed authenticator; otherwise a
 * missing code is 403 with `mfaRequired` (not a failed attempt), a wrong one 401.
 */
export async function checkLoginCode(
  context: Pick<AuthedContext, 'db' | 'clock'>,
  userId: number,
  code: string | undefined,
): Promise<void> {
  const rows = await context.db
    .selectFrom('mfa_authenticators')
    .selectAll()
    .where('user_id', '=', userId)
    .where('confirmed', '=', 1)
    .execute()
  if (rows.length === 0) return
  if (code === undefined || code.trim() === '')
    throw new ApiError('forbidden', SECURITY_MESSAGES.codeRequired, undefined, {
      mfaRequired: true,
    })
  for (const row of rows) {
    const step = matchTotp(row.secret, code, context.clock.nowMs(), row.last_step)
    if (step === null) continue
    await context.db
      .updateTable('mfa_authenticators')
      .set({ last_step: step })
      .where('id', '=', row.id)
      .execute()
    return
  }
  throw new ApiError('authentication_failed', SECURITY_MESSAGES.codeWrong)
}
