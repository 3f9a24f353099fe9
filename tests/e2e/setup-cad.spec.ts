import { readFileSync, writeFileSync } from 'node:fs'
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { DEMO_PASSWORD, LoginPage, USERS } from './pages/LoginPage.ts'
import { SetupPage } from './pages/SetupPage.ts'
import { AS1_STEP, writeHoledBoxStl } from './support/cadFixtures.ts'

/*
 * Issue 16 (items 11 and 12) through the Setup editor. A real STEP assembly (the CAx-IF AS1 of
 * occt-import-js's own test files) is uploaded in the CAD import wizard, its tree searched, eight
 * nuts dragged past the 6 px threshold onto the create area (the overlay names 6, then '+2 more'),
 * the plate dragged into that part, the part tessellated ('Tessellation started.', the 'Importing
 * File' widget) into a setup part; the configuration is exported ('-config.json') and imported
 * again. Then Mesh Check on an STL with holes and a non-manifold edge: the defects listed, Zoom
 * rings one in the view. Screenshots per step in the test's output folder.
 */

async function apiHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  const reply = await request.post('/api/auth/login', {
    data: { email: USERS.manager, password: DEMO_PASSWORD },
  })
  expect(reply.status(), await reply.text()).toBe(200)
  const { accessToken } = (await reply.json()) as { accessToken: string }
  return { authorization: `Bearer ${accessToken}` }
}

/** A new, empty simulation in the demo project. */
async function newSimulation(request: APIRequestContext, name: string): Promise<number> {
  const headers = await apiHeaders(request)
  const reply = await request.get('/api/projects?pageLimit=30', { headers })
  const body = (await reply.json()) as { results: { id: number; name: string }[] }
  const project = body.results.find((p) => p.name === 'Demo project')
  if (!project) throw new Error('the seeded Demo project is missing')
  const created = await request.post(`/api/projects/${project.id}/simulations`, {
    headers,
    data: { name: `${name} ${Date.now()}` },
  })
  expect(created.status(), await created.text()).toBe(201)
  return ((await created.json()) as { id: number }).id
}

async function openWizard(setup: SetupPage): Promise<Locator> {
  await setup.openAddMenu('Solid')
  await setup.form.getByRole('radio', { name: 'CAD file (STEP)' }).check()
  await setup.form.getByRole('button', { name: 'Open the CAD import wizard' }).click()
  const wizard = setup.page.getByRole('dialog', { name: 'Import CAD Assembly' })
  await expect(wizard).toBeVisible()
  return wizard
}

/** Presses on `from`, moves by `nudge` px (under the threshold), then onto `to`. */
async function pressAndNudge(page: Page, from: Locator, nudgePx: number) {
  await from.scrollIntoViewIfNeeded()
  const box = (await from.boundingBox())!
  // On the row's name, right of the toggle and the check box (a press there does not drag).
  const start = { x: box.x + box.width * 0.6, y: box.y + box.height / 2 }
  await page.mouse.move(start.x, start.y)
  await page.mouse.down()
  await page.mouse.move(start.x + nudgePx, start.y)
  return start
}

async function dropOn(page: Page, start: { x: number; y: number }, target: Locator) {
  const box = (await target.boundingBox())!
  const end = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 4 })
  await page.mouse.move(end.x, end.y, { steps: 4 })
}

