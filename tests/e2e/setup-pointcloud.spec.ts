import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'
import { SetupPage } from './pages/SetupPage.ts'
import { ensureResultsDemo, RESULTS_DEMO_NAME, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * Issue 16 (item 10): a pointcloud part and initial conditions built through the Setup editor.
 * The demo's water column takes its particles from output 3 of the completed results clone (the
 * Geometry folder's point cloud source), the particle diameter then follows the reference, and
 * the discretization draws the cloud ('Loaded pointclouds'). A second clone gets an initial
 * velocity, then an initial distribution table uploaded as CSV, with the temperature rule of the
 * Heat Transfer Model, and discretizes. Screenshots per step in the test's output folder.
 */

interface PartBody {
  id: number
  name: string
  shape: { type: string; refSimulationId?: number | null; refSimulationOutput?: number | null }
  component: {
    initialVelocity: (number | null)[]
    initialDistribution: boolean
    initialDistributionTableId: number | null
  }
  pointcloudUrl: string | null
}

/** A clone of the seeded dam break named `name` (made on first use), not started. */
async function demoClone(
  request: APIRequestContext,
  demo: ResultsDemo,
  name: string,
): Promise<number> {
  const reply = await request.get('/api/projects?pageLimit=30', { headers: demo.headers })
  const body = (await reply.json()) as {
    results: { simulations: { id: number; name: string }[] }[]
  }
  const simulations = body.results.flatMap((p) => p.simulations)
  const found = simulations.find((s) => s.name === name)
  if (found) return found.id
  const seeded = simulations.find((s) => s.name === 'Dam break')
  if (!seeded) throw new Error('the seeded demo dam break is missing')
  const cloned = await request.post(`/api/simulations/${seeded.id}`, { headers: demo.headers })
  expect(cloned.status(), await cloned.text()).toBe(201)
  const id = ((await cloned.json()) as { id: number }).id
  const renamed = await request.put(`/api/simulations/${id}`, {
    headers: demo.headers,
    data: { name },
  })
  expect(renamed.status(), await renamed.text()).toBe(200)
  return id
}

async function waterColumn(
  request: APIRequestContext,
  demo: ResultsDemo,
  simulationId: number,
): Promise<PartBody> {
  const reply = await request.get(`/api/simulations/${simulationId}/parts`, {
    headers: demo.headers,
  })
  const parts = (await reply.json()) as PartBody[]
  const part = parts.find((p) => p.name === 'Water column')
  if (!part) throw new Error('the demo has no Water column')
  return part
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([])
}

async function openPartFolder(setup: SetupPage, part: string, folder: string) {
  await setup.explorer.getByText(part, { exact: true }).first().dblclick()
  await setup.page
    .getByRole('group', { name: 'Part folders' })
    .getByRole('button', { name: folder, exact: true })
    .click()
  await expect(setup.form).toBeVisible()
}

async function discretize(page: Page) {
  await page.getByRole('button', { name: 'Discretize', exact: true }).click()
  await expect(page.getByTestId('discretization-status')).toContainText('Discretized', {
    timeout: 90_000,
  })
}

test('a pointcloud part takes its particles from another simulation’s output', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(300_000)
  const demo = await ensureResultsDemo(request)
  const id = await demoClone(request, demo, 'Pointcloud restart (e2e)')
  await new LoginPage(page).loginAs('manager')
  await page.goto(`/simulation/${id}/preprocessor`)
  const setup = new SetupPage(page, testInfo)
  await setup.expectInitialized()

  await openPartFolder(setup, 'Water column', 'Geometry')
  await setup.form.getByRole('button', { name: 'Take particles from another simulation' }).click()
  const source = setup.form.getByRole('group', { name: 'Point cloud source' })
  await expect(source).toBeVisible()
  await source.getByLabel('Reference simulation').selectOption({ label: RESULTS_DEMO_NAME })
  await expect(source.getByLabel('Output')).toBeEnabled()
  await expect(source.getByLabel('Output').locator('option[value="3"]')).toHaveCount(1)
  await source.getByLabel('Output').selectOption('3')
  await expect(setup.form.getByText('Point cloud', { exact: true })).toBeVisible()
  await expect(setup.form.getByText('Point cloud parts cannot be edited.')).toBeVisible()
  await expect
    .poll(async () => (await waterColumn(request, demo, id)).shape)
    .toMatchObject({
      type: 'pointcloud',
      refSimulationId: demo.simulationId,
      refSimulationOutput: 3,
    })
  // before any discretization the part offers the reference output's particles to draw
  const part = await waterColumn(request, demo, id)
  expect(part.pointcloudUrl).toMatch(/\/pointcloud\?v=/)
  const cloud = await request.get(part.pointcloudUrl!, { headers: demo.headers })
  expect(cloud.status()).toBe(200)
  await expectNoSeriousAxeViolations(page)
  await setup.shot('pointcloud-source')

  // the particle diameter is the reference's: its field is disabled
  await setup.openAddMenu('Settings')
  await expect(setup.form.getByLabel('Particle diameter', { exact: true })).toBeDisabled()

  await discretize(page)
  await expect(page.getByText('Loaded pointclouds')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('viewport-points')).not.toHaveText('0 points')
  await setup.shot('pointcloud-discretized')
})

