import type { Generated } from 'kysely'
import type { Flag } from '../db/schema.ts'

/** A one-time link sent by e-mail: 'invite' (set the first password) or 'reset'. */
export interface AccountTokensTable {
  id: Generated<number>
  user_id: number
  purpose: string
  /** SHA-256 of the token; the token itself is only in the e-mail. */
  token_hash: string
  created_at: string
  expires_at: string
  used_at: string | null
}

/** A TOTP authenticator (RFC 6238, SHA-1, 6 digits, 30 s). */
export interface MfaAuthenticatorsTable {
  id: Generated<number>
  user_id: number
  name: string
  /** Base32 secret. */
  secret: string
  confirmed: Generated<Flag>
  /** The last time step accepted, so a code is used once. */
  last_step: number | null
  created_at: string
}
