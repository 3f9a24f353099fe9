import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CreditHistoryEntry, CreditSequence } from '../../domain/accountBudget.ts'
import type { Page } from '../../domain/projects.ts'
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../../tests/integration/harness.ts'
import { createClock } from '../clock.ts'
import { DEMO_PASSWORD, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { migrateToLatest } from '../db/migrations.ts'
import { seedDatabase } from '../db/seed.ts'
import {
  DEFAULT_SCRIPT,
  createFakeExecutors,
  startJobsApp,
  type JobsTestServer,
} from '../jobs/testing.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describeEachDialect('budget: credits, transactions and history from the runs', (dialect) => {
  let database: TestDatabase
  let server: JobsTestServer
  const tokens: Record<'manager' | 'contributor' | 'other', string> = {
    manager: '',
    contributor: '',
    other: '',
  }
  const ids: Record<'manager' | 'contributor', number> = { manager: 0, contributor: 0 }
  const fake = createFakeExecutors({ ...DEFAULT_SCRIPT })
  const startIso = new Date(Date.now() - 3600_000).toISOString()

  const call = async (path: string, as: keyof typeof tokens, method = 'GET', body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens[as]}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : undefined }
  }
  const login = async (email: string) => {
    const response = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    })
    return ((await response.json()) as { accessToken: string }).accessToken
  }
  /** A simulation of `as`, run to completion through the job runner. */
  const finishedRun = async (as: 'manager' | 'contributor', name: string) => {
    const project = await call('/projects', as, 'POST', { name: `${name} project` })
    const simulation = await call(`/projects/${project.body.id}/simulations`, as, 'POST', { name })
    const id = simulation.body.id as number
    expect(
      (await call(`/simulations/${id}/jobs`, as, 'POST', { cores: 1, solver_id: 1 })).status,
    ).toBe(201)
    for (let i = 0; i < 500; i++) {
      if ((await call(`/simulations/${id}`, as)).body.state === 'completed') return
      await sleep(20)
    }
    throw new Error(`${name} did not complete`)
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, createClock())
    server = await startJobsApp(database.handle, { executors: fake.executors })
    tokens.manager = await login(DEMO_USERS.manager.email)
    tokens.contributor = await login(DEMO_USERS.contributor.email)
    tokens.other = await login(OTHER_ORGANIZATION_USER.email)
    ids.manager = (await call('/users', 'manager')).body.id
    ids.contributor = (await call('/users', 'contributor')).body.id
    await finishedRun('manager', 'Dam break A')
    await finishedRun('contributor', 'Sloshing B')
  })
  afterAll(async () => {
    await server?.close()
    await database?.drop()
  })

  it('gives the budget figures: credits after the runs, budget hours = credits / 120', async () => {
    const budget = await call('/credits/budget', 'contributor')
    expect(budget.status).toBe(200)
    expect(budget.body.credits).toBeCloseTo(2500 - 3)
    expect(budget.body.simulationHours).toBeCloseTo((2500 - 3) / 120)
    expect(budget.body).toMatchObject({
      vmHours: 20,
      ssoConnection: null,
      activeSubscription: { kind: 'engineering', maxCores: 2 },
    })
    expect((await call('/credits/budget', 'other')).body.credits).toBe(100)
  })

  it('lists each run as a simulation transaction with its owner for a manager', async () => {
    const page = await call(`/credits/sequences?startDate=${startIso}`, 'manager')
    expect(page.status).toBe(200)
    const body = page.body as Page<CreditSequence>
    expect(body.resultCount).toBe(2)
    expect(body.pageCount).toBe(1)
    // Newest first by default.
    expect(body.results.map((s) => s.simulationName)).toEqual(['Sloshing B', 'Dam break A'])
    expect(body.results[0]).toMatchObject({
      kind: 'simulation',
      credits: -1.5,
      issuerId: ids.contributor,
      issuer: { id: ids.contributor, fullName: 'Carl Contributor' },
    })
    expect(body.results[1]?.simulationHours).toBeCloseTo(1.5 / 60)
  })

  it('searches, sorts and pages the transactions', async () => {
    const search = await call('/credits/sequences?q=slosh', 'manager')
    expect((search.body as Page<CreditSequence>).results.map((s) => s.simulationName)).toEqual([
      'Sloshing B',
    ])
    const byUser = await call('/credits/sequences?q=mia', 'manager')
    expect(byUser.body.resultCount).toBe(1)
    const asc = await call('/credits/sequences?orderBy=transaction&asc=true&pageLimit=1', 'manager')
    expect(asc.body).toMatchObject({ resultCount: 2, pageCount: 2 })
    expect(asc.body.results[0].simulationName).toBe('Dam break A')
    const second = await call(
      '/credits/sequences?orderBy=transaction&asc=true&pageLimit=1&pageNumber=2',
      'manager',
    )
    expect(second.body.results[0].simulationName).toBe('Sloshing B')
    const future = new Date(Date.now() + 3600_000).toISOString()
    expect((await call(`/credits/sequences?startDate=${future}`, 'manager')).body.resultCount).toBe(
      0,
    )
    expect((await call('/credits/sequences?pageLimit=0', 'manager')).status).toBe(400)
    expect((await call('/credits/sequences?orderBy=colour', 'manager')).status).toBe(400)
  })

  it('hides the issuers from a contributor (no CREDITS_VIEW_SEQUENCE_USERS)', async () => {
    const page = await call('/credits/sequences', 'contributor')
    expect(page.body.resultCount).toBe(2)
    for (const sequence of page.body.results as CreditSequence[]) {
      expect(sequence.issuer).toBeNull()
      expect(sequence.issuerId).toBeNull()
    }
    expect((await call('/credits/sequences?q=carl', 'contributor')).body.resultCount).toBe(0)
    const history = (await call(`/credits/history?startDate=${startIso}`, 'contributor'))
      .body as CreditHistoryEntry[]
    expect(history).toHaveLength(2)
    expect(history.every((entry) => entry.issuer === null)).toBe(true)
  })

  it('gives the consumption per day, per user for a manager', async () => {
    const history = await call(`/credits/history?startDate=${startIso}`, 'manager')
    expect(history.status).toBe(200)
    const entries = history.body as CreditHistoryEntry[]
    expect(entries.map((e) => [e.issuer?.fullName, e.credits])).toEqual([
      ['Mia Manager', 1.5],
      ['Carl Contributor', 1.5],
    ])
    expect(entries[0]?.date).toBe(new Date().toISOString().slice(0, 10))
    const carl = await call(
      `/credits/history?startDate=${startIso}&userId=${ids.contributor}`,
      'manager',
    )
    expect((carl.body as CreditHistoryEntry[]).map((e) => e.issuer?.id)).toEqual([ids.contributor])
    const own = await call(
      `/credits/history?startDate=${startIso}&userId=${ids.contributor}`,
      'contributor',
    )
    expect(own.status).toBe(200)
    expect(own.body).toHaveLength(1)
    const before = new Date(Date.now() - 1800_000).toISOString()
    expect(
      (await call(`/credits/history?startDate=${startIso}&endDate=${before}`, 'manager')).body,
    ).toEqual([])
  })

  it("refuses another user's history to a contributor (403) and another organization (404)", async () => {
    expect(
      (await call(`/credits/history?startDate=${startIso}&userId=${ids.manager}`, 'contributor'))
        .status,
    ).toBe(403)
    const otherId = (await call('/users', 'other')).body.id as number
    expect(
      (await call(`/credits/history?startDate=${startIso}&userId=${otherId}`, 'manager')).status,
    ).toBe(404)
    expect(
      (await call(`/credits/history?startDate=${startIso}&userId=${ids.manager}`, 'other')).status,
    ).toBe(404)
    // Nothing of the demo organization reaches the other one.
    expect((await call('/credits/sequences', 'other')).body.resultCount).toBe(0)
    expect((await call(`/credits/history?startDate=${startIso}`, 'other')).body).toEqual([])
    expect((await call('/credits/history', 'manager')).status).toBe(400)
  })

  it('reports the organization’s single sign-on connection; its users get no password or two-factor of ours', async () => {
    const other = (await call('/users', 'other')).body as { organization: { id: number } }
    const db = database.handle.db
    await db
      .updateTable('organizations')
      .set({ sso_connection: 'okta-other' })
      .where('id', '=', other.organization.id)
      .execute()
    try {
      expect((await call('/credits/budget', 'other')).body.ssoConnection).toBe('okta-other')
      expect((await call('/credits/budget', 'manager')).body.ssoConnection).toBeNull()
      const post = async (path: string, body: unknown, method = 'POST') =>
        (await call(path, 'other', method, body)).status
      expect(await post('/auth/password', {})).toBe(403)
      expect(await post('/auth/mfa', {})).toBe(403)
      const change = { currentPassword: 'dive-demo', newPassword: 'another-pass-1' }
      expect(await post('/auth/password', change, 'PUT')).toBe(403)
    } finally {
      await db
        .updateTable('organizations')
        .set({ sso_connection: null })
        .where('id', '=', other.organization.id)
        .execute()
    }
  })
})
