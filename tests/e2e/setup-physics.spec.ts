import { expect, test, type Page } from '@playwright/test'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 16 items 1–4, each built once through the Setup editor and run with the real solver:
 * multiphase (two materials), surface tension between them, thermodynamics (a wall at a set
 * temperature; Results offers the temperature column) and a viscosity from a shear-rate table.
 * Each is a 0.1 m block of water (64 particles at 2.5 cm) falling for 0.04 s: CI has 2 cores.
 */

/** A fluid box of the material at `materialIndex` in the Add form's list. */
async function addFluidBox(
  setup: SetupPage,
  name: string,
  position: [number, number, number],
  materialIndex = 0,
) {
  await setup.openAddMenu('Fluid')
  await setup.form.getByLabel('Box').check()
  await setup.form.getByLabel('Name').fill(name)
  await setup.fillVector('Dimensions', [0.1, 0.1, 0.1])
  await setup.fillVector('Position', position)
  await setup.form.getByLabel('Material').selectOption({ index: materialIndex })
  await setup.form.getByRole('button', { name: 'Add part', exact: true }).click()
  await expect(setup.explorer.getByText(name, { exact: true })).toBeVisible()
  await setup.expectInitialized()
}

/** Opens a material from the explorer and gives it the numbers a weakly-compressible run needs. */
async function editMaterial(
  setup: SetupPage,
  name: string,
  values: { density: number; kinematicViscosity?: number },
) {
  await setup.explorer.getByText(name, { exact: true }).dblclick()
  await setup.fillNumber('Density', values.density)
  await setup.fillNumber('Speed of sound', 20)
  if (values.kinematicViscosity !== undefined) {
    // small values read back in the field's own notation (1e-6)
    const input = setup.form.getByLabel('Kinematic viscosity', { exact: true })
    await input.fill(String(values.kinematicViscosity))
    await input.press('Enter')
    await expect.poll(async () => Number(await input.inputValue())).toBe(values.kinematicViscosity)
  }
}

async function setTimes(setup: SetupPage) {
  await setup.openAddMenu('Settings')
  await setup.fillNumber('Particle diameter', 0.025)
  // the interval first: 0.04 s at the default interval would be fewer than 5 outputs
  await setup.fillNumber('Output interval', 0.008)
  await setup.fillNumber('End time', 0.04)
  await expect(setup.form.getByLabel('Output count', { exact: true })).toHaveValue('5')
}

async function switchMultiphaseOn(page: Page, setup: SetupPage) {
  await setup.openAddMenu('Physics')
  await setup.form.getByRole('switch', { name: 'Multiphase' }).click()
  const adjusted = page.getByRole('dialog', { name: 'Advanced Settings Were Adjusted' })
  await expect(adjusted).toBeVisible()
  await adjusted.getByRole('button', { name: 'OK' }).click()
  await expect(adjusted).toBeHidden()
  await expect(setup.form.getByRole('switch', { name: 'Multiphase' })).toBeChecked()
}

/** Two blocks side by side: water (the first material) and a lighter fluid (the second). */
async function buildTwoFluids(page: Page, setup: SetupPage) {
  await switchMultiphaseOn(page, setup)
  await addFluidBox(setup, 'Water', [0, 0, 0.3], 0)
  await addFluidBox(setup, 'Oil', [0.1, 0, 0.3], 1)
  await editMaterial(setup, 'Fluid 1', { density: 1000, kinematicViscosity: 1e-6 })
  await editMaterial(setup, 'Fluid 2', { density: 800, kinematicViscosity: 1e-5 })
  await setTimes(setup)
}

test.describe('physics built in the Setup editor and run', () => {
  test.describe.configure({ timeout: 240_000 })

  test('multiphase: two materials', async ({ page }, testInfo) => {
    const setup = await SetupPage.openNewSimulation(page, testInfo, 'Multiphase (e2e)')
    await buildTwoFluids(page, setup)
    await setup.shot('two-fluids')
    await setup.discretize()
    await setup.runToCompleted()
    await setup.openResults()
  })

  test('surface tension between two materials', async ({ page }, testInfo) => {
    const setup = await SetupPage.openNewSimulation(page, testInfo, 'Surface tension (e2e)')
    await buildTwoFluids(page, setup)
    await setup.openAddMenu('Physics')
    await setup.form.getByRole('switch', { name: 'Surface tension' }).click()
    await expect(setup.form.getByRole('switch', { name: 'Surface tension' })).toBeChecked()
    await setup.fillNumber('Sigma', 0.072)
    await setup.shot('surface-tension')
    await setup.discretize()
    await setup.runToCompleted()
    await setup.openResults()
  })

  test('thermodynamics: a wall at a set temperature, the temperature in Results', async ({
    page,
  }, testInfo) => {
    const setup = await SetupPage.openNewSimulation(page, testInfo, 'Heat transfer (e2e)')
    await setup.openAddMenu('Physics')
    await setup.form.getByRole('switch', { name: 'Heat transfer (thermodynamics)' }).click()
    await setup.fillNumber('Ambient temperature', 293)
    await addFluidBox(setup, 'Water', [0, 0, 0.2])
    await setup.addBox('Solid', {
      name: 'Hot plate',
      dimensions: [0.2, 0.2, 0.05],
      position: [0, 0, 0.025],
    })
    await setup.expectInitialized()
    await editMaterial(setup, 'Fluid 1', { density: 1000, kinematicViscosity: 1e-6 })
    await setup.fillNumber('Thermal conductivity', 0.6)
    await setup.fillNumber('Specific heat capacity', 4186)
    // the water starts at 300 K, the plate holds 350 K
    const folders = page.getByRole('group', { name: 'Part folders' })
    await setup.explorer.getByText('Water', { exact: true }).click()
    await folders.getByRole('button', { name: 'Initial Conditions' }).click()
    await setup.fillNumber('Initial temperature', 300)
    await setup.explorer.getByText('Hot plate', { exact: true }).click()
    await folders.getByRole('button', { name: 'Boundary Conditions' }).click()
    await setup.form.getByLabel('Thermal condition').selectOption('temperature')
    await setup.fillNumber('Boundary temperature', 350)
    await setTimes(setup)
    await setup.shot('hot-plate')
    await setup.discretize()
    await setup.runToCompleted()
    await setup.openResults()
    // the colour map offers the output's temperature column (K)
    const attribute = page.getByLabel('Colour map').getByLabel('Attribute')
    await expect(attribute.locator('option', { hasText: 'Temperature (K)' })).toHaveCount(1)
    await attribute.selectOption({ label: 'Temperature (K)' })
    await setup.shot('temperature')
  })

  test('viscosity from a shear-rate table', async ({ page }, testInfo) => {
    const setup = await SetupPage.openNewSimulation(page, testInfo, 'Shear-rate viscosity (e2e)')
    await addFluidBox(setup, 'Slurry', [0, 0, 0.2])
    await editMaterial(setup, 'Fluid 1', { density: 1200 })
    await setup.form.getByLabel('Viscosity', { exact: true }).selectOption('shear_rate')
    await setup.form.locator('input[type=file]').setInputFiles({
      name: 'slurry.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('shear_rate,kinematic_viscosity\n0.1,0.0001\n10,0.00001\n'),
    })
    await expect(
      setup.form.getByRole('table', { name: 'Viscosity over shear rate preview' }),
    ).toBeVisible()
    await setTimes(setup)
    await setup.shot('viscosity-table')
    await setup.discretize()
    await setup.runToCompleted()
    await setup.openResults()
  })
})
