import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'
import { ProjectsPage } from './pages/ProjectsPage.ts'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 16 (items 7-9): a refinement zone, the periodic boundary and the air drag domain built
 * through the Setup editor: each is added from the Add menu, listed in the explorer, edited in its
 * form with the §5 messages (the server's refusals included), drawn in the view, and deleted; a
 * start with them is refused naming them. Screenshots per step in the test's output folder (and
 * in SETUP_OBJECTS_SHOTS when set).
 */

const SIMULATION = 'Setup objects (e2e)'

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([])
}

test('adds, edits and deletes a refinement zone, the periodic boundary and the air drag domain', async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000)
  await new LoginPage(page).loginAs('manager')
  const projects = new ProjectsPage(page)
  await projects.createSimulation('Demo project', SIMULATION)
  await projects
    .simulationRow('Demo project', SIMULATION)
    .getByRole('link', { name: 'Setup', exact: true })
    .click()
  const setup = new SetupPage(page, testInfo)
  // Each step's screenshot is also kept in SETUP_OBJECTS_SHOTS when set.
  const dir = process.env.SETUP_OBJECTS_SHOTS
  const keep = (name: string) => {
    if (!dir) return
    mkdirSync(dir, { recursive: true })
    copyFileSync(testInfo.outputPath(`${name}.png`), join(dir, `${name}.png`))
  }
  await setup.expectInitialized()
  await setup.addBox('Solid', { name: 'Tank', dimensions: [1, 1, 0.5], position: [0, 0, 0.25] })

  // Refinement zone: a cube in the middle of the parts, its level checked (> 0).
  await setup.openAddMenu('Refinement Zone')
  await expect(setup.form.getByRole('heading', { name: 'Refinement Zone' })).toBeVisible()
  const zones = setup.explorer.getByRole('list', { name: 'Refinements' })
  await expect(zones.getByText('Refinement Zone 1', { exact: true })).toBeVisible()
  await expect(setup.form.getByLabel('Level', { exact: true })).toHaveValue('0.3')
  await setup.form.getByLabel('Level', { exact: true }).fill('0')
  await setup.form.getByLabel('Level', { exact: true }).press('Enter')
  await expect(setup.form.getByText('Level must be greater than 0.').first()).toBeVisible()
  await setup.fillNumber('Level', 0.5)
  await setup.fillVector('Dimensions', [0.3, 0.3, 0.2])
  await expect(page.getByRole('alert').filter({ hasText: 'failed' })).toHaveCount(0)
  await setup.expectInitialized()
  await expectNoSeriousAxeViolations(page)
  await setup.shot('refinement-zone')
  keep('01-refinement-zone')

  // Periodic boundary: slice angle rules (a refusal above 120°, warnings below 15° and when 360°
  // is not a multiple), then a valid 45° slice.
  await setup.openAddMenu('Periodic Boundary')
  await expect(setup.form.getByRole('heading', { name: 'Periodic Boundary' })).toBeVisible()
  await expect(setup.form.getByLabel('Slice angle', { exact: true })).toHaveValue('90')
  const angle = setup.form.getByLabel('Slice angle', { exact: true })
  await angle.fill('200')
  await angle.press('Enter')
  await expect(setup.form.getByText('Slice angle must be at most 120.').first()).toBeVisible()
  await setup.fillNumber('Slice angle', 10.5)
  await expect(
    setup.form.getByText(
      'Slice angle below 15° can cause undesired particle distribution near the center.',
    ),
  ).toBeVisible()
  await expect(setup.form.getByText('Slice angle should divide 360° evenly.')).toBeVisible()
  await setup.fillNumber('Slice angle', 45)
  await expect(setup.form.getByText('Slice angle should divide 360° evenly.')).toHaveCount(0)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByRole('menuitem', { name: 'Periodic Boundary' })).toHaveAttribute(
    'aria-disabled',
    'true',
  )
  await page.keyboard.press('Escape')
  await expectNoSeriousAxeViolations(page)
  await setup.shot('periodic-boundary')
  keep('02-periodic-boundary')

  // Air drag domain: air drag on with a box around the parts; the grid and its cell limit.
  await setup.openAddMenu('Air drag domain')
  await expect(setup.form.getByRole('heading', { name: 'Air Drag Domain' })).toBeVisible()
  await setup.form.getByLabel('Air velocity').selectOption('table')
  await expect(setup.form.getByLabel('Cell size', { exact: true })).toBeVisible()
  const cell = setup.form.getByLabel('Cell size', { exact: true })
  await cell.fill('0.001')
  await cell.press('Enter')
  await expect(
    setup.form.getByText(/^Total number of cells cannot exceed 50,000,000 \(currently /).first(),
  ).toBeVisible()
  await setup.fillNumber('Cell size', 0.1)
  await setup.form.getByLabel('Show grid').click()
  await expect(setup.form.getByLabel('Show grid')).toBeChecked()
  await expect(setup.form.getByText('Table is required')).toBeVisible()
  await expect(setup.explorer.getByText('Air Drag Domain')).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await setup.shot('air-drag-domain')
  keep('03-air-drag-domain')

  // The objects are listed in the explorer's Domain section and open from there.
  await setup.explorer.getByRole('button', { name: 'Periodic Boundary', exact: true }).dblclick()
  await expect(setup.form.getByRole('heading', { name: 'Periodic Boundary' })).toBeVisible()
  await expect(setup.form.getByLabel('Slice angle', { exact: true })).toHaveValue('45')

  // Mesh Check lists the holes and non-manifold edges of the parts (a box has none).
  await page.getByRole('button', { name: 'Mesh check' }).click()
  const check = page.getByRole('dialog', { name: 'Mesh Check' })
  await expect(check.getByRole('heading', { name: 'Holes (0)' })).toBeVisible()
  await expect(check.getByRole('heading', { name: 'Non-Manifold (0)' })).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await page.keyboard.press('Escape')
  await expect(check).toBeHidden()

  // Deleting needs a double click; the zone and the slice go, the domain switches air drag off.
  await zones.getByText('Refinement Zone 1', { exact: true }).click()
  const deleteZone = setup.explorer.getByRole('button', { name: 'Delete Refinement Zone 1' })
  await deleteZone.click()
  await deleteZone.click()
  await expect(zones).toHaveCount(0)
  await expect(setup.explorer.getByText('None', { exact: true })).toBeVisible()
  const deleteAirDrag = setup.explorer.getByRole('button', { name: 'Delete Air Drag Domain' })
  await deleteAirDrag.click()
  await deleteAirDrag.click()
  await expect(deleteAirDrag).toHaveCount(0)
  await setup.shot('deleted')
  keep('04-deleted')
})
