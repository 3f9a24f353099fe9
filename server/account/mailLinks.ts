import type { Kysely } from 'kysely'
import { createToken, hashToken } from '../auth/tokens.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { sendMail, type MailReceipt } from './mail.ts'

type Db = Kysely<Database>

/** An invitation link lives a week, a reset link an hour. */
export const LINK_LIFETIME_MS = { invite: 7 * 24 * 3600_000, reset: 3600_000 } as const
export type LinkPurpose = keyof typeof LINK_LIFETIME_MS

/** The UI route that takes the token of an e-mail and sets the password. */
export const SET_PASSWORD_PATH = '/set-password'

/** Where the app is reached, for links in e-mails: DIVE_PUBLIC_URL or the local server. */
export function publicUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.DIVE_PUBLIC_URL || `http://localhost:${env.PORT || 8080}`).replace(/\/$/, '')
}

/** Stores a one-time token (its digest only) and returns the token for the e-mail. */
export async function issueLinkToken(
  db: Db,
  clock: Clock,
  userId: number,
  purpose: LinkPurpose,
): Promise<string> {
  const token = createToken()
  await db
    .insertInto('account_tokens')
    .values({
      user_id: userId,
      purpose,
      token_hash: hashToken(token),
      created_at: clock.nowIso(),
      expires_at: new Date(clock.nowMs() + LINK_LIFETIME_MS[purpose]).toISOString(),
      used_at: null,
    })
    .execute()
  return token
}

/** Marks a live, unused token used and returns its user; null for anything else. */
export async function consumeLinkToken(
  db: Db,
  clock: Clock,
  token: string,
): Promise<number | null> {
  const row = await db
    .updateTable('account_tokens')
    .set({ used_at: clock.nowIso() })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', clock.nowIso())
    .returning(['user_id'])
    .executeTakeFirst()
  return row?.user_id ?? null
}

interface LinkMail {
  dataDir: string
  to: string
  firstName: string
  token: string
  purpose: LinkPurpose
  organizationName: string
  invitedBy?: string
}

/** The invitation or reset e-mail with its link. */
export function sendLinkMail(mail: LinkMail): Promise<MailReceipt> {
  const link = `${publicUrl()}${SET_PASSWORD_PATH}?token=${encodeURIComponent(mail.token)}`
  const lines =
    mail.purpose === 'invite'
      ? [
          `Hello ${mail.firstName},`,
          '',
          `${mail.invitedBy ?? 'Your team'} invited you to ${mail.organizationName} on Dive.`,
          'Set your password with this link (valid for 7 days), then log in with your e-mail:',
          '',
          link,
        ]
      : [
          `Hello ${mail.firstName},`,
          '',
          "You've requested to reset the password of your Dive account.",
          'Set a new password with this link (valid for 1 hour):',
          '',
          link,
          '',
          'If you did not ask for this, ignore this e-mail; your password stays as it is.',
        ]
  return sendMail(mail.dataDir, {
    to: mail.to,
    subject:
      mail.purpose === 'invite'
        ? `You are invited to ${mail.organizationName} on Dive`
        : 'Reset your Dive password',
    text: lines.join('\n'),
  })
}
