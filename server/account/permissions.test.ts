import { afterAll, beforeAll, expect, it } from 'vitest'
import { ROUTES } from '../../domain/rest.ts'
import { ACCOUNT_ROUTES } from '../../domain/rest/accountRoutes.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'

/*
 * Issue 15: every account route, called by each role (spec/account.md §6), answers what the role
 * may do: contributor (no permissions), manager (all but ACCESS_GRANT_SELECTION), provider admin
 * (all eight) and the manager of another organization (whose view of the demo organization's
 * resources is 404). One row per route; a row's `prepare` makes a fresh target for each caller.
 */

const CALLERS = ['contributor', 'manager', 'admin', 'other'] as const
type Caller = (typeof CALLERS)[number]

interface Row {
  route: string
  /** Method and path (ids filled in by prepare), body. */
  prepare: (caller: Caller) => Promise<{ method: string; path: string; body?: unknown }>
  expected: Record<Caller, number>
}

/** A wrong TOTP code at verification. */
const VERIFY_WRONG_CODE = 400

const all = (status: number): Record<Caller, number> => ({
  contributor: status,
  manager: status,
  admin: status,
  other: status,
})

describeEachDialect('account routes: each role’s permission', (dialect) => {
  let server: TestServer
  const tokens: Record<Caller, string> = { contributor: '', manager: '', admin: '', other: '' }
  const ids = { contributor: 0, manager: 0, demoOrganization: 0 }
  let invites = 0
  const call = (caller: Caller, method: string, path: string, body?: unknown) =>
    server.request(method, `/api${path}`, {
      token: tokens[caller],
      ...(body !== undefined && { body }),
    })
  /** A fresh contributor of the demo organization (a target to edit or delete). */
  const freshMember = async () => {
    invites += 1
    const created = await call('manager', 'POST', '/mgmt/users', {
      email: `member-${invites}@dive.example`,
      firstName: 'Member',
      lastName: `Number ${invites}`,
    })
    return (created.body as { id: number }).id
  }
  /** A fresh grant of the admin to the demo organization. */
  const freshGrant = async () =>
    (
      (
        await call('admin', 'POST', '/admin/access_grants', {
          organizationId: ids.demoOrganization,
          reason: 'support',
        })
      ).body as { id: number }
    ).id
  /** A fresh, unconfirmed authenticator of `caller`. */
  const enrol = async (caller: Caller) =>
    ((await call(caller, 'POST', '/auth/mfa', {})).body as { authenticator: { id: number } })
      .authenticator.id
  const fixed = (method: string, path: string, body?: unknown) => () =>
    Promise.resolve({ method, path, ...(body !== undefined && { body }) })
  const since = '2020-01-01T00:00:00.000Z'

  const ROWS: Row[] = [
    { route: 'currentUser', prepare: fixed('GET', '/users'), expected: all(200) },
    {
      route: 'updateProfile',
      prepare: fixed('PUT', '/users', { location: 'Berlin' }),
      expected: all(200),
    },
    {
      route: 'updateProfile (activeAccessGrantId)',
      prepare: async () => ({
        method: 'PUT',
        path: '/users',
        body: { activeAccessGrantId: await freshGrant() },
      }),
      expected: { contributor: 403, manager: 403, admin: 200, other: 403 },
    },
    { route: 'organizations', prepare: fixed('GET', '/organizations'), expected: all(200) },
    {
      route: 'storageConsumption',
      prepare: fixed('GET', '/storage_consumption/organization'),
      expected: all(200),
    },
    {
      route: 'teamUsers',
      prepare: fixed('GET', '/mgmt/users'),
      expected: { contributor: 403, manager: 200, admin: 200, other: 200 },
    },
    {
      route: 'requestPasswordReset',
      prepare: fixed('POST', '/auth/password', {}),
      expected: all(200),
    },
    {
      route: 'changePassword',
      prepare: fixed('PUT', '/auth/password', {
        currentPassword: 'not-the-password',
        newPassword: 'a-new-password-1',
      }),
      // Everyone may change their own password; the wrong current one is refused for all.
      expected: all(400),
    },
    {
      route: 'sendUserPasswordMail',
      prepare: () =>
        Promise.resolve({
          method: 'POST',
          path: `/mgmt/users/${ids.contributor}/auth/password`,
        }),
      expected: { contributor: 403, manager: 200, admin: 200, other: 404 },
    },
    {
      route: 'listAuthenticators',
      prepare: fixed('GET', '/auth/mfa/authenticators'),
      expected: all(200),
    },
    { route: 'enrolAuthenticator', prepare: fixed('POST', '/auth/mfa', {}), expected: all(201) },
    {
      route: 'verifyAuthenticator',
      prepare: async (caller) => ({
        method: 'POST',
        path: `/auth/mfa/authenticators/${await enrol(caller)}/verify`,
        body: { code: '000000' },
      }),
      // Everyone may verify their own enrolment; a wrong code is refused for all.
      expected: all(VERIFY_WRONG_CODE),
    },
    {
      route: 'deleteAuthenticator',
      prepare: async (caller) => ({
        method: 'DELETE',
        path: `/auth/mfa/authenticators/${await enrol(caller)}`,
      }),
      expected: all(200),
    },
    {
      route: 'deleteAuthenticator (another user’s)',
      prepare: async () => ({
        method: 'DELETE',
        path: `/auth/mfa/authenticators/${await enrol('contributor')}`,
      }),
      expected: { contributor: 200, manager: 404, admin: 404, other: 404 },
    },
    {
      route: 'resetPassword',
      prepare: fixed('POST', '/auth/password/reset', {
        token: 'not-a-token-from-an-e-mail',
        password: 'a-new-password-1',
      }),
      // Public (the e-mail link): only a valid token counts, whoever calls.
      expected: all(401),
    },
    {
      route: 'createTeamUser',
      prepare: (caller) =>
        Promise.resolve({
          method: 'POST',
          path: '/mgmt/users',
          body: { email: `by-${caller}@dive.example`, firstName: 'New', lastName: 'Person' },
        }),
      expected: { contributor: 403, manager: 201, admin: 201, other: 201 },
    },
    {
      route: 'updateTeamUser',
      prepare: async () => ({
        method: 'PUT',
        path: `/mgmt/users/${await freshMember()}`,
        body: { department: 'Testing' },
      }),
      expected: { contributor: 403, manager: 200, admin: 200, other: 404 },
    },
    {
      route: 'deleteTeamUser',
      prepare: async () => ({ method: 'DELETE', path: `/mgmt/users/${await freshMember()}` }),
      expected: { contributor: 403, manager: 200, admin: 200, other: 404 },
    },
    { route: 'budget', prepare: fixed('GET', '/credits/budget'), expected: all(200) },
    {
      route: 'creditSequences',
      prepare: fixed('GET', `/credits/sequences?startDate=${since}`),
      expected: all(200),
    },
    {
      route: 'creditHistory',
      prepare: fixed('GET', `/credits/history?startDate=${since}`),
      expected: all(200),
    },
    {
      route: 'creditHistory (userId)',
      prepare: () =>
        Promise.resolve({
          method: 'GET',
          path: `/credits/history?startDate=${since}&userId=${ids.manager}`,
        }),
      expected: { contributor: 403, manager: 200, admin: 200, other: 404 },
    },
    {
      route: 'organizationAccessGrants',
      prepare: fixed('GET', '/mgmt/access_grants'),
      expected: { contributor: 403, manager: 200, admin: 200, other: 200 },
    },
    {
      route: 'revokeAccessGrant',
      prepare: async () => ({
        method: 'DELETE',
        path: `/mgmt/access_grants/${await freshGrant()}`,
      }),
      expected: { contributor: 403, manager: 200, admin: 200, other: 404 },
    },
    {
      route: 'adminAccessGrants',
      prepare: fixed('GET', '/admin/access_grants'),
      expected: { contributor: 403, manager: 403, admin: 200, other: 403 },
    },
    {
      route: 'requestAccessGrant',
      prepare: () =>
        Promise.resolve({
          method: 'POST',
          path: '/admin/access_grants',
          body: { organizationId: ids.demoOrganization, reason: 'onboarding' },
        }),
      expected: { contributor: 403, manager: 403, admin: 201, other: 403 },
    },
    {
      route: 'trackAnalytics',
      prepare: fixed('POST', '/analytics/events', {
        events: [
          { name: 'ui_project-view_changed', properties: { view: 'own' }, occurredAt: since },
        ],
      }),
      expected: all(200),
    },
    {
      route: 'analyticsPreference',
      prepare: fixed('GET', '/analytics/preference'),
      expected: all(200),
    },
    {
      route: 'updateAnalyticsPreference',
      prepare: fixed('PUT', '/analytics/preference', { optOut: false }),
      expected: all(200),
    },
    {
      route: 'adminAnalyticsEvents',
      prepare: fixed('GET', '/admin/analytics/events'),
      expected: { contributor: 403, manager: 403, admin: 200, other: 403 },
    },
    {
      route: 'adminAnalyticsSummary',
      prepare: fixed('GET', '/admin/analytics/summary'),
      expected: { contributor: 403, manager: 403, admin: 200, other: 403 },
    },
  ]

  beforeAll(async () => {
    server = await startTestServer(dialect)
    tokens.contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    tokens.manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    tokens.admin = (await server.login(DEMO_USERS.admin.email)).accessToken
    tokens.other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const contributor = (await call('contributor', 'GET', '/users')).body as {
      id: number
      organization: { id: number }
    }
    ids.contributor = contributor.id
    ids.manager = ((await call('manager', 'GET', '/users')).body as { id: number }).id
    ids.demoOrganization = contributor.organization.id
  })
  afterAll(async () => {
    await server?.close()
  })

  it('has a row for every account route', () => {
    const covered = new Set(ROWS.map((row) => row.route.split(' ')[0]))
    const accountRoutes = [
      ...Object.keys(ACCOUNT_ROUTES),
      'currentUser',
      'updateProfile',
      'teamUsers',
      'organizations',
      'storageConsumption',
    ]
    expect(accountRoutes.filter((name) => !(name in ROUTES) || !covered.has(name))).toEqual([])
  })

  it('answers each role as its permissions allow', async () => {
    const seen: string[] = []
    const wanted: string[] = []
    for (const row of ROWS)
      for (const caller of CALLERS) {
        const { method, path, body } = await row.prepare(caller)
        const reply = await call(caller, method, path, body)
        seen.push(`${row.route} as ${caller}: ${reply.status}`)
        wanted.push(`${row.route} as ${caller}: ${row.expected[caller]}`)
        // The admin acted through a grant in one row: back to the own organization.
        if (caller === 'admin') await call('admin', 'PUT', '/users', { activeAccessGrantId: null })
      }
    expect(seen).toEqual(wanted)
  })

  it('refuses every account route without a session (401), except the e-mail link', async () => {
    for (const [name, def] of Object.entries(ACCOUNT_ROUTES)) {
      const path = def.path.replace('{id}', '1')
      const reply = await server.request(def.method, `/api${path}`, {
        ...(def.method !== 'GET' && def.method !== 'DELETE' && { body: {} }),
      })
      if (def.auth) expect(`${name}: ${reply.status}`).toBe(`${name}: 401`)
    }
  })
})
