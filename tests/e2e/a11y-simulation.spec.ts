import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { DEMO_PASSWORD, USERS } from './pages/LoginPage.ts'
import { runCheck, type A11yCheck, type GateIds } from './support/a11yGate.ts'
import { AS1_STEP, writeHoledBoxStl } from './support/cadFixtures.ts'
import { ensureResultsDemo } from './support/resultsDemo.ts'
import { waitForDrawn } from './support/viewPixels.ts'

/*
 * Accessibility gate, part 2 (issue 23): the simulation routes (setup, dashboard/monitor, results)
 * and their dialogs, menus and popups in the open state. Same rules as a11y-pages.spec.ts: one
 * browser page, one login, a fresh load per entry, any critical or serious axe violation fails.
 *
 * ADD YOUR PAGE OR DIALOG: append a row to the table that fits (append only). `path` may name
 * `{demo}` (the seeded Dam break, not started) or `{results}` (the completed results clone of
 * support/resultsDemo.ts). A serious rule may be skipped for one entry only with
 * `skip: [{ rule, owner, why }]`; critical violations can never be skipped.
 *
 * `{own}` is the gate's own clone of the seeded dam break (created in beforeAll): the setup
 * editor's entries add objects to it, so the shared demo the other entries load stays as seeded.
 * `{stop}` is a second clone, started by its entry to open the Stop form and stopped there.
 */

/** Clicks a button (first match, optionally inside `within`) and waits for a dialog named `name`. */
const dialog =
  (button: string | RegExp, name: string | RegExp, within?: string) => async (page: Page) => {
    const scope = within ? page.locator(within) : page
    await scope.getByRole('button', { name: button }).first().click()
    await expect(page.getByRole('dialog', { name })).toBeVisible()
  }

const setupReady = async (page: Page) => {
  await expect(page.locator('.viewport')).toHaveAttribute('data-engine-status', 'ready', {
    timeout: 30_000,
  })
}
const dashboardReady = async (page: Page) => {
  await expect(page.getByRole('region', { name: 'Particles', exact: true })).toBeVisible()
}
const resultsReady = waitForDrawn

const SETUP: A11yCheck[] = [
  { name: 'setup', path: '/simulation/{demo}/preprocessor', ready: setupReady },
  {
    name: 'setup: Run simulation dialog (start form)',
    path: '/simulation/{demo}/preprocessor',
    ready: setupReady,
    open: dialog('Run', 'Run simulation', '.sim-header'),
  },
  {
    name: 'setup: Mesh Check dialog',
    path: '/simulation/{demo}/preprocessor',
    ready: setupReady,
    open: dialog('Mesh check', 'Mesh Check'),
  },
]

/** Picks an entry of the Setup editor's Add menu and waits for its side form's heading. */
const addEntry = (entry: string, heading: string | RegExp) => async (page: Page) => {
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await page.getByRole('menuitem', { name: entry, exact: true }).click()
  await expect(
    page.locator('.setup-side-form').getByRole('heading', { name: heading }).first(),
  ).toBeVisible()
}

/** Picks a part entry of the Add menu and waits for its Add form. */
const addPart = (entry: string) => async (page: Page) => {
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await page.getByRole('menuitem', { name: entry, exact: true }).click()
  await expect(page.getByRole('form', { name: /^Add / })).toBeVisible()
}

const explorer = (page: Page) => page.getByRole('complementary', { name: 'Object explorer' })

/** Opens a part of the gate's clone from the explorer, then one folder of its form. */
const partFolder = (part: string, folder: string) => async (page: Page) => {
  await explorer(page).getByText(part, { exact: true }).first().dblclick()
  await page
    .getByRole('group', { name: 'Part folders' })
    .getByRole('button', { name: folder, exact: true })
    .click()
  await expect(page.locator('.setup-side-form')).toBeVisible()
}