test('a STEP assembly is organised, tessellated into the setup, and its configuration exported and imported again', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000)
  const simulationId = await newSimulation(request, 'CAD import e2e')
  await new LoginPage(page).loginAs('manager')
  const setup = new SetupPage(page, testInfo)
  await page.goto(`/simulation/${simulationId}/preprocessor`)
  await setup.expectInitialized()

  // Step 1: the STEP file is uploaded and read into its import tree.
  let wizard = await openWizard(setup)
  await expect(wizard.getByText('1. Organizing parts')).toHaveAttribute('aria-current', 'step')
  await expect(wizard.getByRole('button', { name: 'Next' })).toBeDisabled()
  await wizard.locator('input[type=file][accept*=".stp"]').setInputFiles(AS1_STEP)
  const tree = wizard.getByRole('tree', { name: 'Import tree' })
  await expect(tree).toBeVisible({ timeout: 90_000 })
  await expect(wizard.getByText('22 components')).toBeVisible()
  await setup.shot('wizard-tree')

  // 'Search by name': the eight nuts with their assemblies; the plate is not shown.
  await wizard.getByPlaceholder('Search by name').fill('nut')
  const nuts = tree.getByRole('treeitem', { name: 'nut', exact: true })
  await expect(nuts).toHaveCount(8)
  await expect(tree.getByRole('treeitem', { name: 'plate' })).toHaveCount(0)
  // Checked from the keyboard (Space), as a person without a mouse would.
  for (let i = 0; i < 8; i++) {
    await nuts.nth(i).focus()
    await page.keyboard.press('Space')
  }
  await expect(wizard.getByText('8 checked', { exact: true })).toBeVisible()
  await expect(wizard.getByRole('button', { name: 'Merge & Import' })).toBeEnabled()

  // A press that moves 3 px is no drag; past 6 px the overlay names 6 nuts, then '+2 more'.
  const overlay = page.getByTestId('assembly-drag')
  const start = await pressAndNudge(page, nuts.nth(2), 3)
  await expect(overlay).toHaveCount(0)
  const createArea = wizard.getByRole('button', { name: /Drop components here to create a part/ })
  await dropOn(page, start, createArea)
  await expect(overlay).toBeVisible()
  await expect(overlay.locator('.assembly-drag__name')).toHaveCount(6)
  await expect(overlay).toContainText('+2 more')
  await setup.shot('dragging-nuts')
  await page.mouse.up()
  await expect(overlay).toHaveCount(0)
  const parts = wizard.getByRole('list', { name: 'Solids parts' })
  const nutPart = parts.getByRole('listitem').filter({ has: page.getByLabel('Name of nut') })
  await expect(nutPart).toContainText('8 components')
  await expect(wizard.getByRole('combobox', { name: 'Component type of nut' })).toHaveValue('rigid')

  // The plate (unchecked) dragged into the nuts' part.
  await wizard.getByPlaceholder('Search by name').fill('')
  const plate = tree.getByRole('treeitem', { name: 'plate' })
  const plateStart = await pressAndNudge(page, plate, 2)
  await dropOn(page, plateStart, nutPart)
  await expect(overlay).toHaveText('plate')
  await page.mouse.up()
  await expect(nutPart).toContainText('9 components')
  await setup.shot('grouped')

  // Step 2: Parts to Tessellate, the configuration exported as '{file}-config.json'.
  await wizard.getByRole('button', { name: 'Next' }).click()
  await expect(wizard.getByText('2. Tessellation')).toHaveAttribute('aria-current', 'step')
  const toTessellate = wizard.getByRole('list', { name: 'Parts to Tessellate' })
  await expect(toTessellate.getByRole('listitem')).toHaveCount(1)
  await expect(toTessellate).toContainText('Needs tessellation')
  await expect(wizard.getByLabel('Angular deflection')).toHaveValue('15')
  const download = page.waitForEvent('download')
  await wizard.getByRole('button', { name: 'Export Configuration' }).click()
  const exported = await download
  expect(exported.suggestedFilename()).toBe('as1-oc-214-config.json')
  const configPath = testInfo.outputPath('as1-oc-214-config.json')
  await exported.saveAs(configPath)
  const configuration = JSON.parse(readFileSync(configPath, 'utf8')) as {
    filename: string
    parts: { name: string; assemblyNodeIds: string[]; componentType: string }[]
  }
  expect(configuration.filename).toBe('as1-oc-214.stp')
  expect(configuration.parts).toHaveLength(1)
  expect(configuration.parts[0]).toMatchObject({ name: 'nut', componentType: 'rigid' })
  expect(configuration.parts[0]!.assemblyNodeIds).toHaveLength(9)
  await setup.shot('tessellation-step')

  // Import: 'Tessellation started.', the wizard closes, the 'Importing File' widget shows.
  await wizard.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByText('Tessellation started.')).toBeVisible()
  await expect(wizard).toBeHidden()
  const widget = page.getByRole('group', { name: 'Importing File' })
  await expect(widget).toBeVisible()
  await expect(widget).toContainText('as1-oc-214.stp')
  await setup.shot('importing-file')
  await expect(widget).toBeHidden({ timeout: 120_000 })

  // The tessellated part is in the setup, with its mesh.
  await expect(setup.explorer.getByText('nut', { exact: true })).toBeVisible()
  await setup.expectInitialized()
  const headers = await apiHeaders(request)
  const setupParts = (await (
    await request.get(`/api/simulations/${simulationId}/parts`, { headers })
  ).json()) as { name: string; shape: { type: string; info: { nbrOfTriangles: number } | null } }[]
  const made = setupParts.find((p) => p.name === 'nut')
  expect(made?.shape.type).toBe('stl')
  expect(made?.shape.info?.nbrOfTriangles).toBeGreaterThan(100)
  await setup.shot('tessellated')

  // The exported configuration, imported again into the same file, makes the same part again.
  wizard = await openWizard(setup)
  await wizard.getByLabel('Or continue with').selectOption({ label: 'as1-oc-214.stp' })
  await expect(wizard.getByRole('tree', { name: 'Import tree' })).toBeVisible({ timeout: 30_000 })
  await expect(parts.getByRole('listitem')).toHaveCount(1)
  await wizard.locator('input[type=file][accept*=".json"]').setInputFiles(configPath)
  const again = parts.getByRole('listitem').filter({ has: page.getByLabel('Name of nut (1)') })
  await expect(again).toContainText('9 components')
  // Both parts hold the same components: the wizard says so.
  await expect(wizard.getByRole('list', { name: 'Duplicate components' })).toContainText(
    'Component "plate" appears in 2 part(s) (2 occurrence(s) in total).',
  )
  await setup.shot('configuration-imported')
  // Text that is not JSON is only logged: no part, no toast.
  const notJson = testInfo.outputPath('broken-config.json')
  writeFileSync(notJson, '{ not json')
  await wizard.locator('input[type=file][accept*=".json"]').setInputFiles(notJson)
  await expect(parts.getByRole('listitem')).toHaveCount(2)
  await expect(page.locator('.toast--error')).toHaveCount(0)
})

