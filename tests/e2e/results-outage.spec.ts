import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { activateSyntheticRun, writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { DEMO_PASSWORD, LoginPage, USERS } from './pages/LoginPage.ts'

/*
 * Issue 13 item 9: a server outage replaced the Results page with an error, unmounted the viewer
 * and left the results socket closed. Here a server of our own (the built app of the suite's
 * server, its own port and data directory) is killed while Results is open and started again: the
 * view stays, a status banner says the connection is lost, and the page recovers by itself.
 */

test.use({ trace: 'off' })

const PORT = 9000 + Math.floor(Math.random() * 400)
const BASE = `http://localhost:${PORT}`
const DATA_DIR = mkdtempSync(join(tmpdir(), 'dive-e2e-outage-'))
test.use({ baseURL: BASE })

let server: ChildProcess | null = null

async function startServer(request: APIRequestContext): Promise<void> {
  // Detached: its own process group, so a kill takes tsx and the server alike.
  server = spawn('npx', ['tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(PORT), DIVE_DATA_DIR: DATA_DIR, DATABASE_URL: '' },
    detached: true,
    stdio: 'ignore',
  })
  await expect
    .poll(
      async () => {
        try {
          return (await request.get(`${BASE}/api/version`, { timeout: 1000 })).status()
        } catch {
          return 0
        }
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe(200)
}

function killServer(): void {
  if (server?.pid) process.kill(-server.pid, 'SIGKILL')
  server = null
}

test.afterAll(() => {
  killServer()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

test('the Results view survives a server outage and reconnects by itself', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  await startServer(request)
  const login = await request.post('/api/auth/login', {
    data: { email: USERS.manager, password: DEMO_PASSWORD },
  })
  const headers = {
    Authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}`,
  }
  const projects = (await (await request.get('/api/projects', { headers })).json()) as {
    results: { id: number }[]
  }
  const created = await request.post(`/api/projects/${projects.results[0]!.id}/simulations`, {
    headers,
    data: { name: 'Outage' },
  })
  const simulationId = ((await created.json()) as { id: number }).id
  await writeSyntheticRun({
    dataDir: DATA_DIR,
    simulationId,
    runId: 1,
    outputCount: 2,
    particles: 20_000,
    intervalS: 0.25,
  })
  await activateSyntheticRun(DATA_DIR, simulationId, 1)

  await new LoginPage(page).loginAs('manager')
  await page.goto(`/simulation/${simulationId}/postprocessor`)
  const view = page.locator('.viewport')
  const banner = page.getByRole('status', { name: 'Server connection' })
  await expect(view).toHaveAttribute('data-engine-status', 'ready', { timeout: 30_000 })
  await expect(page.getByTestId('viewport-points')).not.toHaveText('0 points', { timeout: 30_000 })
  await expect(banner).toHaveText('')

  killServer()
  await expect(banner).toHaveText('Connection to the results server lost. Reconnecting...', {
    timeout: 15_000,
  })
  // The view and its controls stay; no error replaces the page.
  await page.waitForTimeout(3000)
  await expect(view).toBeVisible()
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible()
  await expect(page.getByText(/Could not load the (simulation|outputs)/)).toHaveCount(0)

  await startServer(request)
  // Backoff 1 s, 2 s, 4 s … (capped at 30 s): the session reopens without a reload.
  await expect(banner).toHaveText('', { timeout: 45_000 })
  await expect(view).toHaveAttribute('data-engine-status', 'ready')
  await expect(page.getByTestId('viewport-points')).not.toHaveText('0 points')
})