/** The setup editor's forms, menus and dialogs, on the gate's own clone ({own}). */
const SETUP_EDITOR: A11yCheck[] = [
  {
    name: 'setup editor: Add menu',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      await expect(page.getByRole('menu')).toBeVisible()
    },
  },
  {
    name: 'setup editor: add Solid form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addPart('Solid'),
  },
  {
    name: 'setup editor: add Fluid form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addPart('Fluid'),
  },
  {
    name: 'setup editor: add Inlet Outlet form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addPart('Inlet Outlet'),
  },
  {
    name: 'setup editor: Refinement Zone form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addEntry('Refinement Zone', 'Refinement Zone'),
  },
  {
    name: 'setup editor: Air Drag Domain form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addEntry('Air drag domain', 'Air Drag Domain'),
  },
  {
    name: 'setup editor: datatable editor (air velocity table)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await explorer(page).getByRole('button', { name: 'Air Drag Domain', exact: true }).dblclick()
      const form = page.locator('.setup-side-form')
      await form.getByLabel('Air velocity').selectOption('table')
      await form
        .getByRole('button', { name: /^(Create|Edit) table$/ })
        .first()
        .click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'setup editor: Periodic Boundary form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addEntry('Periodic Boundary', 'Periodic Boundary'),
  },
  {
    name: 'setup editor: Physics form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addEntry('Physics', /Physics/),
  },
  {
    name: 'setup editor: Settings form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: addEntry('Settings', /Settings/),
  },
  {
    name: 'setup editor: part form (Geometry)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: partFolder('Tank', 'Geometry'),
  },
  {
    name: 'setup editor: part form (Boundary Conditions)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: partFolder('Tank', 'Boundary Conditions'),
  },
  {
    name: 'setup editor: part form (Initial Conditions)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: partFolder('Water column', 'Initial Conditions'),
  },
  {
    name: 'setup editor: part form (Appearance)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: partFolder('Tank', 'Appearance'),
  },
  {
    name: 'setup editor: part form (Information)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: partFolder('Tank', 'Information'),
  },
  {
    name: 'setup editor: part form (Material)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: partFolder('Water column', 'Material'),
  },
  {
    name: 'setup editor: Motion form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: partFolder('Obstacle', 'Motion'),
  },
  {
    name: 'setup editor: movement dialog',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await partFolder('Obstacle', 'Motion')(page)
      await page.getByRole('button', { name: 'Add movement' }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'setup editor: material form',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await explorer(page).getByText('Water', { exact: true }).first().dblclick()
      await expect(
        page.locator('.setup-side-form').getByRole('button', { name: 'Load Presets' }),
      ).toBeVisible()
    },
  },
  {
    name: 'setup editor: Load Presets dialog',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await explorer(page).getByText('Water', { exact: true }).first().dblclick()
      await page.locator('.setup-side-form').getByRole('button', { name: 'Load Presets' }).click()
      await expect(page.getByRole('dialog', { name: 'Load Presets' })).toBeVisible()
    },
  },
  {
    name: 'setup editor: Sensor (added from the Add menu)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      await page.getByRole('menuitem', { name: 'Sensor', exact: true }).click()
      await expect(page.getByRole('menu')).toBeHidden()
    },
  },
  {
    name: 'setup editor: Volume Clip (added from the Add menu)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      await page.getByRole('menuitem', { name: 'Volume Clip', exact: true }).click()
      await expect(page.getByRole('menu')).toBeHidden()
    },
  },
  {
    name: 'setup editor: Deletion Boundary form (the calculation domain)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await explorer(page)
        .getByRole('button', { name: 'Deletion Boundary', exact: true })
        .dblclick()
      await expect(page.locator('.setup-side-form')).toBeVisible()
    },
  },
]

const DASHBOARD: A11yCheck[] = [
  { name: 'dashboard', path: '/simulation/{demo}/dashboard', ready: dashboardReady },
  {
    name: 'dashboard: Run simulation dialog (start form)',
    path: '/simulation/{demo}/dashboard',
    ready: dashboardReady,
    open: dialog('Run', 'Run simulation', '.sim-header'),
  },
  {
    name: 'dashboard: Add Graph dialog',
    path: '/simulation/{demo}/dashboard',
    ready: dashboardReady,
    open: dialog('Add graph', 'Add Graph'),
  },
  {
    name: 'dashboard: New view dialog',
    path: '/simulation/{demo}/dashboard',
    ready: dashboardReady,
    open: dialog('New view', 'New view'),
  },
]

