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

/** Labels of the reasons. */
export const ACCESS_GRANT_REASON_LABELS: Record<(typeof ACCESS_GRANT_REASONS)[number], string> = {
  onboarding: 'Onboarding',
  workshop: 'Workshop',
  support: 'Support',
  other: 'Other',
}

/** Toast of a failed revoke (spec/account.md §8). */
export const REVOKE_ACCESS_GRANT_FAILED = 'Revoking access grant failed'

const intFromQuery = (min: number, max: number) =>
  v.pipe(
    v.union([v.string(), v.number()]),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min),
    v.maxValue(max),
  )
const boolFromQuery = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])]),
  v.transform((value) => value === true || value === 'true' || value === '1'),
)

/** GET /mgmt/access_grants and /admin/access_grants query (spec/account.md §7). */
export const AccessGrantQuerySchema = v.strictObject({
  pageNumber: v.optional(intFromQuery(1, 1_000_000), 1),
  pageLimit: v.optional(intFromQuery(1, 100), 20),
  state: v.optional(v.picklist(ACCESS_GRANT_STATES)),
  organizationId: v.optional(intFromQuery(1, 2 ** 31 - 1)),
  includeExpired: v.optional(boolFromQuery, false),
  onlySelf: v.optional(boolFromQuery, false),
})

/** POST /admin/access_grants: a provider member asks for 24 h in an organization. */
export const AccessGrantRequestSchema = v.strictObject({
  organizationId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  reason: v.picklist(ACCESS_GRANT_REASONS),
})
