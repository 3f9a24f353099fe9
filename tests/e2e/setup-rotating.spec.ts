import { expect, test } from '@playwright/test'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 16 item 5: a tank of water in a rotating system built only through the Setup editor —
 * a box tank, a filling, the Physics form's Rotating system with its velocity, axis and centre —
 * then discretized and run with the real solver (which refused the rotating system before), and
 * opened in Results. Each step leaves a screenshot in the test's output folder.
 */

const SIMULATION = 'Rotating tank from Setup (e2e)'

test('builds a tank in a rotating system, discretizes, runs it and opens Results', async ({
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

  // The rotating system: 3 rad/s about the vertical axis through the tank's centre line.
  await setup.openAddMenu('Physics')
  const rotating = setup.form.getByRole('switch', { name: 'Rotating system' })
  await rotating.click()
  await expect(rotating).toBeChecked()
  await setup.fillNumber('Rotation velocity', 3)
  await setup.fillVector('Rotation axis', [0, 0, 1])
  await setup.fillVector('Rotation center', [0, 0, 0])
  await expect(setup.form.getByLabel(/^Rotation axis z\b/)).toHaveValue('1')
  await setup.shot('rotating-system')

  await setup.discretize()
  await setup.runToCompleted()
  await setup.openResults()
})
