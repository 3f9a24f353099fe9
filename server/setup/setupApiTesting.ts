/**
 * The shared frame of the setup API tests (setupApi, setupParts, setupMovements, setupRules):
 * a seeded server of one dialect, a manager and another organization's user, a project, and
 * helpers to create simulations and parts and to check a refusal's message.
 */
import { afterAll, beforeAll, expect } from 'vitest'
import type { Project, Simulation } from '../../domain/projects.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import type { DialectName } from '../db/connect.ts'
import { startTestServer, type Json, type TestServer } from '../../tests/integration/harness.ts'

export interface SetupApiContext {
  server: TestServer
  /** A manager of the demo organization. */
  manager: string
  /** A user of another organization. */
  other: string
  project: Project
  /** A call under /api as `token` (default: the manager). */
  api: (
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ) => Promise<{ status: number; body: Json; text: string; headers: Headers }>
  createSimulation: (name: string) => Promise<Simulation>
  createPart: (simulationId: number, body: object) => Promise<{ id: number } & Record<string, Json>>
  /** A refusal with `status` whose first field message (or description) is `message`. */
  expectRefused: (reply: { status: number; body: Json }, message: string, status?: number) => void
}

/** Starts the server before the suite's tests and closes it after them. */
export function useSetupApi(dialect: DialectName, projectName: string): SetupApiContext {
  const context: SetupApiContext = {
    server: undefined as unknown as TestServer,
    manager: '',
    other: '',
    project: undefined as unknown as Project,
    api: (method, path, body, token = context.manager) =>
      context.server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) }),
    createSimulation: async (name) => {
      const reply = await context.api('POST', `/projects/${context.project.id}/simulations`, {
        name,
      })
      expect(reply.status).toBe(201)
      return reply.body as Simulation
    },
    createPart: async (simulationId, body) => {
      const reply = await context.api('POST', `/simulations/${simulationId}/parts`, body)
      expect(reply.status, reply.text).toBe(201)
      return reply.body as { id: number } & Record<string, Json>
    },
    expectRefused: (reply, message, status = 400) => {
      const body = reply.body as { errors?: { message: string }[]; description?: string }
      expect(reply.status).toBe(status)
      expect(body.errors?.[0]?.message ?? body.description).toBe(message)
    },
  }
  beforeAll(async () => {
    context.server = await startTestServer(dialect)
    context.manager = (await context.server.login(DEMO_USERS.manager.email)).accessToken
    context.other = (await context.server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    context.project = (await context.api('POST', '/projects', { name: projectName }))
      .body as Project
  })
  afterAll(async () => {
    await context.server?.close()
  })
  return context
}
