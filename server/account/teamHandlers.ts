import { ACCOUNT_MESSAGES, hasPermission, type Role } from '../../domain/account.ts'
import { SECURITY_MESSAGES } from '../../domain/accountSecurity.ts'
import type { TeamMember } from '../../domain/rest/accountRoutes.ts'
import { ApiError } from '../api/apiError.ts'
import type { AuthedContext, RouteHandler } from '../api/context.ts'
import { UNUSABLE_PASSWORD_HASH } from '../auth/passwords.ts'
import type { UserRow } from '../db/schema.ts'
import { fullName } from '../api/views.ts'
import { issueLinkToken, sendLinkMail } from './mailLinks.ts'

type Permission = 'USERS_ADD' | 'USERS_EDIT'

function requirePermission({ user }: AuthedContext, permission: Permission): void {
  if (!hasPermission(user.role, permission))
    throw new ApiError('forbidden', 'You are not allowed to manage the users of the organization')
}

export function toTeamMember(row: UserRow): TeamMember {
  return {
    id: row.id,
    fullName: fullName(row),
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    role: row.role,
    department: row.department,
    avatarId: row.avatar_id,
  }
}

/** A user of the actor's organization; one of another organization is not found, like a missing one. */
async function teamUser({ db, user }: AuthedContext, id: number): Promise<UserRow> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', user.organization_id)
    .where('active', '=', 1)
    .executeTakeFirst()
  if (!row) throw new ApiError('resource_not_found', 'User not found')
  return row
}

/** Admin users cannot be edited, deleted or role-changed (spec/account.md §5). */
function refuseAdmin(target: UserRow): void {
  if ((target.role as Role) === 'admin')
    throw new ApiError('forbidden', 'Admin users cannot be edited or deleted')
}

async function organizationName({ db, user }: AuthedContext): Promise<string> {
  const row = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', user.organization_id)
    .executeTakeFirstOrThrow()
  return row.name
}

async function mailLink(context: AuthedContext, target: UserRow, purpose: 'invite' | 'reset') {
  const token = await issueLinkToken(context.db, context.clock, target.id, purpose)
  await sendLinkMail({
    dataDir: context.dataDir,
    to: target.email,
    firstName: target.first_name,
    token,
    purpose,
    organizationName: await organizationName(context),
    invitedBy: fullName(context.user),
  })
}

/** Adds a user without a usable password and e-mails the invitation to set one. */
export const createTeamUser: RouteHandler<'createTeamUser'> = async ({ body }, context) => {
  requirePermission(context, 'USERS_ADD')
  const { db, clock, user } = context
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', body.email)
    .executeTakeFirst()
  if (taken)
    throw new ApiError('duplicate_key', ACCOUNT_MESSAGES.emailDuplicate, [
      { path: 'email', message: ACCOUNT_MESSAGES.emailDuplicate },
    ])
  const row = await db
    .insertInto('users')
    .values({
      organization_id: user.organization_id,
      email: body.email,
      password_hash: UNUSABLE_PASSWORD_HASH,
      first_name: body.firstName,
      last_name: body.lastName,
      phone_number: null,
      department: null,
      location: null,
      role: body.role,
      created_at: clock.nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  try {
    await mailLink(context, row, 'invite')
  } catch (error) {
    // No half-made member: without the e-mail nobody can set the password.
    await db.deleteFrom('users').where('id', '=', row.id).execute()
    throw new ApiError('unknown_error', SECURITY_MESSAGES.inviteSendFailed, undefined, {
      cause: error instanceof Error ? error.message : String(error),
    })
  }
  return toTeamMember(row)
}

export const updateTeamUser: RouteHandler<'updateTeamUser'> = async ({ params, body }, context) => {
  requirePermission(context, 'USERS_EDIT')
  const target = await teamUser(context, params.id)
  refuseAdmin(target)
  if (body.role !== undefined && target.id === context.user.id && body.role !== target.role)
    throw new ApiError('forbidden', 'You cannot change your own role')
  const changes = Object.fromEntries(
    Object.entries({
      first_name: body.firstName,
      last_name: body.lastName,
      department: body.department === undefined ? undefined : body.department?.trim() || null,
      role: body.role,
    }).filter(([, value]) => value !== undefined),
  )
  if (Object.keys(changes).length === 0) return toTeamMember(target)
  const row = await context.db
    .updateTable('users')
    .set(changes)
    .where('id', '=', target.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return toTeamMember(row)
}

/** Deletes a member; their projects and simulations pass to the manager who deletes them. */
export const deleteTeamUser: RouteHandler<'deleteTeamUser'> = async ({ params }, context) => {
  requirePermission(context, 'USERS_EDIT')
  const target = await teamUser(context, params.id)
  refuseAdmin(target)
  if (target.id === context.user.id) throw new ApiError('forbidden', 'You cannot delete yourself')
  await context.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('projects')
      .set({ creator_id: context.user.id })
      .where('creator_id', '=', target.id)
      .execute()
    await trx
      .updateTable('simulations')
      .set({ creator_id: context.user.id })
      .where('creator_id', '=', target.id)
      .execute()
    await trx.deleteFrom('users').where('id', '=', target.id).execute()
  })
  return { id: target.id }
}

export const sendUserPasswordMail: RouteHandler<'sendUserPasswordMail'> = async (
  { params },
  context,
) => {
  requirePermission(context, 'USERS_EDIT')
  const target = await teamUser(context, params.id)
  refuseAdmin(target)
  await mailLink(context, target, 'reset')
  return { ok: true }
}
