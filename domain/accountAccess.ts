/** Access grants: a support member acting in another organization (spec/account.md §3, §4). */
import * as v from 'valibot'
import { ACCESS_GRANT_DURATION_MS } from './constants.ts'

/** Why a support member asks for access. */
export const ACCESS_GRANT_REASONS = ['onboarding', 'workshop', 'support', 'other'] as const
/** States of an access grant. */
export const ACCESS_GRANT_STATES = ['active', 'revoked', 'expired'] as const
/** One access grant state. */
export type AccessGrantState = (typeof ACCESS_GRANT_STATES)[number]

/** Access to another organization for a support member; lasts 24 h, admins can revoke it. */
export const AccessGrantSchema = v.object({
  id: v.number(),
  requesterId: v.number(),
  requester: v.object({ fullName: v.string(), avatarId: v.number() }),
  organization: v.object({ id: v.number(), name: v.string() }),
  state: v.picklist(ACCESS_GRANT_STATES),
  expiry: v.string(),
  reason: v.picklist(ACCESS_GRANT_REASONS),
  createdAt: v.string(),
})
/** An access grant. */
export type AccessGrant = v.InferOutput<typeof AccessGrantSchema>

/** When a grant created at `createdAtMs` ends. */
export function accessGrantExpiryMs(createdAtMs: number): number {
  return createdAtMs + ACCESS_GRANT_DURATION_MS
}

/** A grant's state now: revoked stays revoked; past its expiry it is expired. */
export function accessGrantState(
  grant: { state: AccessGrantState; expiry: string },
  nowMs: number,
): AccessGrantState {
  if (grant.state !== 'active') return grant.state
  return nowMs >= Date.parse(grant.expiry) ? 'expired' : 'active'
}

/** The team badge marks support members who requested access in the last 24 h. */
export function isRecentAccessRequest(createdAtMs: number, nowMs: number): boolean {
  return nowMs - createdAtMs >= 0 && nowMs - createdAtMs < ACCESS_GRANT_DURATION_MS
}
