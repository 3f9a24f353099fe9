import type { ACCOUNT_ROUTES } from '../../domain/rest/accountRoutes.ts'
import type { AreaHandlers } from '../api/context.ts'
import {
  adminAnalyticsEvents,
  adminAnalyticsSummary,
  analyticsPreference,
  trackAnalytics,
  updateAnalyticsPreference,
} from '../analytics/handlers.ts'
import {
  listAdminAccessGrants,
  listOrganizationAccessGrants,
  requestAccessGrant,
  revokeAccessGrant,
} from './accessGrantHandlers.ts'
import { getBudget, getCreditHistory, listCreditSequences } from './budgetHandlers.ts'
import {
  changePassword,
  deleteAuthenticator,
  enrolAuthenticator,
  listAuthenticators,
  requestPasswordReset,
  resetPassword,
  verifyAuthenticator,
} from './securityHandlers.ts'
import {
  createTeamUser,
  deleteTeamUser,
  sendUserPasswordMail,
  updateTeamUser,
} from './teamHandlers.ts'

/** Handlers of the account routes of issue 15. */
export const accountHandlers: AreaHandlers<typeof ACCOUNT_ROUTES> = {
  requestPasswordReset,
  changePassword,
  resetPassword,
  sendUserPasswordMail,
  listAuthenticators,
  enrolAuthenticator,
  verifyAuthenticator,
  deleteAuthenticator,
  createTeamUser,
  updateTeamUser,
  deleteTeamUser,
  budget: getBudget,
  creditSequences: listCreditSequences,
  creditHistory: getCreditHistory,
  organizationAccessGrants: listOrganizationAccessGrants,
  revokeAccessGrant,
  adminAccessGrants: listAdminAccessGrants,
  requestAccessGrant,
  trackAnalytics,
  analyticsPreference,
  updateAnalyticsPreference,
  adminAnalyticsEvents,
  adminAnalyticsSummary,
}