/** Pixels of the settled 3D view within 40 per channel of `rgb`. */
async function pixelsNear(page: Page, rgb: [number, number, number]): Promise<number> {
  const canvas = page.locator('canvas.viewport__canvas')
  let previous = await canvas.screenshot()
  for (let attempt = 0; attempt < 8; attempt++) {
    await page.waitForTimeout(250)
    const next = await canvas.screenshot()
    if (next.equals(previous)) break
    previous = next
  }
  return page.evaluate(
    async ({ png, rgb }) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0))
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
      const context = canvas.getContext('2d')!
      context.drawImage(bitmap, 0, 0)
      const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data
      let count = 0
      for (let i = 0; i < data.length; i += 4)
        if (
          Math.abs(data[i]! - rgb[0]) <= 40 &&
          Math.abs(data[i + 1]! - rgb[1]) <= 40 &&
          Math.abs(data[i + 2]! - rgb[2]) <= 40
        )
          count++
      return count
    },
    { png: previous.toString('base64'), rgb },
  )
}

/** The defect marker's colour (engine/render/setup/defectMarker.ts DEFECT_MARKER_COLOUR). */
const MARKER_RGB: [number, number, number] = [0x1c, 0x7e, 0xd6]

test('Mesh Check lists the holes and non-manifold edges of a holed STL and zooms to one', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000)
  const simulationId = await newSimulation(request, 'Mesh check e2e')
  const file = writeHoledBoxStl(testInfo.outputPath())
  await new LoginPage(page).loginAs('manager')
  const setup = new SetupPage(page, testInfo)
  await page.goto(`/simulation/${simulationId}/preprocessor`)
  await setup.expectInitialized()
  await setup.addStlSolid(file, 'm')
  await expect(setup.explorer.getByText('holed-box', { exact: true })).toBeVisible()
  await setup.expectInitialized()
  await setup.shot('holed-box')

  const meshHealth = page.getByRole('button', { name: 'Mesh health' })
  await expect(meshHealth).toHaveAttribute('aria-pressed', 'false')
  const ringsBefore = await pixelsNear(page, MARKER_RGB)

  await page.getByRole('button', { name: 'Mesh check' }).click()
  const dialog = page.getByRole('dialog', { name: 'Mesh Check' })
  await expect(dialog.getByRole('heading', { name: 'Holes (2)' })).toBeVisible()
  await expect(dialog.getByRole('heading', { name: 'Non-Manifold (1)' })).toBeVisible()
  const holes = dialog.getByRole('list', { name: 'Holes' }).getByRole('listitem')
  await expect(holes).toHaveCount(2)
  await expect(holes.nth(1)).toContainText('holed-box: Hole 2')
  await expect(holes.nth(1)).toContainText('0.283 m')
  const edges = dialog.getByRole('list', { name: 'Non-Manifold' }).getByRole('listitem')
  await expect(edges).toHaveText([/holed-box: Non-manifold edge 1\s*0\.2 m\s*Zoom/])
  await setup.shot('mesh-check')

  // Zoom: the dialog closes, mesh-health mode is on, the defect is ringed in the view.
  await dialog.getByRole('button', { name: 'Zoom to holed-box: Non-manifold edge 1' }).click()
  await expect(dialog).toBeHidden()
  await expect(meshHealth).toHaveAttribute('aria-pressed', 'true')
  await expect
    .poll(() => pixelsNear(page, MARKER_RGB), { timeout: 15_000 })
    .toBeGreaterThan(ringsBefore + 100)
  const ringed = await pixelsNear(page, MARKER_RGB)
  await setup.shot('zoomed-to-defect')

  // The dialog marks the defect the view shows; mesh-health mode off hides the rings.
  await page.getByRole('button', { name: 'Mesh check' }).click()
  await expect(edges.first()).toHaveAttribute('aria-current', 'true')
  await expect(holes.first()).not.toHaveAttribute('aria-current', 'true')
  await page.keyboard.press('Escape')
  await meshHealth.click()
  await expect(meshHealth).toHaveAttribute('aria-pressed', 'false')
  // Same camera, rings hidden: the marker's colour leaves the view.
  await expect
    .poll(() => pixelsNear(page, MARKER_RGB), { timeout: 15_000 })
    .toBeLessThan(ringed - 100)
})
