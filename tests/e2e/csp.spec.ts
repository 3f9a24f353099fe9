import {
  expect,
  test,
  type APIRequestContext,
  type ConsoleMessage,
  type Page,
} from '@playwright/test'
import { activateSyntheticRun, writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { CONTENT_SECURITY_POLICY } from '../../server/securityHeaders.ts'
import { DEMO_PASSWORD, LoginPage, USERS } from './pages/LoginPage.ts'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 13 item 8: the app, its render and data workers and both websockets run under the
 * server's Content-Security-Policy. The Setup view and the Results 3D view must draw with no CSP
 * violation reported by the page or its workers.
 */

test.use({ trace: 'off' })

/** Collects CSP violations: the page's securitypolicyviolation events and console reports. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  const fromConsole = (message: ConsoleMessage) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      violations.push(message.text())
  }
  page.on('console', fromConsole)
  page.on('worker', (worker) => {
    worker.on('console', fromConsole)
  })
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const scope = window as unknown as { reportCspViolation: (text: string) => void }
      scope.reportCspViolation(`${event.violatedDirective} blocked ${event.blockedURI}`)
    })
  })
  return violations
}

async function managerHeaders(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { email: USERS.manager, password: DEMO_PASSWORD },
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  return { Authorization: `Bearer ${accessToken}` }
}

test('pages carry the CSP, Referrer-Policy and isolation headers', async ({ request }) => {
  for (const path of ['/', '/projects', '/api/version']) {
    const reply = await request.get(path)
    const headers = reply.headers()
    expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(headers['referrer-policy']).toBe('no-referrer')
    expect(headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(headers['cross-origin-embedder-policy']).toBe('require-corp')
  }
})

test('the Setup view and the Results 3D view draw under the CSP with no violation', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('playwright.config.ts sets E2E_DATA_DIR')
  const headers = await managerHeaders(request)
  const projects = (await (
    await request.get('/api/projects?pageLimit=10', { headers })
  ).json()) as {
    results: { id: number; simulations: { id: number; name: string }[] }[]
  }
  const demo = projects.results.flatMap((p) => p.simulations).find((s) => s.name === 'Dam break')
  expect(demo).toBeDefined()
  const created = await request.post(`/api/projects/${projects.results[0]!.id}/simulations`, {
    headers,
    data: { name: `CSP ${Date.now().toString(36)}` },
  })
  const simulationId = ((await created.json()) as { id: number }).id
  await writeSyntheticRun({
    dataDir,
    simulationId,
    runId: 1,
    outputCount: 2,
    particles: 20_000,
    intervalS: 0.25,
  })
  await activateSyntheticRun(dataDir, simulationId, 1)

  const violations = await watchViolations(page)
  await new LoginPage(page).loginAs('manager')
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true)

  await page.goto(`/simulation/${demo!.id}/preprocessor`)
  const setup = new SetupPage(page)
  await setup.expectInitialized()

  await page.goto(`/simulation/${simulationId}/postprocessor`)
  const view = page.locator('.viewport')
  await expect(view).toHaveAttribute('data-engine-status', 'ready', { timeout: 30_000 })
  await expect(page.getByTestId('viewport-points')).not.toHaveText('0 points', { timeout: 30_000 })
  await expect(view.getByRole('alert')).toHaveCount(0)
  // The results session (websocket) opened: its connection banner stays empty.
  await expect(page.getByRole('status', { name: 'Server connection' })).toHaveText('')
  expect(violations).toEqual([])

  // The watch does see a violation: an inline script is refused and reported.
  await page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.inlineRan = true'
    document.body.append(script)
  })
  await expect.poll(() => violations.length).toBeGreaterThan(0)
  expect(await page.evaluate(() => 'inlineRan' in window)).toBe(false)
})