test('initial velocity and an initial distribution table through the Initial Conditions folder', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(200_000)
  const demo = await ensureResultsDemo(request)
  const id = await demoClone(request, demo, 'Initial conditions (e2e)')
  await new LoginPage(page).loginAs('manager')
  await page.goto(`/simulation/${id}/preprocessor`)
  const setup = new SetupPage(page, testInfo)
  await setup.expectInitialized()

  await openPartFolder(setup, 'Water column', 'Initial Conditions')
  await setup.fillVector('Initial velocity', [1, 0, 0.5])
  await expect
    .poll(async () => (await waterColumn(request, demo, id)).component.initialVelocity)
    .toEqual([1, 0, 0.5])
  const pressure = setup.form.getByLabel('Initial pressure', { exact: true })
  await pressure.fill('2e9')
  await pressure.press('Enter')
  await expect(setup.form.getByText(/^Initial pressure must be at most/).first()).toBeVisible()
  await setup.fillNumber('Initial pressure', 0)
  await expectNoSeriousAxeViolations(page)
  await setup.shot('initial-velocity')

  // an initial distribution table from a CSV file (positions, velocity and pressure)
  // the switch shows the saved part (an optimistic edit a moment after the click), so wait for
  // it rather than check(), which asserts the state at once and failed under load
  const tableSwitch = setup.form.getByLabel('Initial distribution from a table')
  await tableSwitch.click()
  await expect(tableSwitch).toBeChecked()
  const table = setup.form.locator('section.datatable-field', {
    hasText: 'Initial distribution table',
  })
  await table.locator('input[type=file]').setInputFiles({
    name: 'initial.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('pos_x,pos_y,pos_z,vel_x,prs\n0,0,0,1,0\n0.5,0.1,0.4,2,100\n'),
  })
  await expect(
    setup.form.getByRole('table', { name: 'Initial distribution table preview' }),
  ).toBeVisible()
  await expect
    .poll(async () => (await waterColumn(request, demo, id)).component)
    .toMatchObject({ initialDistribution: true, initialDistributionTableId: expect.any(Number) })
  await expectNoSeriousAxeViolations(page)
  await setup.shot('initial-distribution')

  // with the Heat Transfer Model on, the table needs a temperature column
  const settingsPath = `/api/simulations/${id}/settings`
  const on = await request.put(settingsPath, {
    headers: demo.headers,
    data: { thermodynamics: true, ambientTemperature: 293 },
  })
  expect(on.status(), await on.text()).toBe(200)
  await page.reload()
  await setup.expectInitialized()
  await openPartFolder(setup, 'Water column', 'Initial Conditions')
  await expect(
    setup.form.getByText(
      'Heat Transfer Model is enabled. Please upload the initial temperature or disable the model in the Physics Tab.',
    ),
  ).toBeVisible()
  await setup.shot('initial-distribution-temperature')
  const off = await request.put(settingsPath, {
    headers: demo.headers,
    data: { thermodynamics: false },
  })
  expect(off.status(), await off.text()).toBe(200)
  await page.reload()
  await setup.expectInitialized()

  await discretize(page)
  await setup.shot('initial-conditions-discretized')
})