const RESULTS: A11yCheck[] = [
  { name: 'results', path: '/simulation/{results}/postprocessor', ready: resultsReady },
  {
    name: 'results: Outputs popup',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByRole('button', { name: /^Outputs/ }).click()
      await expect(page.getByRole('list', { name: 'Outputs of the run' })).toBeVisible()
    },
  },
  {
    name: 'results: Dataset menu',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByRole('button', { name: /^Dataset/ }).click()
      await expect(page.getByRole('group', { name: 'Dataset' })).toBeVisible()
    },
  },
  {
    name: 'results: Export dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByTestId('open-export').click()
      await expect(page.getByRole('dialog', { name: 'Export' })).toBeVisible()
    },
  },
  {
    name: 'results: Colour scheme list',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page
        .getByRole('region', { name: 'Colour map' })
        .getByRole('button', { name: 'Colour scheme' })
        .click()
      await expect(page.getByRole('listbox')).toBeVisible()
    },
  },
  {
    name: 'results: Clip dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByRole('button', { name: 'Clip', exact: true }).click()
      await expect(page.getByRole('dialog', { name: 'Clip' })).toBeVisible()
    },
  },
  {
    name: 'results: Add volume clip dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: dialog('Add volume clip', 'Add volume clip'),
  },
  {
    name: 'results: Add sensor dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: dialog('Add sensor', 'Add sensor'),
  },
]

/** Plots the Pressure mean from the Statistics table, so the Charts panel has a dataset. */
const plotPressureMean = async (page: Page) => {
  const statistics = page.getByRole('region', { name: 'Statistics' })
  await expect(statistics.getByLabel('Attribute')).toBeVisible({ timeout: 30_000 })
  await statistics.getByLabel('Attribute').selectOption('pressure')
  await statistics.getByLabel('Outputs').selectOption('outputRange')
  await statistics.getByRole('button', { name: 'Load' }).click()
  const summary = statistics.getByRole('table', { name: 'Statistics summary' })
  await expect(summary).toBeVisible({ timeout: 60_000 })
  await summary.getByRole('button', { name: 'Plot Mean' }).click()
  const restore = page
    .getByRole('region', { name: 'Charts' })
    .getByRole('button', { name: 'Restore charts' })
  if (await restore.isVisible()) await restore.click()
  await expect(
    page.getByRole('region', { name: 'Charts' }).getByRole('list', { name: 'Datasets' }),
  ).toBeVisible()
}

/** Names of the sensor and the clip the edit entries add to the results clone (afterAll deletes them). */
const GATE_SENSOR = 'A11y gate probe'
const GATE_CLIP = 'A11y gate clip'

/** Types a vector of a results dialog, component by component (`Position x (m)` …). */
async function fillVector(page: Page, dialogName: string, label: string, values: string[]) {
  const box = page.getByRole('dialog', { name: dialogName })
  for (const [index, axis] of ['x', 'y', 'z'].entries())
    await box.getByLabel(`${label} ${axis} (m)`).fill(values[index] ?? '0')
}

/** Adds the gate's sensor (or finds it from an earlier entry) and opens its Edit sensor dialog. */
const editSensor = async (page: Page) => {
  const sensors = page.getByRole('region', { name: 'Sensors' })
  const edit = sensors.getByRole('button', { name: `Edit ${GATE_SENSOR}`, exact: true })
  if ((await edit.count()) === 0) {
    await sensors.getByRole('button', { name: 'Add sensor' }).click()
    const add = page.getByRole('dialog', { name: 'Add sensor' })
    await add.getByLabel('Name').fill(GATE_SENSOR)
    await fillVector(page, 'Add sensor', 'Position', ['0.1', '0.05', '0.03'])
    await add.getByRole('button', { name: 'Add' }).click()
    await expect(add).toBeHidden()
  }
  await edit.click()
  await expect(page.getByRole('dialog', { name: 'Edit sensor' })).toBeVisible()
}

