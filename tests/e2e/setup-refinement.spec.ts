import { expect, test } from '@playwright/test'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 16 item 9: a refinement zone built once through the Setup editor and run. A block of
 * water is discretized, then the Add menu's Refinement Zone puts a cube at the middle of the
 * parts at the default level (0.3: spacing dp/3); discretized again, the summary counts the
 * particles the run will hold, more than without the zone; run with the real solver and opened in
 * Results. (The menu entry is disabled with multiphase on: toolbarModel and SetupToolbar tests.)
 * Small on purpose (125 particles, 0.03 s): CI has 2 cores.
 */

const SIMULATION = 'Refinement zone from Setup (e2e)'

test('refines a water block inside a refinement zone, runs it and opens Results', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000)
  const setup = await SetupPage.openNewSimulation(page, testInfo, SIMULATION)

  // A 0.1 m block of water, 5 particles across at 2 cm.
  await setup.addBox('Fluid', { name: 'Water', dimensions: [0.1, 0.1, 0.1], position: [0, 0, 0.5] })
  await setup.expectInitialized()
  await setup.explorer.getByText('Fluid 1', { exact: true }).dblclick()
  await setup.form.getByRole('button', { name: 'Load Presets' }).click()
  const presets = page.getByRole('dialog', { name: 'Load Presets' })
  await presets.getByText('Water', { exact: true }).click()
  await presets.getByRole('button', { name: 'Apply' }).click()
  await expect(presets).toBeHidden()
  await setup.fillNumber('Speed of sound', 20)

  await setup.openAddMenu('Settings')
  await setup.fillNumber('Particle diameter', 0.02)
  await setup.fillNumber('Output interval', 0.006)
  await setup.fillNumber('End time', 0.03)

  const details = page.locator('.discretization__details summary')
  await setup.discretize()
  await expect(details).toHaveText('125 particles')

  // The zone: a cube a quarter the size of the parts' box at their centre, level 0.3.
  await setup.openAddMenu('Refinement Zone')
  await expect(setup.form.getByRole('heading', { name: 'Refinement Zone' })).toBeVisible()
  await expect(setup.form.getByLabel('Level', { exact: true })).toHaveValue('0.3')
  const zones = setup.explorer.getByRole('list', { name: 'Refinements' })
  await expect(zones.getByText('Refinement Zone 1', { exact: true })).toBeVisible()
  await setup.expectInitialized()
  await setup.shot('zone')

  // The middle particle lies in the zone: 1 becomes 3³ = 27.
  await setup.discretize()
  await expect(details).toHaveText('151 particles')
  await details.click()
  const table = page.getByRole('table', { name: 'Particles per part' })
  await expect(table.getByRole('row', { name: /^Refinement/ })).toContainText('1 split into 27')
  await setup.shot('summary')
  await details.click()

  await setup.runToCompleted()
  await setup.openResults()
  await expect(page.getByTestId('viewport-points')).toHaveText('151 points', { timeout: 60_000 })
  await setup.shot('results')
})
