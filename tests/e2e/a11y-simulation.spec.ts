import { expect, test, type Page } from '@playwright/test'
import { DEMO_PASSWORD, USERS } from './pages/LoginPage.ts'
import { runCheck, type A11yCheck, type GateIds } from './support/a11yGate.ts'
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
 * Not covered here: the Stop form (it needs a running simulation; run.spec.ts drives it).
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
  // AxeBuilder needs a page of a context the test made (not browser.newPage()).
  shared = await (await browser.newContext()).newPage()
})

test.afterAll(async () => {
  await shared.context().close()
})

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

for (const check of [...SETUP, ...DASHBOARD, ...RESULTS]) test(check.name, () => run(check))
