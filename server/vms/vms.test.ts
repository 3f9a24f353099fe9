import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../../tests/integration/harness.ts'
import { buildApp } from '../app.ts'
import { createClock, type Clock } from '../clock.ts'
import { DEMO_PASSWORD, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { migrateToLatest } from '../db/migrations.ts'
import { seedDatabase } from '../db/seed.ts'
import type { VirtualMachine } from '../../domain/accountVm.ts'
import { LocalMachineProvider } from './localProvider.ts'
import type { MachineHandle } from './provider.ts'
import { listNames, openSftp } from './sftpTestKit.ts'
import { vmServiceFor } from './vmRegistry.ts'
import { VM_SERVICE_MESSAGES } from './VmService.ts'

/*
 * Remote VMs through the real API and the real local provider (bubblewrap, Xvfb, openbox,
 * ParaView, x11vnc: .ci/run installs them). The VM service runs on its own clock, which the test
 * moves forward to accrue hours and reach shutdown times while the sessions stay valid.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const HOUR_MS = 3600_000

describeEachDialect('remote VMs: launch, stream, storage, hours, shutdown, restart', (dialect) => {
  let database: TestDatabase
  let app: FastifyInstance
  let baseUrl = ''
  let dataDir = ''
  let offsetMs = 0
  const logLines: string[] = []
  const vmClock: Clock = createClock(() => Date.now() + offsetMs)
  const tokens = { manager: '', contributor: '', other: '' }
  const simulations: number[] = []
  const openSessions: { end: () => void }[] = []

  const call = async (path: string, as: keyof typeof tokens, method = 'GET', body?: unknown) => {
    const response = await fetch(`${baseUrl}/api${path}`, {
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
    const response = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    })
    return ((await response.json()) as { accessToken: string }).accessToken
  }
  const start = async () => {
    app = await buildApp({
      db: database.handle.db,
      dataDir,
      clock: createClock(),
      checkResponses: true,
      distDir: join(dataDir, 'no-dist'),
      vms: {
        clock: vmClock,
        tickMs: 200,
        log: (line) => logLines.push(line),
        provider: new LocalMachineProvider({ dataDir, screen: { width: 800, height: 600 } }),
      },
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  }
  /** Polls the simulation's VM until its state is `state`. */
  const waitFor = async (simulationId: number, state: string, timeoutMs = 60_000) => {
    const until = Date.now() + timeoutMs
    let last = ''
    while (Date.now() < until) {
      const vm = await call(`/simulations/${simulationId}/remote_vms`, 'manager')
      last = vm.body?.state
      if (last === state) return vm.body as VirtualMachine
      await sleep(200)
    }
    throw new Error(
      `VM of simulation ${simulationId} is ${last}, not ${state}: ${logLines.join('; ')}`,
    )
  }
  /** The first bytes the VM's websocket carries, or the HTTP status that refused it. */
  const openSocket = (vmId: number, token: string, key: 'token' | 'ticket' = 'token') =>
    new Promise<{ status: number; first?: string; security?: number[] }>((resolve) => {
      const socket = new WebSocket(
        `${baseUrl.replace('http', 'ws')}/ws/vms/${vmId}?${key}=${token}`,
      )
      socket.once('unexpected-response', (_request, response) => {
        resolve({ status: response.statusCode ?? 0 })
        socket.terminate()
      })
      // The RFB handshake: the server's version, ours, then its security types (VNC auth: 2).
      let greeting = ''
      socket.on('message', (data: Buffer) => {
        if (greeting === '') {
          greeting = data.toString('latin1')
          socket.send(Buffer.from('RFB 003.008\n', 'latin1'))
          return
        }
        resolve({ status: 101, first: greeting, security: [...data] })
        socket.close()
      })
      socket.once('close', () => resolve({ status: 101, first: greeting, security: [] }))
      socket.once('error', () => resolve({ status: 0 }))
    })

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, createClock())
    dataDir = mkdtempSync(join(tmpdir(), 'dive-vms-'))
    await start()
    tokens.manager = await login(DEMO_USERS.manager.email)
    tokens.contributor = await login(DEMO_USERS.contributor.email)
    tokens.other = await login(OTHER_ORGANIZATION_USER.email)
    const project = await call('/projects', 'manager', 'POST', { name: 'VM project' })
    for (const name of ['VM one', 'VM two', 'VM three']) {
      const simulation = await call(`/projects/${project.body.id}/simulations`, 'manager', 'POST', {
        name,
      })
      simulations.push(simulation.body.id as number)
    }
    // Post-processing needs a simulation that has run.
    await database.handle.db
      .updateTable('simulations')
      .set({ state: 'completed' })
      .where('id', 'in', simulations.slice(0, 2))
      .execute()
  }, 120_000)

  afterAll(async () => {
    for (const session of openSessions) session.end()
    for (const id of simulations) await call(`/simulations/${id}/remote_vms`, 'manager', 'DELETE')
    await sleep(500)
    await app?.close()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('refuses a simulation that has not run, and one out of reach (404)', async () => {
    const notStarted = await call(`/simulations/${simulations[2]}/remote_vms`, 'manager', 'POST')
    expect(notStarted.status).toBe(409)
    expect(notStarted.body.description).toBe(VM_SERVICE_MESSAGES.notStarted)
    expect((await call(`/simulations/${simulations[0]}/remote_vms`, 'other', 'POST')).status).toBe(
      404,
    )
    expect(
      (await call(`/simulations/${simulations[0]}/remote_vms`, 'contributor', 'POST')).status,
    ).toBe(404)
  })

  it('launches, runs, streams VNC, stores an upload, accrues hours and shuts down', async () => {
    const simulationId = simulations[0]!
    const launched = await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'POST')
    expect(launched.status).toBe(201)
    expect(launched.body.state).toBe('launching')
    expect(launched.body.shutdownTime).not.toBeNull()
    expect(launched.body.password).toBeNull()
    const vmId = launched.body.id as number
    expect((await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'POST')).status).toBe(
      409,
    )

    const running = await waitFor(simulationId, 'running')
    expect(running.websocketUrl).toBe(`/ws/vms/${vmId}`)
    expect(running.password).toMatch(/^\S{8}$/)
    expect(running.runningSince).not.toBeNull()
    const list = await call('/remote_vms', 'manager')
    expect((list.body as VirtualMachine[]).map((vm) => vm.id)).toContain(vmId)
    expect((await call('/remote_vms', 'other')).body).toEqual([])

    // The stream: the VNC server's greeting through the product's websocket; others get 404.
    const stream = await openSocket(vmId, tokens.manager)
    expect(stream.first).toMatch(/^RFB 003\.00\d/)
    // One security type offered: VNC authentication with the VM's password.
    expect(stream.security).toEqual([1, 2])
    expect((await openSocket(vmId, tokens.other)).status).toBe(404)
    expect((await openSocket(vmId, tokens.contributor)).status).toBe(404)
    expect((await openSocket(vmId, 'not-a-token')).status).toBe(401)
    // The page's way in: a short-lived ticket, good once, for this VM; others get no ticket (404).
    const ticket = await call(`/remote_vms/${vmId}/ticket`, 'manager', 'POST')
    expect(ticket.status).toBe(201)
    expect((await openSocket(vmId, ticket.body.ticket as string, 'ticket')).first).toMatch(/^RFB /)
    expect((await openSocket(vmId, ticket.body.ticket as string, 'ticket')).status).toBe(401)
    expect((await openSocket(vmId, 'made-up', 'ticket')).status).toBe(401)
    expect((await call(`/remote_vms/${vmId}/ticket`, 'other', 'POST')).status).toBe(404)
    expect((await call(`/remote_vms/${vmId}/ticket`, 'contributor', 'POST')).status).toBe(404)
    for (const method of ['GET', 'PUT', 'DELETE'])
      expect(
        (
          await call(
            `/simulations/${simulationId}/remote_vms`,
            'other',
            method,
            method === 'PUT' ? { shutdownTime: null } : undefined,
          )
        ).status,
      ).toBe(404)

    // One file into the VM's storage: its home; it counts toward the organization's storage.
    const consumedBefore = (await call('/storage_consumption/organization', 'manager')).body
      .consumed as number
    const form = new FormData()
    form.append('file', new Blob(['x,y\n1,2\n']), 'points.csv')
    const upload = await fetch(`${baseUrl}/api/remote_vms/${vmId}/storage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.manager}` },
      body: form,
    })
    expect(upload.status).toBe(201)
    expect(readFileSync(join(dataDir, 'vms', String(vmId), 'home', 'points.csv'), 'utf8')).toBe(
      'x,y\n1,2\n',
    )
    expect((await call(`/remote_vms/${vmId}/storage`, 'manager')).body).toEqual([
      { name: 'points.csv', sizeBytes: 8 },
    ])
    expect(
      (await call('/storage_consumption/organization', 'manager')).body.consumed,
    ).toBeGreaterThanOrEqual(consumedBefore + 8)
    // The same storage over SFTP: user the VM's id, password the VM's.
    expect(running.sftpUrl).toMatch(new RegExp(`^sftp://${vmId}@127\\.0\\.0\\.1:\\d+$`))
    const sftp = await openSftp(running.sftpUrl!, running.password!)
    openSessions.push(sftp)
    expect(await listNames(sftp.sftp, '/')).toContain('points.csv')
    await expect(openSftp(running.sftpUrl!, 'not-the-password')).rejects.toThrow(/authentication/i)
    const otherUpload = await fetch(`${baseUrl}/api/remote_vms/${vmId}/storage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.other}` },
      body: form,
    })
    expect(otherUpload.status).toBe(404)
    expect((await call(`/remote_vms/${vmId}/storage`, 'other')).status).toBe(404)

    // Auto shutdown off, then on; hours accrue on the service's clock and leave the budget.
    const off = await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'PUT', {
      shutdownTime: null,
    })
    expect(off.body.shutdownTime).toBeNull()
    const budgetBefore = (await call('/credits/budget', 'manager')).body.vmHours as number
    expect(budgetBefore).toBeGreaterThan(19.99)
    expect(budgetBefore).toBeLessThan(20)
    offsetMs += 1.5 * HOUR_MS
    // A pass already under way read the clock before the move: the next one accrues.
    await vmServiceFor(database.handle.db).tick()
    await vmServiceFor(database.handle.db).tick()
    const accrued = (await call(`/simulations/${simulationId}/remote_vms`, 'manager')).body
    expect(accrued.hoursConsumed).toBeGreaterThanOrEqual(1.5)
    expect(accrued.hoursConsumed).toBeLessThan(1.6)
    // The VM runs on and the supervisor accrues every 200 ms: the budget read between two reads
    // of the VM lies between what each says is left.
    const budgetAfter = (await call('/credits/budget', 'manager')).body.vmHours as number
    const later = (await call(`/simulations/${simulationId}/remote_vms`, 'manager')).body
    expect(budgetAfter).toBeLessThanOrEqual(20 - accrued.hoursConsumed + 1e-9)
    expect(budgetAfter).toBeGreaterThanOrEqual(20 - later.hoursConsumed - 1e-9)

    const shutdownTime = new Date(vmClock.nowMs() + HOUR_MS).toISOString()
    const on = await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'PUT', {
      shutdownTime,
    })
    expect(on.body.shutdownTime).toBe(shutdownTime)
    offsetMs += 2 * HOUR_MS
    const stopped = await waitFor(simulationId, 'stopped', 20_000)
    // Stopping ended its SFTP session and its sftpUrl.
    await sftp.closed
    expect(stopped.sftpUrl).toBeNull()
    expect(stopped.hoursConsumed).toBeGreaterThanOrEqual(3.5)
    expect(logLines.some((line) => line.includes(`VM ${vmId}: auto shutdown`))).toBe(true)
    expect((await call('/credits/budget', 'manager')).body.vmHours).toBeCloseTo(
      20 - stopped.hoursConsumed,
      6,
    )
    expect((await openSocket(vmId, tokens.manager)).status).toBe(409)
  }, 120_000)

  it('shows a machine killed from outside as failed; it is deleted and relaunched', async () => {
    const simulationId = simulations[1]!
    const launched = await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'POST')
    expect(launched.status).toBe(201)
    await waitFor(simulationId, 'running')
    const row = await vmServiceFor(database.handle.db).findById(launched.body.id as number)
    const pid = (JSON.parse(row!.handle!) as { pid: number }).pid
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)
    for (const child of children) process.kill(Number(child), 'SIGKILL')
    await waitFor(simulationId, 'failed', 20_000)
    expect((await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'POST')).status).toBe(
      409,
    )
    const deleted = await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'DELETE')
    expect(deleted.status).toBe(200)
    expect((await call(`/simulations/${simulationId}/remote_vms`, 'manager')).status).toBe(404)
    const again = await call(`/simulations/${simulationId}/remote_vms`, 'manager', 'POST')
    expect(again.status).toBe(201)
    await waitFor(simulationId, 'running')
  }, 120_000)

  it('finds a running machine again after a restart and marks a gone one stopped', async () => {
    const simulationId = simulations[1]!
    const before = await waitFor(simulationId, 'running')
    await app.close()
    await start()
    tokens.manager = await login(DEMO_USERS.manager.email)
    const after = await call(`/simulations/${simulationId}/remote_vms`, 'manager')
    expect(after.body.state).toBe('running')
    expect(after.body.id).toBe(before.id)
    expect((await openSocket(before.id, tokens.manager)).first).toMatch(/^RFB /)

    // Stopped behind the server's back while it is down: the next start marks it stopped.
    await app.close()
    const service = { provider: new LocalMachineProvider({ dataDir }) }
    const row = await database.handle.db
      .selectFrom('remote_vms')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow()
    await service.provider.stop(row.id, JSON.parse(row.handle!) as MachineHandle)
    await start()
    tokens.manager = await login(DEMO_USERS.manager.email)
    expect((await call(`/simulations/${simulationId}/remote_vms`, 'manager')).body.state).toBe(
      'stopped',
    )
    expect(logLines.some((line) => line.includes(`VM ${before.id}: not found after the restart`)))
  }, 120_000)

  it('refuses a launch without VM hours left', async () => {
    await database.handle.db
      .updateTable('organizations')
      .set({ subscription_vm_hours_per_month: 1 })
      .execute()
    expect((await call('/credits/budget', 'manager')).body.vmHours).toBeLessThanOrEqual(0)
    const refused = await call(`/simulations/${simulations[1]}/remote_vms`, 'manager', 'POST')
    expect(refused.status).toBe(403)
    expect(refused.body.description).toBe(VM_SERVICE_MESSAGES.noHours)
  })
})
