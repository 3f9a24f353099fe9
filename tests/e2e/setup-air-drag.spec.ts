import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 16 item 8: air drag built once through the Setup editor and run. A block of water falls
 * through a wind blowing along x inside the air drag domain (kind constant); it is discretized,
 * run with the real solver (which refused air drag before), and Results lists Air Drag as
 * enabled. Small on purpose (125 particles, 0.04 s): CI has 2 cores.
 */

const SIMULATION = 'Air drag from Setup (e2e)'

test('builds a water block in a wind with the air drag domain, runs it and opens Results', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000)
  const setup = await SetupPage.openNewSimulation(page, testInfo, SIMULATION)

  // A 0.1 m block of water, 5 particles across at 2 cm.
  await setup.addBox('Fluid', {
    name: 'Water',
    dimensions: [0.1, 0.1, 0.1],
    position: [0, 0, 0.5],
  })
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
  // the interval first: 0.04 s at the default interval would be fewer than 5 outputs
  await setup.fillNumber('Output interval', 0.008)
  await setup.fillNumber('End time', 0.04)
  await expect(setup.form.getByLabel('Output count', { exact: true })).toHaveValue('5')

  // The air drag domain: a 2 m box around the block, air at 10 m/s along x.
  await setup.openAddMenu('Air drag domain')
  await expect(setup.form.getByRole('heading', { name: 'Air Drag Domain' })).toBeVisible()
  await expect(setup.form.getByLabel('Air velocity')).toHaveValue('constant')
  await setup.fillVector('Size', [2, 2, 2])
  await setup.fillVector('Velocity', [10, 0, 0])
  await expect(setup.explorer.getByText('Air Drag Domain')).toBeVisible()
  await setup.shot('air-drag-domain')

  await setup.discretize()
  const points = page.getByTestId('viewport-points')
  await expect(points).toHaveText('125 points', { timeout: 30_000 })

  await setup.runToCompleted()
  await setup.openResults()
  await expect(page.getByText('Air Drag', { exact: true })).toBeVisible()
  await expect(page.getByText('Enabled', { exact: true })).toBeVisible()
  await expect
    .poll(async () => Number((await points.innerText()).replace(/\D/g, '')), { timeout: 60_000 })
    .toBeGreaterThan(0)
  await setup.shot('results')

  // The Air Drag item offers the domain's grid (fetched as a binary): the 2 m box typed above in
  // cells of 0.1 m (each Size component kept: the form once lost edits made in quick turn), drawn
  // over the results while 'Show grid' is checked (from the keyboard here).
  const item = page.getByRole('listitem', { name: 'Air Drag' })
  await expect(item).toContainText('Grid 20 × 20 × 20 cells of 0.1 m')
  const show = item.getByRole('checkbox', { name: 'Show grid' })
  await show.focus()
  await page.keyboard.press('Space')
  await expect(show).toBeChecked()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([])
  await setup.shot('air-drag-grid')
})
