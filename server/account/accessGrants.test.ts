import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AccessGrant } from '../../domain/accountAccess.ts'
import type { Page } from '../../domain/projects.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'

describeEachDialect('account: support access grants', (dialect) => {
  let server: TestServer
  const tokens = { admin: '', manager: '', contributor: '', other: '' }
  let demoOrganizationId = 0
  let otherOrganizationId = 0
  const call = (method: string, path: string, as: keyof typeof tokens, body?: unknown) =>
    server.request(method, `/api${path}`, {
      token: tokens[as],
      ...(body !== undefined && { body }),
    })

  /** Fresh tokens (after the clock moved past their lifetime). */
  const loginAll = async () => {
    tokens.admin = (await server.login(DEMO_USERS.admin.email)).accessToken
    tokens.manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    tokens.contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    tokens.other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    await loginAll()
    demoOrganizationId = (await call('GET', '/users', 'manager')).body.organization.id
    otherOrganizationId = (await call('GET', '/users', 'other')).body.organization.id
  })
  afterAll(async () => {
    await server?.close()
  })

  it('gives a provider member 24 h of access that the organization sees, revokes and lets expire', async () => {
    const created = await call('POST', '/admin/access_grants', 'admin', {
      organizationId: otherOrganizationId,
      reason: 'support',
    })
    expect(created.status).toBe(201)
    const grant = created.body as AccessGrant
    expect(grant).toMatchObject({
      state: 'active',
      reason: 'support',
      requester: { fullName: 'Ada Admin', avatarId: 9 },
      organization: { id: otherOrganizationId, name: 'Other Organization' },
    })
    expect(Date.parse(grant.expiry) - Date.parse(grant.createdAt)).toBe(24 * 3600_000)

    const seen = (await call('GET', '/mgmt/access_grants', 'other')).body as Page<AccessGrant>
    expect(seen.results.map((g) => g.id)).toEqual([grant.id])
    // The demo organization's manager sees none of the other organization's grants.
    expect((await call('GET', '/mgmt/access_grants', 'manager')).body.resultCount).toBe(0)
    const own = (await call('GET', '/admin/access_grants?onlySelf=true', 'admin'))
      .body as Page<AccessGrant>
    expect(own.results.map((g) => g.id)).toContain(grant.id)

    const revoked = await call('DELETE', `/mgmt/access_grants/${grant.id}`, 'other')
    expect(revoked.status).toBe(200)
    expect(revoked.body.state).toBe('revoked')
    const afterRevoke = await call('GET', '/mgmt/access_grants?state=revoked', 'other')
    expect((afterRevoke.body as Page<AccessGrant>).results.map((g) => g.id)).toEqual([grant.id])

    const second = (
      await call('POST', '/admin/access_grants', 'admin', {
        organizationId: otherOrganizationId,
        reason: 'onboarding',
      })
    ).body as AccessGrant
    server.advanceClockMs(24 * 3600_000)
    await loginAll()
    const later = (await call('GET', '/mgmt/access_grants', 'other')).body as Page<AccessGrant>
    expect(later.results.map((g) => g.id)).not.toContain(second.id)
    const withExpired = (await call('GET', '/mgmt/access_grants?includeExpired=true', 'other'))
      .body as Page<AccessGrant>
    expect(withExpired.results.find((g) => g.id === second.id)?.state).toBe('expired')
  })

  it('refuses the routes to roles without the right (403) and other organizations (404)', async () => {
    const grant = (
      await call('POST', '/admin/access_grants', 'admin', {
        organizationId: demoOrganizationId,
        reason: 'workshop',
      })
    ).body as AccessGrant
    // A manager has no ACCESS_GRANT_SELECTION; a contributor has no USERS_VIEW / USERS_EDIT.
    const request = { organizationId: otherOrganizationId, reason: 'support' }
    expect((await call('POST', '/admin/access_grants', 'manager', request)).status).toBe(403)
    expect((await call('GET', '/admin/access_grants', 'manager')).status).toBe(403)
    expect((await call('GET', '/mgmt/access_grants', 'contributor')).status).toBe(403)
    expect((await call('DELETE', `/mgmt/access_grants/${grant.id}`, 'contributor')).status).toBe(
      403,
    )
    expect((await call('DELETE', `/mgmt/access_grants/${grant.id}`, 'other')).status).toBe(404)
    expect(
      (await call('GET', `/mgmt/access_grants?organizationId=${demoOrganizationId}`, 'other'))
        .status,
    ).toBe(404)
    expect(
      (await call('POST', '/admin/access_grants', 'admin', { ...request, organizationId: 999999 }))
        .status,
    ).toBe(404)
    expect(
      (await call('POST', '/admin/access_grants', 'admin', { ...request, reason: 'curiosity' }))
        .status,
    ).toBe(400)
    expect((await call('GET', '/mgmt/access_grants', 'manager')).body.resultCount).toBe(1)
  })

  it('lets a provider member act in an organization through an active grant until it is revoked or expires', async () => {
    const actAs = (grantId: number | null, as: keyof typeof tokens = 'admin') =>
      call('PUT', '/users', as, { activeAccessGrantId: grantId })
    const actingIn = async () => {
      const user = (await call('GET', '/users', 'admin')).body as {
        organization: { id: number }
        activeAccessGrantId: number | null
      }
      return { organizationId: user.organization.id, grantId: user.activeAccessGrantId }
    }
    const request = { organizationId: otherOrganizationId, reason: 'support' }
    const grant = (await call('POST', '/admin/access_grants', 'admin', request)).body as AccessGrant

    // Without a grant of one's own there is nothing to act through.
    expect((await actAs(grant.id, 'manager')).status).toBe(403)
    expect((await actAs(grant.id, 'other')).status).toBe(403)
    expect((await actAs(999999)).status).toBe(404)
    expect(await actingIn()).toEqual({ organizationId: demoOrganizationId, grantId: null })
    const projectNames = async () =>
      ((await call('GET', '/projects', 'admin')).body as Page<{ name: string }>).results.map(
        (project) => project.name,
      )
    expect(await projectNames()).toContain('Demo project')

    const chosen = await actAs(grant.id)
    expect(chosen.status).toBe(200)
    expect(chosen.body).toMatchObject({
      organization: { id: otherOrganizationId, name: 'Other Organization' },
      activeAccessGrantId: grant.id,
    })
    // Every request now acts in the granted organization: its team, its projects, its budget.
    expect(await actingIn()).toEqual({ organizationId: otherOrganizationId, grantId: grant.id })
    const team = (await call('GET', '/mgmt/users', 'admin')).body as { email: string }[]
    expect(team.map((member) => member.email)).toEqual(['other@dive.example'])
    expect(await projectNames()).not.toContain('Demo project')

    // null goes back to the own organization.
    expect((await actAs(null)).body.organization.id).toBe(demoOrganizationId)
    expect(await actingIn()).toEqual({ organizationId: demoOrganizationId, grantId: null })

    // Revoking the grant ends the acting at once.
    await actAs(grant.id)
    expect((await call('DELETE', `/mgmt/access_grants/${grant.id}`, 'other')).status).toBe(200)
    expect(await actingIn()).toEqual({ organizationId: demoOrganizationId, grantId: null })
    expect((await call('GET', '/mgmt/users', 'admin')).body).not.toEqual(team)
    expect((await actAs(grant.id)).status).toBe(404)

    // So does its expiry, 24 h after it was given.
    const later = (await call('POST', '/admin/access_grants', 'admin', request)).body as AccessGrant
    expect((await actAs(later.id)).status).toBe(200)
    server.advanceClockMs(24 * 3600_000 - 60_000)
    await loginAll()
    expect((await actingIn()).organizationId).toBe(otherOrganizationId)
    server.advanceClockMs(60_000)
    await loginAll()
    expect(await actingIn()).toEqual({ organizationId: demoOrganizationId, grantId: null })
    expect((await actAs(later.id)).status).toBe(404)
  })
})