/** Adds the gate's volume clip (or finds it) and opens its Edit volume clip dialog. */
const editClip = async (page: Page) => {
  const clips = page.getByRole('region', { name: 'Volume clips' })
  const edit = clips.getByRole('button', { name: `Edit ${GATE_CLIP}`, exact: true })
  if ((await edit.count()) === 0) {
    await clips.getByRole('button', { name: 'Add volume clip' }).click()
    const add = page.getByRole('dialog', { name: 'Add volume clip' })
    await add.getByLabel('Name').fill(GATE_CLIP)
    await fillVector(page, 'Add volume clip', 'Center', ['0.4', '0.05', '0.25'])
    await fillVector(page, 'Add volume clip', 'Dimensions', ['0.2', '0.2', '0.2'])
    await add.getByRole('button', { name: 'Add' }).click()
    await expect(add).toBeHidden()
  }
  await edit.click()
  await expect(page.getByRole('dialog', { name: 'Edit volume clip' })).toBeVisible()
}

/** Deletes what the edit entries added to the shared results clone. */
async function deleteGateObjects(request: APIRequestContext): Promise<void> {
  if (ids.results === undefined) return
  for (const [list, one, name] of [
    ['custom_sensors', 'custom_sensors', GATE_SENSOR],
    ['volume_clips', 'volume_clips', GATE_CLIP],
  ] as const) {
    const reply = await request.get(`/api/simulations/${ids.results}/${list}`, { headers })
    if (!reply.ok()) continue
    const body = (await reply.json()) as unknown
    const rows = (
      Array.isArray(body) ? body : ((body as { results?: unknown[] }).results ?? [])
    ) as {
      id: number
      name: string
    }[]
    for (const row of rows.filter((r) => r.name === name))
      await request.delete(`/api/${one}/${row.id}`, { headers })
  }
}

