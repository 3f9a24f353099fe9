import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AnalyticsSummaryRow, StoredAnalyticsEvent } from '../../domain/analytics.ts'
import type { Page } from '../../domain/projects.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'

describeEachDialect('analytics: events sent, stored, read by provider members', (dialect) => {
  let server: TestServer
  const tokens = { admin: '', manager: '', contributor: '', other: '' }
  const call = (method: string, path: string, as: keyof typeof tokens | null, body?: unknown) =>
    server.request(method, `/api${path}`, {
      ...(as !== null && { token: tokens[as] }),
      ...(body !== undefined && { body }),
    })
  const at = '2026-11-27T10:00:00.000Z'
  const quantityChanged = {
    name: 'ui_output-quantity_changed',
    properties: { quantity: 'pressure', outputNo: 12, simulationId: 3 },
    occurredAt: at,
  }
  const viewChanged = {
    name: 'ui_project-view_changed',
    properties: { view: 'all' },
    occurredAt: at,
  }
  const summary = async () =>
    (await call('GET', '/admin/analytics/summary', 'admin')).body as AnalyticsSummaryRow[]
  const countOf = async (name: string) =>
    (await summary()).find((row) => row.name === name)?.count ?? 0

  beforeAll(async () => {
    server = await startTestServer(dialect)
    tokens.admin = (await server.login(DEMO_USERS.admin.email)).accessToken
    tokens.manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    tokens.contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    tokens.other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
  })
  afterAll(async () => {
    await server?.close()
  })

  it('stores the events of the spec with their properties, sender and organization', async () => {
    const sent = await call('POST', '/analytics/events', 'contributor', {
      events: [quantityChanged, viewChanged],
    })
    expect(sent.status).toBe(200)
    expect(sent.body).toEqual({ stored: 2 })
    expect(
      (
        await call('POST', '/analytics/events', 'other', {
          events: [{ name: 'ui_simulation_started', properties: {}, occurredAt: at }],
        })
      ).body,
    ).toEqual({ stored: 1 })

    const page = (
      await call('GET', '/admin/analytics/events?name=ui_output-quantity_changed', 'admin')
    ).body as Page<StoredAnalyticsEvent>
    expect(page.resultCount).toBe(1)
    const contributor = (await call('GET', '/users', 'contributor')).body as {
      id: number
      organization: { id: number }
    }
    expect(page.results[0]).toMatchObject({
      name: 'ui_output-quantity_changed',
      properties: { quantity: 'pressure', outputNo: 12, simulationId: 3 },
      occurredAt: at,
      userId: contributor.id,
      organizationId: contributor.organization.id,
    })
    expect(await summary()).toEqual([
      { name: 'ui_output-quantity_changed', count: 1, users: 1 },
      { name: 'ui_project-view_changed', count: 1, users: 1 },
      { name: 'ui_simulation_started', count: 1, users: 1 },
    ])
    const all = (await call('GET', '/admin/analytics/events?pageLimit=2&pageNumber=2', 'admin'))
      .body as Page<StoredAnalyticsEvent>
    expect({ count: all.resultCount, pages: all.pageCount, onPage: all.results.length }).toEqual({
      count: 3,
      pages: 2,
      onPage: 1,
    })
  })

  it('refuses events the spec does not name or with wrong properties (400)', async () => {
    const bad = [
      { name: 'ui_secret_tracking', properties: {}, occurredAt: at },
      { ...quantityChanged, properties: { quantity: 'pressure' } },
      { ...viewChanged, properties: { view: 'everything' } },
      { ...viewChanged, properties: { view: 'all', email: 'x@y.z' } },
      { ...viewChanged, occurredAt: 'yesterday' },
    ]
    for (const event of bad)
      expect((await call('POST', '/analytics/events', 'manager', { events: [event] })).status).toBe(
        400,
      )
    expect((await call('POST', '/analytics/events', 'manager', { events: [] })).status).toBe(400)
  })

  it('keeps nothing from a user who opted out, until they opt back in', async () => {
    expect((await call('GET', '/analytics/preference', 'manager')).body).toEqual({ optOut: false })
    const before = await countOf('ui_project-view_changed')
    const out = await call('PUT', '/analytics/preference', 'manager', { optOut: true })
    expect(out.body).toEqual({ optOut: true })
    expect((await call('GET', '/analytics/preference', 'manager')).body).toEqual({ optOut: true })
    expect(
      (await call('POST', '/analytics/events', 'manager', { events: [viewChanged] })).body,
    ).toEqual({ stored: 0 })
    expect(await countOf('ui_project-view_changed')).toBe(before)
    // Another user's choice is their own.
    expect((await call('GET', '/analytics/preference', 'contributor')).body).toEqual({
      optOut: false,
    })
    await call('PUT', '/analytics/preference', 'manager', { optOut: false })
    expect(
      (await call('POST', '/analytics/events', 'manager', { events: [viewChanged] })).body,
    ).toEqual({ stored: 1 })
    expect(await countOf('ui_project-view_changed')).toBe(before + 1)
  })

  it('lets only provider members read analytics (403), and nobody without a session (401)', async () => {
    for (const role of ['manager', 'contributor', 'other'] as const) {
      expect((await call('GET', '/admin/analytics/events', role)).status).toBe(403)
      expect((await call('GET', '/admin/analytics/summary', role)).status).toBe(403)
    }
    expect((await call('GET', '/admin/analytics/events', 'admin')).status).toBe(200)
    expect((await call('GET', '/admin/analytics/events', null)).status).toBe(401)
    expect((await call('POST', '/analytics/events', null, { events: [viewChanged] })).status).toBe(
      401,
    )
    expect((await call('PUT', '/analytics/preference', null, { optOut: true })).status).toBe(401)
  })
})
