/**
 * A server for the CAD import tests: a real, seeded database of either dialect, the real CAD
 * threads (occt-import-js), a STEP size limit small enough to exceed in a test, and helpers to
 * upload STEP files and wait for jobs. The STEP fixtures are occt-import-js's own test files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app.ts'
import { createClock } from '../clock.ts'
import type { DialectName } from '../db/connect.ts'
import { DEMO_PASSWORD, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { migrateToLatest } from '../db/migrations.ts'
import { seedDatabase } from '../db/seed.ts'
import {
  createTestDatabase,
  type Json,
  type TestDatabase,
} from '../../tests/integration/harness.ts'

/** occt-import-js's test files (in its npm tarball). */
const OCCT_TEST_FILES = fileURLToPath(
  new URL('../../node_modules/occt-import-js/test/testfiles/', import.meta.url),
)

/** A STEP fixture of occt-import-js by its path under test/testfiles/. */
export function readStepFixture(path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(OCCT_TEST_FILES, path)))
}

/** The CAx-IF assembly AS1 (as1-oc-214.stp, 442 KB, millimetres). */
export const AS1_FIXTURE = 'cax-if/as1-oc-214.stp'
/** A 1 m cube written in millimetres. */
export const CUBE_MM_FIXTURE = 'cube-units/cube-mm.step'

/** The STEP limit of the test server: above the fixtures, small enough to exceed. */
export const TEST_STEP_LIMIT_BYTES = 512 * 1024

export interface CadReply {
  status: number
  body: Json
  bytes: Uint8Array
}

export interface CadTestServer {
  app: FastifyInstance
  database: TestDatabase
  dataDir: string
  manager: string
  other: string
  contributor: string
  api(method: string, path: string, body?: unknown, token?: string | null): Promise<CadReply>
  upload(
    simulationId: number,
    fileName: string,
    bytes: Uint8Array,
    token?: string | null,
  ): Promise<CadReply>
  createSimulation(name: string, token?: string): Promise<number>
  /** Polls GET `path` until its `state` is neither scheduled nor running (60 s at most). */
  waitForEnd(path: string, token?: string): Promise<Json>
  /** A fresh access token of a demo user. */
  login(email: string): Promise<string>
  close(): Promise<void>
}

export async function startCadTestServer(dialect: DialectName): Promise<CadTestServer> {
  const database = await createTestDatabase(dialect)
  await migrateToLatest(database.handle)
  await seedDatabase(database.handle.db, createClock())
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-cad-'))
  const app = await buildApp({
    db: database.handle.db,
    dataDir,
    checkResponses: true,
    distDir: join(dataDir, 'no-dist'),
    stepUploadLimitBytes: TEST_STEP_LIMIT_BYTES,
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`

  const send = async (path: string, init: RequestInit, token: string | null): Promise<CadReply> => {
    const headers = new Headers(init.headers)
    if (token !== null) headers.set('authorization', `Bearer ${token}`)
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers })
    const bytes = new Uint8Array(await response.arrayBuffer())
    const json = (response.headers.get('content-type') ?? '').includes('application/json')
    const parsed: unknown =
      json && bytes.length > 0 ? JSON.parse(new TextDecoder().decode(bytes)) : null
    // Replies are read loosely in tests (Json): the server checks every body against its schema.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    return { status: response.status, body: parsed as Json, bytes }
  }
  const login = async (email: string) => {
    const reply = await send(
      '/auth/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      },
      null,
    )
    return (reply.body as { accessToken: string }).accessToken
  }
  const manager = await login(DEMO_USERS.manager.email)
  const server: CadTestServer = {
    app,
    database,
    dataDir,
    manager,
    other: await login(OTHER_ORGANIZATION_USER.email),
    contributor: await login(DEMO_USERS.contributor.email),
    api: (method, path, body, token = manager) =>
      send(
        path,
        body === undefined
          ? { method }
          : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        token,
      ),
    upload: (simulationId, fileName, bytes, token = manager) => {
      const form = new FormData()
      form.append('file', new Blob([bytes]), fileName)
      return send(
        `/client-upload/simulations/${simulationId}/assemblies`,
        { method: 'POST', body: form },
        token,
      )
    },
    createSimulation: async (name, token = manager) => {
      const project = await server.api('POST', '/projects', { name: `${name} project` }, token)
      expect(project.status, JSON.stringify(project.body)).toBe(201)
      const reply = await server.api(
        'POST',
        `/projects/${(project.body as { id: number }).id}/simulations`,
        { name },
        token,
      )
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return (reply.body as { id: number }).id
    },
    login,
    waitForEnd: async (path, token = manager) => {
      for (const until = Date.now() + 60_000; Date.now() < until;) {
        const reply = await server.api('GET', path, undefined, token)
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        const body: unknown = reply.body
        const state = (body as { state: string }).state
        if (state !== 'scheduled' && state !== 'running') return body
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`${path} did not end within 60 s.`)
    },
    close: async () => {
      await app.close()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return server
}
