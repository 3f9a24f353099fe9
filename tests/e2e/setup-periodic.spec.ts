import { expect, test } from '@playwright/test'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 16 item 7: a quarter of a tank built only through the Setup editor — a box tank and its
 * water, the Periodic Boundary item (a 90° slice about the vertical axis through the tank's
 * centre line) — then discretized (the particles fill the slice only) and run with the real
 * solver (which refused the periodic boundary before), and opened in Results, whose Periodic
 * Boundary item names the slice. Each step leaves a screenshot in the test's output folder.
 */

const SIMULATION = 'Periodic slice from Setup (e2e)'

test('builds a 90° slice of a tank, discretizes, runs it and opens Results', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000)
  const setup = await SetupPage.openNewSimulation(page, testInfo, SIMULATION)

  await setup.addBox('Solid', {
    name: 'Tank',
    dimensions: [0.3, 0.3, 0.3],
    position: [0, 0, 0.15],
  })
  await setup.addBox('Fluid', {
    name: 'Water',
    dimensions: [0.3, 0.3, 0.3],
    position: [0, 0, 0.15],
    fillHeight: 0.09,
  })
  await setup.openAddMenu('Settings')
  await setup.fillNumber('Particle diameter', 0.03)
  // the interval first: at least 5 outputs over the end time
  await setup.fillNumber('Output interval', 0.008)
  await setup.fillNumber('End time', 0.04)
  await setup.expectInitialized()

  // The periodic boundary: a 90° slice about z through the origin (the tank's centre line).
  await setup.openAddMenu('Periodic Boundary')
  await expect(setup.form.getByRole('heading', { name: 'Periodic Boundary' })).toBeVisible()
  await expect(setup.form.getByLabel('Slice angle', { exact: true })).toHaveValue('90')
  await setup.fillVector('Center', [0, 0, 0])
  await setup.fillVector('Axis', [0, 0, 1])
  await expect(
    setup.explorer.getByRole('button', { name: 'Periodic Boundary', exact: true }),
  ).toBeVisible()
  await setup.shot('periodic-boundary')

  await setup.discretize()
  await setup.runToCompleted()
  await setup.openResults()
  await expect(page.getByRole('listitem', { name: 'Periodic Boundary' })).toContainText(
    'Slice of 90°',
  )
  await setup.shot('results-periodic')
})
