/**
 * Account calls of spec/account.md §7 added by issue 15: password reset and change, two-factor
 * authenticators, the team management of /mgmt/users, budget, access grants and analytics.
 */
import * as v from 'valibot'
import { InviteSchema } from '../account.ts'
import {
  AccessGrantQuerySchema,
  AccessGrantRequestSchema,
  AccessGrantSchema,
} from '../accountAccess.ts'
import {
  BudgetSchema,
  CreditHistoryEntrySchema,
  CreditHistoryQuerySchema,
  CreditSequenceQuerySchema,
  CreditSequenceSchema,
} from '../accountBudget.ts'
import {
  AuthenticatorSchema,
  MfaCodeSchema,
  MfaEnrolSchema,
  MfaEnrolmentSchema,
  PasswordChangeSchema,
  PasswordResetSchema,
  TeamUserUpdateSchema,
} from '../accountSecurity.ts'
import {
  AnalyticsBatchSchema,
  AnalyticsEventQuerySchema,
  AnalyticsPreferenceSchema,
  AnalyticsSummaryQuerySchema,
  AnalyticsSummaryRowSchema,
  StoredAnalyticsEventSchema,
} from '../analytics.ts'
import { IdParamSchema, pageSchema } from '../projects.ts'
import type { RouteDef } from '../rest.ts'

const OkSchema = v.object({ ok: v.boolean() })
const DeletedSchema = v.object({ id: v.number() })

/** A member of the team as the team page lists it. */
export const TeamMemberSchema = v.object({
  id: v.number(),
  fullName: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  email: v.string(),
  role: v.string(),
  department: v.nullable(v.string()),
  avatarId: v.number(),
})
export type TeamMember = v.InferOutput<typeof TeamMemberSchema>

