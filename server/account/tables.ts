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

/** A provider member's 24 h access to an organization (spec/account.md §4). */
export interface AccessGrantsTable {
  id: Generated<number>
  requester_id: number
  organization_id: number
  /** 'active' or 'revoked'; an active grant past its expiry reads as expired. */
  state: string
  /** An ACCESS_GRANT_REASONS value. */
  reason: string
  expiry: string
  revoked_by: number | null
  created_at: string
}
