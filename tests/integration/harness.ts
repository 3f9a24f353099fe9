/**
 * A real server on a real database for the API tests: SQLite in a temp dir, or a fresh PostgreSQL
 * database created for the test file (and dropped after). The same tests run on both.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { describe, inject } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp, type AppOptions } from '../../server/app.ts'
import { createClock, type Clock } from '../../server/clock.ts'
import { openDatabase, type DatabaseHandle, type DialectName } from '../../server/db/connect.ts'
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { migrateToLatest } from '../../server/db/migrations.ts'
import { seedDatabase } from '../../server/db/seed.ts'

/** The dialects every API test runs on; postgres is skipped when no PostgreSQL could start. */
export const DIALECTS: DialectName[] = ['sqlite', 'postgres']

export function isDialectUnavailable(dialect: DialectName): boolean {
  return dialect === 'postgres' && inject('pgAdminUrl') === ''
}

export interface TestDatabase {
  handle: DatabaseHandle
  /** postgres: the database's URL; sqlite: the file path. */
  location: string
  /** Closes the connection (keeps the data). */
  close(): Promise<void>
  /** Closes and deletes the database. */
  drop(): Promise<void>
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** A new, empty database of the dialect. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'dive-test-db-'))
    const location = join(dir, 'dive.sqlite')
    const handle = openDatabase({ sqlitePath: location })
    return {
      handle,
      location,
      close: () => handle.db.destroy(),
      drop: async () => {
        await handle.db.destroy()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const adminUrl = inject('pgAdminUrl')
  const name = `dive_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const location = databaseUrl(adminUrl, name)
  const handle = openDatabase({ databaseUrl: location, sqlitePath: '' })
  return {
    handle,
    location,
    close: () => handle.db.destroy(),
    drop: async () => {
      await handle.db.destroy()
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

/** Replies are read loosely in tests: the server itself checks every body against its route's schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

export interface Reply<T = Json> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface RequestOptions {
  token?: string
  /** Sent as JSON. */
  body?: unknown
  /** Sent as is (with contentType). */
  rawBody?: string
  contentType?: string
  headers?: Record<string, string>
}

export interface TestServer {
  app: FastifyInstance
  baseUrl: string
  database: TestDatabase
  /** The server's data directory (uploads, run files). */
  dataDir: string
  /** Moves the server's clock forward (expiry tests). */
  advanceClockMs(ms: number): void
  request<T = Json>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>
  /** Logs in and returns the tokens; throws on failure. */
  login(email: string, password?: string): Promise<{ accessToken: string; refreshToken: string }>
  close(): Promise<void>
}

export interface TestServerOptions {
  distDir?: string
  seed?: boolean
}

/** Migrated, seeded database + app listening on a free port of 127.0.0.1. */
export async function startTestServer(
  dialect: DialectName,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const database = await createTestDatabase(dialect)
  await migrateToLatest(database.handle)
  let offsetMs = 0
  const clock: Clock = createClock(() => Date.now() + offsetMs)
  if (options.seed !== false) await seedDatabase(database.handle.db, clock)
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-test-data-'))
  const appOptions: AppOptions = {
    db: database.handle.db,
    dataDir,
    clock,
    checkResponses: true,
    distDir: options.distDir ?? join(dataDir, 'no-dist'),
  }
  const app = await buildApp(appOptions)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`

  const request = async (method: string, path: string, opts: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    let body: string | undefined
    if (opts.rawBody !== undefined) {
      body = opts.rawBody
      if (opts.contentType) headers['content-type'] = opts.contentType
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body)
      headers['content-type'] = opts.contentType ?? 'application/json'
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body })
    const text = await response.text()
    let parsed: unknown = text
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '')
      parsed = JSON.parse(text)
    return { status: response.status, headers: response.headers, body: parsed as Json, text }
  }

  return {
    app,
    baseUrl,
    database,
    dataDir,
    advanceClockMs: (ms) => {
      offsetMs += ms
    },
    request,
    login: async (email, password = DEMO_PASSWORD) => {
      const reply = await request('POST', '/api/auth/login', { body: { email, password } })
      if (reply.status !== 200) throw new Error(`login ${email}: ${reply.status} ${reply.text}`)
      return reply.body as { accessToken: string; refreshToken: string }
    },
    close: async () => {
      await app.close()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Creates a simulation named `name` in the first project `token`'s user sees; answers its id. */
export async function createSimulationInFirstProject(
  server: TestServer,
  token: string,
  name: string,
): Promise<number> {
  const projects = await server.request('GET', '/api/projects?pageLimit=50', { token })
  const created = await server.request(
    'POST',
    `/api/projects/${projects.body.results[0].id}/simulations`,
    { token, body: { name } },
  )
  return created.body.id as number
}

/**
 * A test server of `dialect` with a simulation (`name`, the manager's first project) holding a
 * synthetic run (scripts/writeSyntheticRun.ts): what the tests of work done on a run's outputs
 * by a worker start from.
 */
export async function startServerWithSyntheticRun(
  dialect: DialectName,
  run: { name: string; runId: number; outputCount: number; particles: number },
): Promise<{ server: TestServer; accessToken: string; simulationId: number }> {
  const server = await startTestServer(dialect)
  const { accessToken } = await server.login(DEMO_USERS.manager.email)
  const simulationId = await createSimulationInFirstProject(server, accessToken, run.name)
  await writeSyntheticRun({
    dataDir: server.dataDir,
    simulationId,
    runId: run.runId,
    outputCount: run.outputCount,
    particles: run.particles,
  })
  return { server, accessToken, simulationId }
}

/** Closes a test server without waiting for its idle keep-alive connections. */
export async function closeTestServer(server: TestServer | undefined): Promise<void> {
  const closing = server?.close()
  server?.app.server.closeAllConnections()
  await closing
}

/** Declares the same suite once per dialect (skipped where the dialect is unavailable). */
export function describeEachDialect(title: string, suite: (dialect: DialectName) => void): void {
  for (const dialect of DIALECTS)
    describe.skipIf(isDialectUnavailable(dialect))(`${title} [${dialect}]`, () => suite(dialect))
}