/** More of the results page, the dashboard and the run: entries added after the first tables. */
const MORE: A11yCheck[] = [
  {
    name: 'results: Solid view mode dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByRole('button', { name: 'Solid view', exact: true }).click()
      await expect(page.getByRole('dialog', { name: /Solid view/ })).toBeVisible()
    },
  },
  {
    name: 'results: Fluid view mode dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByRole('button', { name: 'Fluid view', exact: true }).click()
      await expect(page.getByRole('dialog', { name: /Fluid view/ })).toBeVisible()
    },
  },
  {
    name: 'results: charts with a dataset plotted',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: plotPressureMean,
  },
  {
    name: 'results: Edit dataset dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await plotPressureMean(page)
      await page
        .getByRole('region', { name: 'Charts' })
        .getByRole('button', { name: /^Edit Pressure mean/ })
        .click()
      await expect(page.getByRole('dialog', { name: 'Edit dataset' })).toBeVisible()
    },
  },
  {
    name: 'results: Export chart dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await plotPressureMean(page)
      await page
        .getByRole('region', { name: 'Charts' })
        .getByRole('button', { name: 'Export' })
        .click()
      await expect(page.getByRole('dialog', { name: 'Export chart' })).toBeVisible()
    },
  },
  {
    name: 'results: Load Setup? dialog (leaving for the Setup)',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.locator('.sim-nav').getByRole('link', { name: 'Setup', exact: true }).click()
      await expect(page.getByRole('dialog', { name: 'Load Setup?' })).toBeVisible()
    },
  },
  {
    name: 'results: Edit sensor dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: editSensor,
  },
  {
    name: 'results: Edit volume clip dialog',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: editClip,
  },
  {
    name: 'results: Keyboard shortcuts of the 3D view',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByText('Keyboard shortcuts', { exact: true }).click()
      await expect(
        page.locator('details[open]').filter({ hasText: 'Keyboard shortcuts' }),
      ).toBeVisible()
    },
  },
  {
    name: 'setup: Clip menu of the 3D view',
    path: '/simulation/{demo}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await page.getByRole('button', { name: 'Clip', exact: true }).click()
      await expect(page.getByRole('dialog', { name: /Clip/ })).toBeVisible()
    },
  },
  {
    name: 'setup editor: CAD import wizard (assembly, before a file)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await addPart('Solid')(page)
      await page.getByRole('radio', { name: 'CAD file (STEP)' }).check()
      await page.getByRole('button', { name: 'Open the CAD import wizard' }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'results: Confirm export dialog (no attribute chosen)',
    path: '/simulation/{results}/postprocessor',
    ready: resultsReady,
    open: async (page) => {
      await page.getByTestId('open-export').click()
      const exporting = page.getByRole('dialog', { name: 'Export' })
      // An object and no attribute: the export asks to confirm.
      await exporting.getByRole('region', { name: 'Objects' }).getByLabel('Water').first().check()
      await expect(exporting.getByLabel('All attributes')).not.toBeChecked()
      await exporting.locator('.dialog__footer .button--primary').click()
      await expect(page.getByRole('dialog', { name: 'Confirm export' })).toBeVisible()
    },
  },
  {
    name: 'dashboard: Save view as template dialog',
    path: '/simulation/{demo}/dashboard',
    ready: dashboardReady,
    open: dialog('Save as template', 'Save view as template'),
  },
  {
    name: 'dashboard: Graph settings dialog',
    path: '/simulation/{demo}/dashboard',
    ready: dashboardReady,
    open: async (page) => {
      await page
        .getByRole('button', { name: /^Graph settings of / })
        .first()
        .click()
      await expect(page.getByRole('dialog', { name: /^Graph settings: / })).toBeVisible()
    },
  },
  {
    name: 'setup: Stop simulation form (a running clone)',
    path: '/simulation/{stop}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      const header = page.locator('.sim-header')
      await header.getByRole('button', { name: 'Run', exact: true }).click()
      const start = page.getByRole('dialog', { name: 'Run simulation' })
      await start.getByRole('button', { name: 'Next' }).click()
      await start.getByRole('button', { name: 'Start' }).click()
      await start.getByRole('button', { name: 'Done' }).click()
      await header.getByRole('button', { name: 'Stop', exact: true }).click()
      await expect(page.getByRole('dialog', { name: 'Stop simulation?' })).toBeVisible()
    },
  },
  {
    name: 'setup editor: part form (Initial Conditions) with an initial distribution table',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await partFolder('Water column', 'Initial Conditions')(page)
      const form = page.locator('.setup-side-form')
      // the switch shows the saved part (an optimistic edit a moment after the click), so wait for
      // it rather than check(), which asserts the state at once and failed under load
      const tableSwitch = form.getByLabel('Initial distribution from a table')
      await tableSwitch.click()
      await expect(tableSwitch).toBeChecked()
      await expect(form.getByRole('button', { name: 'Upload CSV' })).toBeVisible()
    },
  },
  {
    name: 'setup editor: CAD import wizard, step 2 (Tessellation)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await addPart('Solid')(page)
      await page.getByRole('radio', { name: 'CAD file (STEP)' }).check()
      await page.getByRole('button', { name: 'Open the CAD import wizard' }).click()
      const wizard = page.getByRole('dialog', { name: 'Import CAD Assembly' })
      await wizard.locator('input[type=file][accept*=".stp"]').setInputFiles(AS1_STEP)
      const tree = wizard.getByRole('tree', { name: 'Import tree' })
      await expect(tree).toBeVisible({ timeout: 45_000 })
      await tree.getByRole('treeitem', { name: 'plate' }).dblclick()
      await wizard.getByRole('button', { name: 'Next' }).click()
      await expect(wizard.getByRole('heading', { name: 'Parts to Tessellate' })).toBeVisible()
    },
  },
  {
    name: 'setup: Mesh Check dialog listing defects (a holed STL part)',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await addPart('Solid')(page)
      const form = page.locator('.setup-side-form')
      await form.getByLabel('File unit').selectOption('m')
      await form.locator('input[type=file]').setInputFiles(writeHoledBoxStl())
      await form.getByRole('button', { name: 'Add part', exact: true }).click()
      await expect(explorer(page).getByText('holed-box', { exact: true })).toBeVisible()
      await page.getByRole('button', { name: 'Mesh check' }).click()
      const dialog = page.getByRole('dialog', { name: 'Mesh Check' })
      await expect(dialog.getByRole('list', { name: 'Holes' })).toContainText('holed-box: Hole 1')
    },
  },
  {
    // last: it turns the gate clone's water column into a pointcloud part
    name: 'setup editor: part form (Geometry) with a point cloud source',
    path: '/simulation/{own}/preprocessor',
    ready: setupReady,
    open: async (page) => {
      await partFolder('Water column', 'Geometry')(page)
      const form = page.locator('.setup-side-form')
      await form.getByRole('button', { name: 'Take particles from another simulation' }).click()
      await expect(form.getByRole('group', { name: 'Point cloud source' })).toBeVisible()
    },
  },
]

