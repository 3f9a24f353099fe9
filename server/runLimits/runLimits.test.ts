import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Organization } from '../../domain/account.ts'
import { RUN_TEXTS, START_LIMIT_TEXTS } from '../../domain/rest/runRoutes.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { DEMO_ORGANIZATION_NAME, DEMO_USERS } from '../db/demoAccounts.ts'
import { runLimitsOf, startLimitMessage } from './runLimits.ts'

const SUBSCRIBED = {
  subscription_kind: 'engineering',
  subscription_free_instance: 0,
  subscription_max_simulations: null,
} as const

describe('run limits of an organization', () => {
  it('holds nothing back without a subscription', () => {
    expect(
      runLimitsOf({ ...SUBSCRIBED, subscription_kind: null, subscription_max_simulations: 0 }, 5),
    ).toEqual({ freeInstanceOccupied: false, maximumSimulationsExceeded: false })
  })

  it('occupies the free instance with one simulation under way', () => {
    const free = { ...SUBSCRIBED, subscription_free_instance: 1 as const }
    expect(runLimitsOf(free, 0).freeInstanceOccupied).toBe(false)
    expect(runLimitsOf(free, 1).freeInstanceOccupied).toBe(true)
    expect(runLimitsOf(SUBSCRIBED, 3).freeInstanceOccupied).toBe(false)
  })

  it('reaches the maximum when as many simulations run as the subscription allows', () => {
    const two = { ...SUBSCRIBED, subscription_max_simulations: 2 }
    expect(runLimitsOf(two, 1).maximumSimulationsExceeded).toBe(false)
    expect(runLimitsOf(two, 2).maximumSimulationsExceeded).toBe(true)
    expect(runLimitsOf(SUBSCRIBED, 100).maximumSimulationsExceeded).toBe(false)
  })

  it('names the maximum first, then the free instance', () => {
    expect(
      startLimitMessage({ freeInstanceOccupied: true, maximumSimulationsExceeded: true }),
    ).toBe(START_LIMIT_TEXTS.maximumSimulations)
    expect(
      startLimitMessage({ freeInstanceOccupied: true, maximumSimulationsExceeded: false }),
    ).toBe(START_LIMIT_TEXTS.freeInstanceOccupied)
    expect(
      startLimitMessage({ freeInstanceOccupied: false, maximumSimulationsExceeded: false }),
    ).toBeNull()
  })
})

describeEachDialect('run limits: GET /organizations and the start check', (dialect) => {
  let server: TestServer
  let manager: string
  let target: number
  let busy: number

  const organization = async (): Promise<Organization> =>
    (await server.request<Organization[]>('GET', '/api/organizations', { token: manager })).body[0]!
  const start = () =>
    server.request('POST', `/api/simulations/${target}/jobs`, {
      token: manager,
      body: { cores: 1, solver_id: 1 },
    })
  const setSubscription = (freeInstance: 0 | 1, maxSimulations: number | null) =>
    server.database.handle.db
      .updateTable('organizations')
      .set({
        subscription_free_instance: freeInstance,
        subscription_max_simulations: maxSimulations,
      })
      .where('name', '=', DEMO_ORGANIZATION_NAME)
      .execute()
  const setBusyState = (state: string) =>
    server.database.handle.db
      .updateTable('simulations')
      .set({ state })
      .where('id', '=', busy)
      .execute()

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request('GET', '/api/projects?pageLimit=50', { token: manager })
    const projectId = projects.body.results[0].id as number
    const create = async (name: string) =>
      (
        await server.request('POST', `/api/projects/${projectId}/simulations`, {
          token: manager,
          body: { name },
        })
      ).body.id as number
    target = await create('Limits target')
    busy = await create('Limits busy')
  })
  afterAll(async () => {
    await server?.close()
  })
  beforeEach(async () => {
    await setSubscription(0, null)
    await setBusyState('completed')
  })

  it('reports no limit reached while nothing runs', async () => {
    await setSubscription(1, 1)
    expect(await organization()).toMatchObject({
      freeInstanceOccupied: false,
      maximumSimulationsExceeded: false,
    })
    // Past the limits, the start goes on to the setup check (an empty setup is blocked).
    const reply = await start()
    expect(reply.status).toBe(400)
    expect(reply.body.description).toBe(RUN_TEXTS.startBlocked)
  })

  it('reports the free instance occupied by a running simulation and refuses the start', async () => {
    await setSubscription(1, null)
    await setBusyState('running')
    expect(await organization()).toMatchObject({
      activeSubscription: { freeInstance: true },
      freeInstanceOccupied: true,
      maximumSimulationsExceeded: false,
    })
    const reply = await start()
    expect(reply.status).toBe(409)
    expect(reply.body.description).toBe(START_LIMIT_TEXTS.freeInstanceOccupied)
  })

  it('counts launching and stopping runs, not stopped ones', async () => {
    await setSubscription(0, 1)
    for (const state of ['creating', 'launching', 'stopping']) {
      await setBusyState(state)
      expect((await organization()).maximumSimulationsExceeded).toBe(true)
    }
    for (const state of ['stopped', 'failed', 'not started']) {
      await setBusyState(state)
      expect((await organization()).maximumSimulationsExceeded).toBe(false)
    }
  })

  it('refuses a start past the maximum of simulations with the maximum message', async () => {
    await setSubscription(1, 1)
    await setBusyState('running')
    expect(await organization()).toMatchObject({
      freeInstanceOccupied: true,
      maximumSimulationsExceeded: true,
    })
    const reply = await start()
    expect(reply.status).toBe(409)
    expect(reply.body.description).toBe(START_LIMIT_TEXTS.maximumSimulations)
    await setSubscription(0, 2)
    expect((await organization()).maximumSimulationsExceeded).toBe(false)
    expect((await start()).status).toBe(400)
  })
})
