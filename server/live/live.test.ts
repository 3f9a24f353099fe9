import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  PROTOCOL_VERSION,
  parseLiveServerFrame,
  type LiveServerFrame,
} from '../../domain/liveProtocol.ts'
import {
  createTestDatabase,
  describeEachDialect,
  type Json,
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
import { LIVE_CLOSE_CODES, LIVE_PATH } from './liveChannel.ts'

/** A test client: collects every frame, waits for one matching a predicate. */
function connect(url: string) {
  const socket = new WebSocket(url)
  const frames: LiveServerFrame[] = []
  const waiters: {
    test: (f: LiveServerFrame) => boolean
    resolve: (f: LiveServerFrame) => void
  }[] = []
  let closed: { code: number; reason: string } | null = null
  const closeWaiters: ((c: { code: number; reason: string }) => void)[] = []
  socket.on('message', (data) => {
    const parsed = parseLiveServerFrame((data as Buffer).toString('utf8'))
    if (!parsed.ok) throw new Error(`unparsable frame: ${parsed.reason}`)
    frames.push(parsed.frame)
    for (const waiter of [...waiters])
      if (waiter.test(parsed.frame)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(parsed.frame)
      }
  })
  socket.on('close', (code, reason) => {
    closed = { code, reason: String(reason) }
    for (const resolve of closeWaiters) resolve(closed)
  })
  return {
    socket,
    frames,
    opened: new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    }),
    send: (frame: object) => socket.send(JSON.stringify(frame)),
    waitFor: (test: (f: LiveServerFrame) => boolean, timeoutMs = 10_000) => {
      const found = frames.find(test)
      if (found) return Promise.resolve(found)
      return new Promise<LiveServerFrame>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no such frame')), timeoutMs)
        waiters.push({
          test,
          resolve: (frame) => {
            clearTimeout(timer)
            resolve(frame)
          },
        })
      })
    },
    closedWith: () =>
      closed
        ? Promise.resolve(closed)
        : new Promise<{ code: number; reason: string }>((resolve) => closeWaiters.push(resolve)),
    close: () => socket.close(1000),
  }
}

const isUpdate = (path: string[], operation?: string) => (frame: LiveServerFrame) =>
  frame.type === 'StoreUpdate' &&
  (operation === undefined || frame.operation === operation) &&
  frame.path.join('/') === path.join('/')

