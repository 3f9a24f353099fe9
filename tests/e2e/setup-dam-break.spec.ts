import { expect, test } from '@playwright/test'
import { fileURLToPath } from 'node:url'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 11 (a): a new, empty simulation becomes the dam break only through the Setup editor — a
 * tank STL uploaded in millimetres, a water filling with a fill height, water from the presets,
 * the particle diameter, end time and output interval — then it is discretized (its particles are
 * drawn), run with the real solver, and opened in Results. Each step leaves a screenshot in the
 * test's output folder.
 */

const TANK_STL = fileURLToPath(new URL('../fixtures/tank-mm.stl', import.meta.url))
const SIMULATION = 'Dam break from Setup (e2e)'

test('builds the dam break from an empty simulation, discretizes, runs it and opens Results', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000)
  const setup = await SetupPage.openNewSimulation(page, testInfo, SIMULATION)
  await expect(setup.explorer.getByText('Add your first object')).toBeVisible()
  await setup.shot('empty')

  // The tank: 800 × 100 × 500 mm, open at the top, read in mm and stored in metres.
  await setup.addStlSolid(TANK_STL, 'mm')
  await expect(setup.explorer.getByText('tank-mm', { exact: true })).toBeVisible()
  await expect(setup.form.getByText('tank-mm.stl')).toBeVisible()
  await setup.expectInitialized()
  await setup.shot('tank')

  // The water: a box over the left quarter of the tank, filled up to 0.4 m.
  await setup.addBox('Fluid', {
    name: 'Water',
    dimensions: [0.2, 0.1, 0.5],
    position: [0.1, 0.05, 0.25],
    fillHeight: 0.4,
  })
  await setup.expectInitialized()
  await setup.shot('water')

  // Water from the presets, with a speed of sound for a weakly-compressible run.
  await setup.explorer.getByText('Fluid 1', { exact: true }).dblclick()
  await setup.form.getByRole('button', { name: 'Load Presets' }).click()
  const presets = page.getByRole('dialog', { name: 'Load Presets' })
  await presets.getByText('Water', { exact: true }).click()
  await presets.getByRole('button', { name: 'Apply' }).click()
  await expect(presets).toBeHidden()
  await expect(setup.form.getByLabel('Density', { exact: true })).toHaveValue('998.2')
  await setup.fillNumber('Speed of sound', 20)
  await setup.shot('material')

  // Resolution and time: 5 outputs over 0.1 s at a 2 cm particle diameter.
  await setup.openAddMenu('Settings')
  await setup.fillNumber('Particle diameter', 0.02)
  await setup.fillNumber('End time', 0.1)
  await setup.fillNumber('Output interval', 0.02)
  await expect(setup.form.getByLabel('Output count', { exact: true })).toHaveValue('5')
  await setup.shot('settings')

  // Discretize: the widget counts the particles and the view draws the water's. At 2 cm the water
  // is 10 × 5 × 20 = 1,000 particles: its box is 0.5 m high, filled to 0.4 m.
  await page.getByRole('button', { name: 'Discretize', exact: true }).click()
  const status = page.getByTestId('discretization-status')
  await expect(status).toContainText('Discretized', { timeout: 60_000 })
  const widget = page.getByRole('group', { name: 'Discretization' })
  await widget.getByText(/[\d,]+ particles/).click()
  await expect(
    widget.getByRole('row', { name: /^Water Fluid 8 L of 8 L \(0 %\) 1,000$/ }),
  ).toBeVisible()
  const points = page.getByTestId('viewport-points')
  await expect(points).toHaveText('1,000 points', { timeout: 30_000 })
  await setup.shot('discretized')

  // Run with the real solver, then Results.
  await setup.runToCompleted()
  await setup.openResults()
})