// ── the run (one browser page, one login) ───────────────────────────────────────────────────────

test.use({ trace: 'off' })

let shared: Page
let loggedIn = false
const ids: GateIds = {}

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(200_000)
  const demo = await ensureResultsDemo(request)
  ids.results = demo.simulationId
  const reply = await request.get('/api/projects?pageLimit=30', { headers: demo.headers })
  const body = (await reply.json()) as {
    results: { simulations: { id: number; name: string }[] }[]
  }
  const seeded = body.results.flatMap((p) => p.simulations).find((s) => s.name === 'Dam break')
  if (!seeded) throw new Error('the seeded demo dam break is missing')
  ids.demo = seeded.id
  ids.own = await ownClone(request, demo.headers, seeded.id, GATE_CLONE)
  ids.stop = await ownClone(request, demo.headers, seeded.id, STOP_CLONE)
  headers = demo.headers
  // AxeBuilder needs a page of a context the test made (not browser.newPage()).
  shared = await (await browser.newContext()).newPage()
})

test.afterAll(async ({ request }) => {
  // The Stop form's entry leaves its clone running: stop it (a refusal when it is not running).
  if (ids.stop !== undefined) await request.delete(`/api/simulations/${ids.stop}/jobs`, { headers })
  await deleteGateObjects(request)
  await shared.context().close()
})

/** Name of the gate's own clone of the demo (the setup editor's entries change it). */
const GATE_CLONE = 'Dam break (a11y gate)'
/** Name of the clone the Stop form's entry starts (a second run of the gate reuses it, stopped). */
const STOP_CLONE = 'Dam break (a11y gate stop)'
let headers: { authorization: string } = { authorization: '' }

/** The id of the clone named `name` of the seeded demo, cloned through the API on first use. */
async function ownClone(
  request: APIRequestContext,
  headers: { authorization: string },
  demoId: number,
  name: string,
): Promise<number> {
  const reply = await request.get('/api/projects?pageLimit=30', { headers })
  const body = (await reply.json()) as {
    results: { simulations: { id: number; name: string }[] }[]
  }
  const found = body.results.flatMap((p) => p.simulations).find((s) => s.name === name)
  if (found) return found.id
  const cloned = await request.post(`/api/simulations/${demoId}`, { headers })
  expect(cloned.status(), await cloned.text()).toBe(201)
  const id = ((await cloned.json()) as { id: number }).id
  const renamed = await request.put(`/api/simulations/${id}`, { headers, data: { name } })
  expect(renamed.status(), await renamed.text()).toBe(200)
  return id
}

async function run(check: A11yCheck): Promise<void> {
  if (!loggedIn) {
    await shared.goto('/login')
    await shared.getByLabel('Email').fill(USERS.manager)
    await shared.getByLabel('Password').fill(DEMO_PASSWORD)
    await shared.getByRole('button', { name: 'Log in' }).click()
    await expect(shared).toHaveURL(/\/projects/)
    loggedIn = true
  }
  await runCheck(shared, check, ids)
}

for (const check of [...SETUP, ...SETUP_EDITOR, ...DASHBOARD, ...RESULTS, ...MORE])
  test(check.name, () => run(check))
