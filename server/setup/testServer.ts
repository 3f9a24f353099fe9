/**
 * A server for the setup tests that need the job runner: a real, seeded database of either
 * dialect, the real setup loader and scripted job executors (server/jobs/testing.ts), so a
 * discretization finishes in milliseconds and writes its point clouds like the job thread does.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { DialectName } from '../db/connect.ts'
import { createClock } from '../clock.ts'
import { DEMO_PASSWORD, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { migrateToLatest } from '../db/migrations.ts'
import { seedDatabase } from '../db/seed.ts'
import { createSetupLoader } from '../jobs/services.ts'
import {
  DEFAULT_SCRIPT,
  createFakeExecutors,
  startJobsApp,
  type FakeScript,
} from '../jobs/testing.ts'
import {
  createTestDatabase,
  type Json,
  type TestDatabase,
} from '../../tests/integration/harness.ts'

/** A JSON object of a reply, its fields read loosely. */
export type JsonObject = Record<string, Json>

export interface SetupReply {
  status: number
  headers: Headers
  /** Parsed JSON, read loosely as in the other API tests (the server checks its own replies). */
  body: Json
  /** The raw bytes (binary downloads). */
  bytes: Uint8Array
}

export interface SetupTestServer {
  database: TestDatabase
  dataDir: string
  /** Changed between tests to script the fake discretizer. */
  script: FakeScript
  /** A manager of the demo organization. */
  manager: string
  /** A user of another organization. */
  other: string
  /** A contributor of the demo organization (sees only their own projects). */
  contributor: string
  api(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<SetupReply>
  /** POST /client-upload/uploads of an STL. */
  uploadStl(fileName: string, bytes: Uint8Array): Promise<number>
  /** A new simulation in a project of the manager's. */
  createSimulation(name: string): Promise<number>
  createPart(simulationId: number, body: object): Promise<JsonObject>
  /** Starts a discretization and waits until it ended; returns the record. */
  discretize(simulationId: number): Promise<JsonObject>
  close(): Promise<void>
}

export async function startSetupTestServer(dialect: DialectName): Promise<SetupTestServer> {
  const database = await createTestDatabase(dialect)
  await migrateToLatest(database.handle)
  await seedDatabase(database.handle.db, createClock())
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-setup-files-'))
  const script: FakeScript = { ...DEFAULT_SCRIPT, discretizeMs: 5 }
  const fake = createFakeExecutors(script)
  const app = await startJobsApp(database.handle, {
    executors: fake.executors,
    loadSetup: createSetupLoader(database.handle.db, dataDir),
    dataDir,
  })
  const api: SetupTestServer['api'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== null) headers.authorization = `Bearer ${options.token ?? manager}`
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${app.baseUrl}/api${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    })
    const bytes = new Uint8Array(await response.arrayBuffer())
    const json = (response.headers.get('content-type') ?? '').includes('application/json')
    const body: unknown = json ? JSON.parse(new TextDecoder().decode(bytes)) : undefined
    return { status: response.status, headers: response.headers, body, bytes }
  }
  const login = async (email: string) => {
    const reply = await api('POST', '/auth/login', {
      token: null,
      body: { email, password: DEMO_PASSWORD },
    })
    return (reply.body as { accessToken: string }).accessToken
  }
  const manager = await login(DEMO_USERS.manager.email)
  const other = await login(OTHER_ORGANIZATION_USER.email)
  const contributor = await login(DEMO_USERS.contributor.email)
  const project = await api('POST', '/projects', { body: { name: `Setup files ${dialect}` } })
  const projectId = (project.body as { id: number }).id

  return {
    database,
    dataDir,
    script,
    manager,
    other,
    contributor,
    api,
    uploadStl: async (fileName, bytes) => {
      const form = new FormData()
      form.append('file', new Blob([bytes]), fileName)
      const response = await fetch(`${app.baseUrl}/api/client-upload/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${manager}` },
        body: form,
      })
      const body = (await response.json()) as { id: number }
      expect(response.status, JSON.stringify(body)).toBe(201)
      return body.id
    },
    createSimulation: async (name) => {
      const reply = await api('POST', `/projects/${projectId}/simulations`, { body: { name } })
      expect(reply.status).toBe(201)
      return (reply.body as { id: number }).id
    },
    createPart: async (simulationId, body) => {
      const reply = await api('POST', `/simulations/${simulationId}/parts`, { body })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return reply.body as JsonObject
    },
    discretize: async (simulationId) => {
      const started = await api('POST', `/simulations/${simulationId}/discretizations`, {
        body: {},
      })
      expect(started.status, JSON.stringify(started.body)).toBe(201)
      for (const until = Date.now() + 10_000; Date.now() < until;) {
        const record = (await api('GET', `/simulations/${simulationId}/discretizations`)).body as {
          state: string
        }
        if (!['scheduled', 'running'].includes(record.state)) return record
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error('The discretization did not end within 10 s.')
    },
    close: async () => {
      await app.close()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
