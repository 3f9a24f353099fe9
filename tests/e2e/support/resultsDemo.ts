import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { DEMO_PASSWORD, USERS } from '../pages/LoginPage.ts'

/*
 * A finished simulation for the Results specs: a clone of the seeded dam break, coarsened so it
 * runs in seconds, run to completion once through the real API, solver and job runner. The e2e
 * server lives for the whole Playwright run, so later specs find the clone and reuse it. The
 * seeded demo itself stays untouched (run.spec.ts runs it from the app).
 */

/** Name of the shared results clone. */
export const RESULTS_DEMO_NAME = 'Dam break (results e2e)'

/** Settings that make the dam break short: 8 outputs, a few thousand particles. */
const COARSE_SETTINGS = { particleDiameter: 0.02, endTime: 0.105, outputTimeInterval: 0.015 }

export interface ResultsDemo {
  simulationId: number
  token: string
  /** `Authorization` header for API calls of the manager. */
  headers: { authorization: string }
}

interface SimulationSummary {
  id: number
  name: string
  state?: string
}

async function accessToken(request: APIRequestContext): Promise<string> {
  const reply = await request.post('/api/auth/login', {
    data: { email: USERS.manager, password: DEMO_PASSWORD },
  })
  expect(reply.status(), await reply.text()).toBe(200)
  return ((await reply.json()) as { accessToken: string }).accessToken
}

async function listSimulations(
  request: APIRequestContext,
  headers: ResultsDemo['headers'],
): Promise<SimulationSummary[]> {
  const reply = await request.get('/api/projects?pageLimit=30', { headers })
  expect(reply.status()).toBe(200)
  const body = (await reply.json()) as { results: { simulations: SimulationSummary[] }[] }
  return body.results.flatMap((project) => project.simulations)
}

async function simulationState(
  request: APIRequestContext,
  headers: ResultsDemo['headers'],
  id: number,
): Promise<string> {
  const reply = await request.get(`/api/simulations/${id}`, { headers })
  expect(reply.status()).toBe(200)
  return ((await reply.json()) as { state: string }).state
}

/**
 * The completed results clone (created and run on first use; about 10–40 s on 2 cores).
 * Call it from `test.beforeAll` with a long timeout.
 */
export async function ensureResultsDemo(request: APIRequestContext): Promise<ResultsDemo> {
  const token = await accessToken(request)
  const headers = { authorization: `Bearer ${token}` }
  const simulations = await listSimulations(request, headers)
  let clone = simulations.find((s) => s.name === RESULTS_DEMO_NAME)
  if (!clone) {
    const demo = simulations.find((s) => s.name === 'Dam break')
    if (!demo) throw new Error('the seeded demo dam break is missing')
    const cloned = await request.post(`/api/simulations/${demo.id}`, { headers })
    expect(cloned.status(), await cloned.text()).toBe(201)
    const id = ((await cloned.json()) as { id: number }).id
    const renamed = await request.put(`/api/simulations/${id}`, {
      headers,
      data: { name: RESULTS_DEMO_NAME, settings: COARSE_SETTINGS },
    })
    expect(renamed.status(), await renamed.text()).toBe(200)
    clone = { id, name: RESULTS_DEMO_NAME }
  }
  const id = clone.id
  if ((await simulationState(request, headers, id)) === 'not started') {
    const solvers = await request.get('/api/solvers', { headers })
    const solverId = ((await solvers.json()) as { id: number }[])[0]?.id
    const started = await request.post(`/api/simulations/${id}/jobs`, {
      headers,
      data: { cores: 1, solver_id: solverId },
    })
    expect(started.status(), await started.text()).toBe(201)
  }
  await expect
    .poll(() => simulationState(request, headers, id), { timeout: 150_000, intervals: [500] })
    .toBe('completed')
  return { simulationId: id, token, headers }
}

/** Logs the manager in through the form and opens the clone's Results screen. */
export async function openResults(page: Page, demo: ResultsDemo): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(USERS.manager)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/projects/)
  // Specs share the clone: each opens it fitted, not with the view the previous spec saved.
  await page.request.delete(`/api/simulations/${demo.simulationId}/runs/viewport_state`, {
    headers: demo.headers,
  })
  await page.goto(`/simulation/${demo.simulationId}/postprocessor`)
}
