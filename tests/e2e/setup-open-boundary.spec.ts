import { expect, test, type Locator } from '@playwright/test'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 16 item 6: open boundaries built once through the Setup editor and run. A column of water
 * (no gravity) between an inlet plane below it (velocity 0.1 m/s) and an outlet plane above it
 * (pressure 0), both added from the Add menu's Inlet Outlet and set in their Boundary Conditions
 * folder; discretized (the buffers' layers are counted with the water), run with the real solver,
 * and Results lists each boundary's buffer particles as an open boundary object. Small on purpose
 * (250 water particles, 0.06 s): CI has 2 cores.
 */

const SIMULATION = 'Open boundaries from Setup (e2e)'

test('builds a channel with an inlet and an outlet, runs it and shows their particles in Results', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000)
  const setup = await SetupPage.openNewSimulation(page, testInfo, SIMULATION)
  const folders = page.getByRole('group', { name: 'Part folders' })

  // A 5 × 5 × 10 cm column of water, 5 × 5 × 10 particles at 1 cm.
  await setup.addBox('Fluid', {
    name: 'Water',
    dimensions: [0.05, 0.05, 0.1],
    position: [0, 0, 0.1],
  })
  await setup.expectInitialized()
  await setup.explorer.getByText('Fluid 1', { exact: true }).dblclick()
  await setup.form.getByRole('button', { name: 'Load Presets' }).click()
  const presets = page.getByRole('dialog', { name: 'Load Presets' })
  await presets.getByText('Water', { exact: true }).click()
  await presets.getByRole('button', { name: 'Apply' }).click()
  await expect(presets).toBeHidden()
  await setup.fillNumber('Speed of sound', 10)

  // The inlet (the plane under the column) and the outlet (the plane over it), each 5 × 5 cm.
  const addPlane = async (name: string, z: number) => {
    await setup.openAddMenu('Inlet Outlet')
    await expect(setup.form.getByLabel('Plane')).toBeChecked()
    await setup.form.getByLabel('Name').fill(name)
    await setup.form.getByLabel('Width', { exact: false }).first().fill('0.05')
    await setup.form.getByLabel('Length', { exact: false }).first().fill('0.05')
    await setup.fillVector('Position', [0, 0, z])
    await setup.form.getByRole('button', { name: 'Add part', exact: true }).click()
    await expect(setup.explorer.getByText(name, { exact: true })).toBeVisible()
  }
  const conditions = async (name: string) => {
    await setup.explorer.getByText(name, { exact: true }).click()
    await folders.getByRole('button', { name: 'Boundary Conditions', exact: true }).click()
    await expect(setup.form.getByLabel('Direction')).toBeVisible()
  }
  const select = (label: string): Locator => setup.form.getByLabel(label, { exact: true })

  await addPlane('Inlet', 0.05)
  await conditions('Inlet')
  await select('Direction').selectOption('inflow')
  // an inlet with pressure is not allowed: the condition type is locked to velocity
  await expect(select('Condition type')).toHaveValue('riemann_velocity')
  await expect(select('Condition type')).toBeDisabled()
  await setup.fillNumber('Velocity', 0.1)
  await setup.shot('inlet')

  await addPlane('Outlet', 0.15)
  await conditions('Outlet')
  await select('Direction').selectOption('outflow')
  await select('Condition type').selectOption('riemann_pressure')
  await setup.fillNumber('Pressure', 0)
  await setup.shot('outlet')

  // No gravity (the channel has no walls); 1 cm particles; 6 outputs over 0.06 s.
  await setup.openAddMenu('Settings')
  const gravityZ = setup.form.getByLabel(/^Gravity z\b/)
  await gravityZ.fill('0')
  await gravityZ.blur()
  await expect(gravityZ).toHaveValue('0')
  await setup.fillNumber('Particle diameter', 0.01)
  await setup.fillNumber('Output interval', 0.01)
  await setup.fillNumber('End time', 0.06)

  // 250 water particles and 4 buffer layers of 25 at each boundary; the view shows the water's
  // (walls' and boundaries' particles are shown on request only)
  await setup.discretize()
  const details = page.locator('.discretization__details summary')
  await expect(details).toHaveText('450 particles')
  await details.click()
  const table = page.getByRole('table', { name: 'Particles per part' })
  await expect(table.getByRole('row', { name: /^Inlet Open boundary/ })).toContainText('100')
  await expect(table.getByRole('row', { name: /^Outlet Open boundary/ })).toContainText('100')
  await setup.shot('summary')
  await details.click()
  await expect(page.getByTestId('viewport-points')).toHaveText('250 points', { timeout: 30_000 })
  // a plane is open by design: no mesh warning on the inlet and outlet
  await expect(setup.explorer.getByRole('button', { name: /has warnings/ })).toHaveCount(0)

  await setup.runToCompleted()
  await setup.openResults()
  // Each boundary's buffer is an output object of its own, listed by its part's name.
  const explorer = page.getByRole('complementary', { name: 'Results explorer' })
  await expect(explorer.getByText('Inlet', { exact: true })).toBeVisible({ timeout: 30_000 })
  await expect(explorer.getByText('Outlet', { exact: true })).toBeVisible()
  await setup.shot('results')
})