/** Account calls. */
export const ACCOUNT_ROUTES = {
  requestPasswordReset: {
    method: 'POST',
    path: '/auth/password',
    summary: 'E-mails the logged-in user a link to set a new password',
    auth: true,
    status: 200,
    body: v.strictObject({}),
    response: OkSchema,
  },
  changePassword: {
    method: 'PUT',
    path: '/auth/password',
    summary: 'Changes the own password (the current one is required)',
    auth: true,
    status: 200,
    body: PasswordChangeSchema,
    response: OkSchema,
  },
  resetPassword: {
    method: 'POST',
    path: '/auth/password/reset',
    summary: 'Sets a password with the token of an invitation or reset e-mail',
    auth: false,
    status: 200,
    body: PasswordResetSchema,
    response: OkSchema,
  },
  sendUserPasswordMail: {
    method: 'POST',
    path: '/mgmt/users/{id}/auth/password',
    summary: 'E-mails a team member a link to set a new password (USERS_EDIT)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: OkSchema,
  },
  listAuthenticators: {
    method: 'GET',
    path: '/auth/mfa/authenticators',
    summary: "The logged-in user's TOTP authenticators",
    auth: true,
    status: 200,
    response: v.array(AuthenticatorSchema),
  },
  enrolAuthenticator: {
    method: 'POST',
    path: '/auth/mfa',
    summary: 'Starts a TOTP enrolment: secret, otpauth URI and QR code',
    auth: true,
    status: 201,
    body: MfaEnrolSchema,
    response: MfaEnrolmentSchema,
  },
  verifyAuthenticator: {
    method: 'POST',
    path: '/auth/mfa/authenticators/{id}/verify',
    summary: 'Confirms an enrolment with a code from the app; login then asks for a code',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: MfaCodeSchema,
    response: AuthenticatorSchema,
  },
  deleteAuthenticator: {
    method: 'DELETE',
    path: '/auth/mfa/authenticators/{id}',
    summary: 'Deletes one of the own authenticators',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  createTeamUser: {
    method: 'POST',
    path: '/mgmt/users',
    summary: 'Adds a team member and e-mails the invitation (USERS_ADD)',
    auth: true,
    status: 201,
    body: InviteSchema,
    response: TeamMemberSchema,
  },
  updateTeamUser: {
    method: 'PUT',
    path: '/mgmt/users/{id}',
    summary: 'Edits a team member: changed fields only (USERS_EDIT; not an admin)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: TeamUserUpdateSchema,
    response: TeamMemberSchema,
  },
  deleteTeamUser: {
    method: 'DELETE',
    path: '/mgmt/users/{id}',
    summary: 'Deletes a team member (USERS_EDIT; not an admin, not oneself)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  budget: {
    method: 'GET',
    path: '/credits/budget',
    summary: "The organization's credits, estimated budget hours, VM hours left and subscription",
    auth: true,
    status: 200,
    response: BudgetSchema,
  },
  creditSequences: {
    method: 'GET',
    path: '/credits/sequences',
    summary:
      'Credit transactions since startDate: search, sort, pages (issuer only with CREDITS_VIEW_SEQUENCE_USERS)',
    auth: true,
    status: 200,
    query: CreditSequenceQuerySchema,
    response: pageSchema(CreditSequenceSchema),
  },
  creditHistory: {
    method: 'GET',
    path: '/credits/history',
    summary:
      'Credits consumed per run and day between two dates; userId and issuers need CREDITS_VIEW_SEQUENCE_USERS',
    auth: true,
    status: 200,
    query: CreditHistoryQuerySchema,
    response: v.array(CreditHistoryEntrySchema),
  },
  organizationAccessGrants: {
    method: 'GET',
    path: '/mgmt/access_grants',
    summary: "Access grants to the caller's organization, newest first (USERS_VIEW)",
    auth: true,
    status: 200,
    query: AccessGrantQuerySchema,
    response: pageSchema(AccessGrantSchema),
  },
  revokeAccessGrant: {
    method: 'DELETE',
    path: '/mgmt/access_grants/{id}',
    summary: "Revokes an access grant to the caller's organization (USERS_EDIT)",
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: AccessGrantSchema,
  },
  adminAccessGrants: {
    method: 'GET',
    path: '/admin/access_grants',
    summary:
      'Access grants of every organization, or the own ones with onlySelf (ACCESS_GRANT_SELECTION)',
    auth: true,
    status: 200,
    query: AccessGrantQuerySchema,
    response: pageSchema(AccessGrantSchema),
  },
  requestAccessGrant: {
    method: 'POST',
    path: '/admin/access_grants',
    summary: 'A provider member takes 24 h of access to an organization (ACCESS_GRANT_SELECTION)',
    auth: true,
    status: 201,
    body: AccessGrantRequestSchema,
    response: AccessGrantSchema,
  },
  trackAnalytics: {
    method: 'POST',
    path: '/analytics/events',
    summary: 'Stores analytics events of the interface (none for a user who opted out)',
    auth: true,
    status: 200,
    body: AnalyticsBatchSchema,
    response: v.object({ stored: v.number() }),
  },
  analyticsPreference: {
    method: 'GET',
    path: '/analytics/preference',
    summary: 'Whether the logged-in user opted out of analytics',
    auth: true,
    status: 200,
    response: AnalyticsPreferenceSchema,
  },
  updateAnalyticsPreference: {
    method: 'PUT',
    path: '/analytics/preference',
    summary: 'Opts the logged-in user out of analytics, or back in',
    auth: true,
    status: 200,
    body: AnalyticsPreferenceSchema,
    response: AnalyticsPreferenceSchema,
  },
  adminAnalyticsEvents: {
    method: 'GET',
    path: '/admin/analytics/events',
    summary: 'Stored analytics events of every organization, newest first (ACCESS_GRANT_SELECTION)',
    auth: true,
    status: 200,
    query: AnalyticsEventQuerySchema,
    response: pageSchema(StoredAnalyticsEventSchema),
  },
  adminAnalyticsSummary: {
    method: 'GET',
    path: '/admin/analytics/summary',
    summary: 'Per analytics event: how often and by how many users (ACCESS_GRANT_SELECTION)',
    auth: true,
    status: 200,
    query: AnalyticsSummaryQuerySchema,
    response: v.array(AnalyticsSummaryRowSchema),
  },
} as const satisfies Record<string, RouteDef>
