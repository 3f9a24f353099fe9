import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { activateSyntheticRun, writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { DEMO_PASSWORD, LoginPage, USERS } from './pages/LoginPage.ts'

/*
 * A 5M-particle run (issue 17 item 5): synthetic outputs written to the server's data directory
 * are loaded through the real server, data workers and render worker, then played, paused, seeked
 * and recoloured while a PerformanceObserver counts the main thread's long tasks (≥ 50 ms). The
 * engine keeps every particle buffer off the main thread (DESIGN.md), so none may come. The load of
 * the first output (193 MB, seconds of SwiftShader drawing) is not counted: the frames bench
 * measures it (browser/longTasks.load.*).
 */
test.use({ trace: 'off' })
// Long tasks are timed on 2 shared cores: a task of 30 ms can stretch past 50 ms while other work
// runs (one 54 ms task came in a full run beside a solver validation). A real regression (work on
// the main thread) fails every attempt; a stretched one passes the next.
test.describe.configure({ retries: 2 })

const PARTICLES = 5_000_000
const OUTPUTS = 3
const RUN_ID = 1

async function createSimulation(request: APIRequestContext): Promise<number> {
  const login = await request.post('/api/auth/login', {
    data: { email: USERS.manager, password: DEMO_PASSWORD },
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const headers = { Authorization: `Bearer ${accessToken}` }
  const projects = (await (
    await request.get('/api/projects?pageLimit=10', { headers })
  ).json()) as {
    results: { id: number }[]
  }
  const created = await request.post(`/api/projects/${projects.results[0]!.id}/simulations`, {
    headers,
    data: { name: `Large playback ${Date.now().toString(36)}` },
  })
  expect(created.status()).toBe(201)
  return ((await created.json()) as { id: number }).id
}

/** Long tasks of the main thread since the last call (the observer starts with the page). */
async function takeLongTasks(page: Page): Promise<{ startMs: number; durationMs: number }[]> {
  return page.evaluate(() => {
    const store = window as unknown as { diveLongTasks: { startMs: number; durationMs: number }[] }
    return store.diveLongTasks.splice(0)
  })
}

test('a 5M-particle run plays, pauses, seeks and changes colour with no main-thread long task', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000)
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('playwright.config.ts sets E2E_DATA_DIR')
  const simulationId = await createSimulation(request)
  await writeSyntheticRun({
    dataDir,
    simulationId,
    runId: RUN_ID,
    outputCount: OUTPUTS,
    particles: PARTICLES,
    intervalS: 0.25,
  })
  await activateSyntheticRun(dataDir, simulationId, RUN_ID)

  await page.addInitScript(() => {
    const tasks: { startMs: number; durationMs: number }[] = []
    ;(window as unknown as { diveLongTasks: typeof tasks }).diveLongTasks = tasks
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        tasks.push({ startMs: entry.startTime, durationMs: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
  })
  await new LoginPage(page).loginAs('manager')
  await page.goto(`/simulation/${simulationId}/postprocessor`)
  const view = page.locator('.viewport')
  const points = page.getByTestId('viewport-points')
  const shown = page.getByTestId('viewport-shown-output')
  await expect(view).toHaveAttribute('data-engine-status', 'ready', { timeout: 60_000 })
  await expect(shown).toHaveText('Output 0', { timeout: 180_000 })
  await expect(points).not.toHaveText('0 points', { timeout: 60_000 })
  // Every particle of the 5M output is drawn (detail All is the default).
  expect(Number(((await points.textContent()) ?? '').replace(/\D/g, ''))).toBeGreaterThanOrEqual(
    PARTICLES,
  )
  // Let the first frame's own work settle, then count from here on.
  await page.waitForTimeout(2000)
  const beforeActions = await takeLongTasks(page)
  test.info().annotations.push({
    type: 'long tasks while loading (not asserted)',
    description: JSON.stringify(beforeActions.map((task) => Math.round(task.durationMs))),
  })

  const timeline = page.getByRole('group', { name: 'Timeline' })
  // Play: the fast dataset (500k of each 5M output) goes by.
  await timeline.getByRole('button', { name: 'Play' }).click()
  await expect(shown).not.toHaveText('Output 0', { timeout: 120_000 })
  // Pause: the output shown stays, and the label says the same.
  await timeline.getByRole('button', { name: 'Pause' }).click()
  await expect(timeline.getByRole('button', { name: 'Play' })).toBeVisible()
  await expect(page.getByTestId('timeline-label')).toContainText(
    (await shown.textContent()) ?? '',
    { timeout: 30_000 },
  )
  // Seek: output 2 in full (5M points) is loaded and shown; the label follows.
  await timeline.getByLabel('Output').fill('2')
  await expect(shown).toHaveText('Output 2', { timeout: 180_000 })
  await expect(page.getByTestId('timeline-label')).toContainText('Output 2')
  // Colour by pressure: a range over the shown output, then drawn with it.
  const colourMap = page.getByRole('region', { name: 'Colour map' })
  await colourMap.getByLabel('Attribute').selectOption('pressure')
  await expect
    .poll(
      async () => {
        // The range's low end: a readout, or the editable field, depending on the bar's mode.
        const readout = colourMap.getByTestId('colour-map-min')
        if ((await readout.count()) > 0) return (await readout.textContent()) ?? ''
        return colourMap.getByLabel('Min').inputValue()
      },
      { timeout: 60_000 },
    )
    .toMatch(/\d/)
  await page.waitForTimeout(3000)

  const longTasks = await takeLongTasks(page)
  expect(longTasks, `main-thread long tasks: ${JSON.stringify(longTasks)}`).toEqual([])
})