describeEachDialect('live channel', (dialect) => {
  let database: TestDatabase
  let server: JobsTestServer
  let token: string
  let otherToken: string
  let wsUrl: string
  let simulationId: number
  const fake = createFakeExecutors({ ...DEFAULT_SCRIPT, outputs: 4, stepMs: 60 })

  const api = async (method: string, path: string, body?: unknown, as = token) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    const parsed: Json = text ? JSON.parse(text) : undefined
    return { status: response.status, body: parsed }
  }
  const login = async (email: string) => {
    const response = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    })
    return ((await response.json()) as { accessToken: string }).accessToken
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, createClock())
    server = await startJobsApp(database.handle, { executors: fake.executors })
    wsUrl = server.baseUrl.replace('http', 'ws') + LIVE_PATH
    token = await login(DEMO_USERS.manager.email)
    otherToken = await login(OTHER_ORGANIZATION_USER.email)
    const project = await api('POST', '/api/projects', { name: 'Live' })
    simulationId = (
      await api('POST', `/api/projects/${project.body.id}/simulations`, { name: 'Watched' })
    ).body.id
  })
  afterAll(async () => {
    await server?.close()
    await database?.drop()
  })

  it('welcomes a Hello with a valid token and sends heartbeats every 0.5 s without a workload', async () => {
    const client = connect(wsUrl)
    await client.opened
    client.send({ type: 'Hello', protocolVersion: PROTOCOL_VERSION, accessToken: token })
    const welcome = await client.waitFor((f) => f.type === 'Welcome')
    expect(welcome).toEqual({ type: 'Welcome', protocolVersion: PROTOCOL_VERSION, lastUpdateId: 0 })
    await new Promise((resolve) => setTimeout(resolve, 1300))
    const heartbeats = client.frames.filter((f) => f.type === 'WorkloadHeartbeat')
    expect(heartbeats.length).toBeGreaterThanOrEqual(2)
    expect(heartbeats.length).toBeLessThanOrEqual(5)
    expect(heartbeats[0]).toMatchObject({ workloadConnected: false })
    client.close()
  })

  it('accepts the token as a query parameter', async () => {
    const client = connect(`${wsUrl}?token=${encodeURIComponent(token)}`)
    await client.waitFor((f) => f.type === 'Welcome')
    client.close()
  })

  it('closes with 4001 for a wrong token and 4002 for another protocol version', async () => {
    const wrong = connect(wsUrl)
    await wrong.opened
    wrong.send({ type: 'Hello', protocolVersion: PROTOCOL_VERSION, accessToken: 'nope' })
    expect((await wrong.closedWith()).code).toBe(LIVE_CLOSE_CODES.unauthorized)
    const old = connect(wsUrl)
    await old.opened
    old.send({ type: 'Hello', protocolVersion: PROTOCOL_VERSION + 1, accessToken: token })
    expect((await old.closedWith()).code).toBe(LIVE_CLOSE_CODES.protocolVersion)
    const early = connect(wsUrl)
    await early.opened
    early.send({ type: 'Subscribe', simulationId })
    expect((await early.closedWith()).code).toBe(LIVE_CLOSE_CODES.unauthorized)
    const garbage = connect(wsUrl)
    await garbage.opened
    garbage.socket.send('not json')
    expect((await garbage.closedWith()).code).toBe(LIVE_CLOSE_CODES.badFrame)
  })

  it('pushes the run as store updates with growing update ids: launching, running, logs, outputs, completed', async () => {
    const client = connect(`${wsUrl}?token=${encodeURIComponent(token)}`)
    await client.waitFor((f) => f.type === 'Welcome')
    client.send({ type: 'Subscribe', simulationId })
    const snapshot = await client.waitFor(
      isUpdate(['simulations', String(simulationId)], 'REPLACE'),
    )
    expect(snapshot).toMatchObject({ value: { id: simulationId, state: 'not started' } })
    await client.waitFor((f) => f.type === 'NoWorkload')

    const started = await api('POST', `/api/simulations/${simulationId}/jobs`, {
      cores: 1,
      solver_id: 1,
    })
    expect(started.status).toBe(201)
    await client.waitFor((f) => f.type === 'NewWorkload' && f.simulationId === simulationId)
    await client.waitFor((f) => f.type === 'WorkloadInitialized')
    const log = await client.waitFor(isUpdate(['simulations', String(simulationId), 'logs'], 'SET'))
    expect(log).toMatchObject({ value: { progress: 0.25, particles: 100 } })
    const output = await client.waitFor(
      isUpdate(['simulations', String(simulationId), 'outputs', '0'], 'SET'),
    )
    expect(output).toMatchObject({ value: { outputNo: 0, states: { visualization: 'ready' } } })
    await client.waitFor((f) => f.type === 'TransactionMessage')
    const completed = await client.waitFor(
      (f) =>
        isUpdate(['simulations', String(simulationId)], 'REPLACE')(f) &&
        f.type === 'StoreUpdate' &&
        (f.value as Json).state === 'completed',
    )
    expect((completed as Json).value.log.progress).toBe(1)
    await client.waitFor((f) => f.type === 'NoWorkload' && f.simulationId === simulationId)

    const states = client.frames
      .filter(isUpdate(['simulations', String(simulationId)], 'REPLACE'))
      .map((f) => (f as { value: { state: string } }).value.state)
    expect(states).toContain('launching')
    expect(states).toContain('running')
    const ids = client.frames
      .filter((f) => f.type === 'StoreUpdate')
      .map((f) => (f as { updateId: number }).updateId)
    expect(ids).toEqual(ids.map((_, i) => i + 1))
    const transaction = client.frames.find((f) => f.type === 'TransactionMessage') as Json
    expect(transaction).toMatchObject({ kind: 'simulation', credits: -0.5 })
    client.close()
  })

  it("answers a subscription to another organization's simulation with DEL and sends it nothing", async () => {
    const client = connect(`${wsUrl}?token=${encodeURIComponent(otherToken)}`)
    await client.waitFor((f) => f.type === 'Welcome')
    client.send({ type: 'Subscribe', simulationId })
    await client.waitFor(isUpdate(['simulations', String(simulationId)], 'DEL'))
    await api('POST', `/api/simulations/${simulationId}/jobs`, { cores: 1, solver_id: 1 })
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(
      client.frames.filter((f) => f.type === 'StoreUpdate' && (f as Json).operation !== 'DEL'),
    ).toEqual([])
    expect(client.frames.filter((f) => f.type === 'TransactionMessage')).toEqual([])
    client.close()
    await api('DELETE', `/api/simulations/${simulationId}/jobs`)
  })

  // Issue 13 item 9: deleting a watched simulation sent no DEL.
  it('sends DEL to whoever watches a simulation that is deleted, alone or with its project', async () => {
    const project = await api('POST', '/api/projects', { name: 'Doomed' })
    const alone = (
      await api('POST', `/api/projects/${project.body.id}/simulations`, { name: 'Alone' })
    ).body.id as number
    const withProject = (
      await api('POST', `/api/projects/${project.body.id}/simulations`, { name: 'With project' })
    ).body.id as number
    const client = connect(`${wsUrl}?token=${encodeURIComponent(token)}`)
    await client.waitFor((f) => f.type === 'Welcome')
    for (const id of [alone, withProject]) {
      client.send({ type: 'Subscribe', simulationId: id })
      await client.waitFor(isUpdate(['simulations', String(id)], 'REPLACE'))
    }
    expect((await api('DELETE', `/api/simulations/${alone}`)).status).toBe(200)
    await client.waitFor(isUpdate(['simulations', String(alone)], 'DEL'), 3000)
    expect((await api('DELETE', `/api/projects/${project.body.id}`)).status).toBe(200)
    await client.waitFor(isUpdate(['simulations', String(withProject)], 'DEL'), 3000)
    client.close()
  })
})
