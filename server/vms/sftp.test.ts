import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { VirtualMachine } from '../../domain/accountVm.ts'
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../../tests/integration/harness.ts'
import { buildApp } from '../app.ts'
import { createClock } from '../clock.ts'
import { DEMO_PASSWORD, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { migrateToLatest } from '../db/migrations.ts'
import { seedDatabase } from '../db/seed.ts'
import { LocalMachineProvider } from './localProvider.ts'
import {
  failureOf,
  listNames,
  openSftp,
  parseSftpUrl,
  readText,
  runSftpBatch,
  writeText,
} from './sftpTestKit.ts'
import { vmStorageDirectory } from './storageUsage.ts'

/*
 * The VMs' SFTP endpoint (issue 20 item 5) through the real server, with ssh2's client and
 * OpenSSH's sftp binary. The endpoint needs no desktop: the VMs are rows in state running (the
 * supervisor is held still, so nothing checks a machine behind them) with their storage folders.
 */

describeEachDialect('VM storage over SFTP', (dialect) => {
  let database: TestDatabase
  let app: FastifyInstance
  let baseUrl = ''
  let dataDir = ''
  const tokens = { manager: '', other: '' }
  const vms: { id: number; simulationId: number; password: string }[] = []

  const call = async (path: string, as: keyof typeof tokens, method = 'GET') => {
    const response = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[as]}` },
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
  const readVm = async (index: number) =>
    (await call(`/simulations/${vms[index]!.simulationId}/remote_vms`, 'manager'))
      .body as VirtualMachine
  const consumed = async () =>
    (await call('/storage_consumption/organization', 'manager')).body.consumed as number

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, createClock())
    dataDir = mkdtempSync(join(tmpdir(), 'dive-sftp-'))
    app = await buildApp({
      db: database.handle.db,
      dataDir,
      clock: createClock(),
      checkResponses: true,
      distDir: join(dataDir, 'no-dist'),
      // No supervisor pass: the rows below stay running without a machine.
      vms: { tickMs: 3_600_000, provider: new LocalMachineProvider({ dataDir }) },
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    tokens.manager = await login(DEMO_USERS.manager.email)
    tokens.other = await login(OTHER_ORGANIZATION_USER.email)
    const project = await fetch(`${baseUrl}/api/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.manager}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'SFTP project' }),
    }).then((response) => response.json() as Promise<{ id: number }>)
    const nowIso = new Date().toISOString()
    for (const [name, password] of [
      ['SFTP one', 'first-pass'],
      ['SFTP two', 'second-pass'],
    ] as const) {
      const simulation = await fetch(`${baseUrl}/api/projects/${project.id}/simulations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.manager}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      }).then((response) => response.json() as Promise<{ id: number; organizationId?: number }>)
      const organization = await database.handle.db
        .selectFrom('simulations')
        .select('organization_id')
        .where('id', '=', simulation.id)
        .executeTakeFirstOrThrow()
      const row = await database.handle.db
        .insertInto('remote_vms')
        .values({
          organization_id: organization.organization_id,
          simulation_id: simulation.id,
          creator_id: null,
          name: `${name} VM`,
          state: 'running',
          hours_consumed: 0,
          running_since: nowIso,
          shutdown_time: null,
          accounted_at: null,
          password,
          handle: null,
          failure: null,
          created_at: nowIso,
          updated_at: nowIso,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      mkdirSync(vmStorageDirectory(dataDir, row.id), { recursive: true })
      vms.push({ id: row.id, simulationId: simulation.id, password })
    }
    writeFileSync(join(vmStorageDirectory(dataDir, vms[0]!.id), 'points.csv'), 'x,y\n1,2\n')
    writeFileSync(join(vmStorageDirectory(dataDir, vms[1]!.id), 'secret.txt'), 'of VM two')
  }, 120_000)

  afterAll(async () => {
    await app?.close()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('names an sftpUrl for a running VM: user = its id; its password lets in, rooted at its storage', async () => {
    const vm = await readVm(0)
    expect(vm.sftpUrl).toMatch(new RegExp(`^sftp://${vm.id}@127\\.0\\.0\\.1:\\d+$`))
    const session = await openSftp(vm.sftpUrl!, vm.password!)
    expect(await listNames(session.sftp, '/')).toEqual(['points.csv'])
    expect(await listNames(session.sftp, '.')).toEqual(['points.csv'])
    expect(await readText(session.sftp, 'points.csv')).toBe('x,y\n1,2\n')

    // Read-write inside it; what is written counts toward the organization's storage.
    const before = await consumed()
    await writeText(session.sftp, '/notes.txt', 'a'.repeat(1000))
    await failureOf((done) => session.sftp.mkdir('/results', done))
    await writeText(session.sftp, '/results/state.pvsm', 'pvsm')
    expect(
      readFileSync(join(vmStorageDirectory(dataDir, vm.id), 'notes.txt'), 'utf8'),
    ).toHaveLength(1000)
    expect(await listNames(session.sftp, '/results')).toEqual(['state.pvsm'])
    await new Promise((resolve) => setTimeout(resolve, 300))
    // The folder is measured whole: the file that was there (8 bytes) and the two written.
    expect(await consumed()).toBe(before + 8 + 1004)
    session.end()
  })

  it('refuses a wrong password, another VM password, and a user that is no VM', async () => {
    const [first, second] = [await readVm(0), await readVm(1)]
    await expect(openSftp(first.sftpUrl!, 'wrong-password')).rejects.toThrow(/authentication/i)
    // VM two's password does not open VM one's folder.
    await expect(openSftp(first.sftpUrl!, second.password!)).rejects.toThrow(/authentication/i)
    await expect(openSftp(first.sftpUrl!, first.password!, 'root')).rejects.toThrow(
      /authentication/i,
    )
    // VM two's own credentials open only VM two's files.
    const session = await openSftp(second.sftpUrl!, second.password!)
    expect(await listNames(session.sftp, '/')).toEqual(['secret.txt'])
    session.end()
  })

  it("refuses '..' escapes and symbolic links out of the folder", async () => {
    const vm = await readVm(0)
    const home = vmStorageDirectory(dataDir, vm.id)
    // Links the sandbox could write into its home: to the server's files and to VM two's folder.
    symlinkSync('/etc', join(home, 'etc-link'))
    symlinkSync(vmStorageDirectory(dataDir, vms[1]!.id), join(home, 'other-vm'))
    symlinkSync(join(vmStorageDirectory(dataDir, vms[1]!.id), 'secret.txt'), join(home, 'key.txt'))
    const { sftp, end } = await openSftp(vm.sftpUrl!, vm.password!)
    const denied = /permission denied|leaves|links/i
    expect(await failureOf((done) => sftp.realpath('..', done))).toMatchObject({
      message: expect.stringMatching(denied),
    })
    expect(await failureOf((done) => sftp.readdir('/../', done))).toMatchObject({
      message: expect.stringMatching(denied),
    })
    expect(await failureOf((done) => sftp.stat('../../../etc/passwd', done))).not.toBeNull()
    expect(
      await failureOf((done) => sftp.readFile(`/../${vms[1]!.id}/home/secret.txt`, done)),
    ).not.toBeNull()
    expect(await failureOf((done) => sftp.readdir('/etc-link', done))).not.toBeNull()
    expect(await failureOf((done) => sftp.readFile('/etc-link/passwd', done))).not.toBeNull()
    expect(await failureOf((done) => sftp.readFile('/other-vm/secret.txt', done))).not.toBeNull()
    expect(await failureOf((done) => sftp.readFile('/key.txt', done))).not.toBeNull()
    expect(await failureOf((done) => sftp.writeFile('/other-vm/x', 'x', done))).not.toBeNull()
    expect(await failureOf((done) => sftp.symlink('/etc/passwd', '/mine', done))).not.toBeNull()
    expect(readFileSync(join(vmStorageDirectory(dataDir, vms[1]!.id), 'secret.txt'), 'utf8')).toBe(
      'of VM two',
    )
    end()
    rmSync(join(home, 'etc-link'))
    rmSync(join(home, 'other-vm'))
    rmSync(join(home, 'key.txt'))
  })

  it('refuses writes past the storage limit unless the organization has no_storage_limit_enforcement', async () => {
    const vm = await readVm(0)
    const { db } = database.handle
    const organizationId = (
      await db
        .selectFrom('remote_vms')
        .select('organization_id')
        .where('id', '=', vm.id)
        .executeTakeFirstOrThrow()
    ).organization_id
    const limit = await db
      .selectFrom('organizations')
      .select(['storage_available_bytes', 'features'])
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow()
    await db
      .updateTable('organizations')
      .set({ storage_available_bytes: (await consumed()) + 100, features: '[]' })
      .where('id', '=', organizationId)
      .execute()
    const session = await openSftp(vm.sftpUrl!, vm.password!)
    expect(
      await failureOf((done) => session.sftp.writeFile('/big.bin', 'b'.repeat(500), done)),
    ).toMatchObject({ message: expect.stringMatching(/storage is full/) })
    await db
      .updateTable('organizations')
      .set({ features: JSON.stringify(['no_storage_limit_enforcement']) })
      .where('id', '=', organizationId)
      .execute()
    await writeText(session.sftp, '/big.bin', 'b'.repeat(500))
    session.end()
    await db
      .updateTable('organizations')
      .set({
        storage_available_bytes: limit.storage_available_bytes,
        features: limit.features,
      })
      .where('id', '=', organizationId)
      .execute()
  })

  it("lists the storage with OpenSSH's sftp binary in batch mode; a wrong password fails", async () => {
    const vm = await readVm(0)
    const listed = await runSftpBatch(vm.sftpUrl!, vm.password!, ['ls -1 /'])
    expect(listed.stderr).not.toMatch(/denied/i)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain('points.csv')
    const escape = await runSftpBatch(vm.sftpUrl!, vm.password!, ['cd ..', 'ls -1'])
    expect(escape.code).not.toBe(0)
    const refused = await runSftpBatch(vm.sftpUrl!, 'wrong-password', ['ls -1 /'])
    expect(refused.code).not.toBe(0)
    expect(refused.stdout).not.toContain('points.csv')
  }, 60_000)

  it('another organization gets 404 on the VM; stopping it ends its sessions and its sftpUrl', async () => {
    const vm = await readVm(1)
    expect((await call(`/simulations/${vms[1]!.simulationId}/remote_vms`, 'other')).status).toBe(
      404,
    )
    const session = await openSftp(vm.sftpUrl!, vm.password!)
    expect(
      (await call(`/simulations/${vm.simulation.id}/remote_vms`, 'manager', 'DELETE')).status,
    ).toBe(200)
    await session.closed
    const stopped = await readVm(1)
    expect(stopped.state).not.toBe('running')
    expect(stopped.sftpUrl).toBeNull()
    const { host, port } = parseSftpUrl(vm.sftpUrl!)
    await expect(openSftp(`sftp://${vm.id}@${host}:${port}`, vm.password!)).rejects.toThrow(
      /authentication/i,
    )
  })
})
