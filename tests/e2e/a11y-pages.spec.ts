import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import Sqlite from 'better-sqlite3'
import { DEMO_PASSWORD, USERS } from './pages/LoginPage.ts'
import { runCheck, type A11yCheck, type GateIds } from './support/a11yGate.ts'

/*
 * Accessibility gate, part 1 (issue 23): the global routes, the menu bar's menus, the projects
 * page with its dialogs and menus, and the settings pages with theirs. One browser page and one
 * login for the whole file; every entry is a fresh load of its route, then axe-core: any critical
 * or serious violation fails the entry, naming it, the rule and the nodes. The simulation routes
 * (setup, dashboard, results) are in a11y-simulation.spec.ts.
 *
 * ADD YOUR PAGE OR DIALOG: append a row to the table that fits (append only). `path` may name
 * `{demo}` (the seeded Dam break's simulation id) or `{demoProject}` (its project id). `ready`
 * waits for what the page draws; `open` opens the dialog, menu or popup through the UI as a user
 * would and waits until it shows. A serious rule may be skipped for one entry only with
 * `skip: [{ rule, owner, why }]`; critical violations can never be skipped.
 */

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

/** Opens a menu-bar or row menu by its button and waits for its menu. */
const menu = (button: string | RegExp) => async (page: Page) => {
  await page.getByRole('button', { name: button }).first().click()
  await expect(page.getByRole('menu')).toBeVisible()
}

/** Clicks a button (first match) and waits for a dialog named `dialog`. */
const dialog = (button: string | RegExp, name: string | RegExp) => async (page: Page) => {
  await page.getByRole('button', { name: button }).first().click()
  await expect(page.getByRole('dialog', { name })).toBeVisible()
}

/** Picks an entry of the Dam break row's Actions menu and waits for the dialog it opens. */
const simulationAction = (item: string, name: string | RegExp) => async (page: Page) => {
  await page.getByRole('button', { name: 'Actions for Dam break', exact: true }).click()
  await page.getByRole('menuitem', { name: item, exact: true }).click()
  await expect(page.getByRole('dialog', { name })).toBeVisible()
}

/** Pages a logged-out visitor sees. */
const LOGGED_OUT: A11yCheck[] = [
  { name: 'login', path: '/login', ready: heading('Log in') },
  { name: 'set-password', path: '/set-password?token=gate', ready: heading('Set your password') },
  { name: 'unauthorized', path: '/unauthorized', ready: heading(/.+/) },
]

/** Pages and popups of a logged-in manager. */
const LOGGED_IN: A11yCheck[] = [
  { name: 'projects', path: '/projects', ready: heading('Projects') },
  {
    name: 'menu bar: Help menu',
    path: '/projects',
    ready: heading('Projects'),
    open: menu('Help'),
  },
  {
    name: 'menu bar: profile menu',
    path: '/projects',
    ready: heading('Projects'),
    open: menu(/Mia Manager/),
  },
  {
    name: "menu bar: What's new dialog",
    path: '/projects',
    ready: heading('Projects'),
    open: async (page) => {
      await menu('Help')(page)
      await page.getByRole('menuitem', { name: /What's new/ }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'projects: New project dialog',
    path: '/projects',
    ready: heading('Projects'),
    open: dialog('New project', 'New project'),
  },
  {
    name: 'projects: Filter dialog',
    path: '/projects',
    ready: heading('Projects'),
    open: async (page) => {
      await page.getByRole('button', { name: 'Filter' }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'projects: New Simulation dialog',
    path: '/projects',
    ready: heading('Projects'),
    open: async (page) => {
      await page
        .getByRole('article', { name: 'Project Demo project' })
        .getByRole('button', { name: 'New Simulation' })
        .click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'projects: Edit project dialog',
    path: '/projects',
    ready: heading('Projects'),
    open: async (page) => {
      await page
        .getByRole('article', { name: 'Project Demo project' })
        .getByRole('button', { name: 'Edit' })
        .click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'projects: Delete project confirmation',
    path: '/projects',
    ready: heading('Projects'),
    open: async (page) => {
      await page
        .getByRole('article', { name: 'Project Demo project' })
        .getByRole('button', { name: 'Delete' })
        .click()
      await expect(page.getByRole('dialog')).toBeVisible()
    },
  },
  {
    name: 'projects: simulation Actions menu',
    path: '/projects',
    ready: heading('Projects'),
    open: menu('Actions for Dam break'),
  },
  {
    name: 'projects: Rename simulation dialog',
    path: '/projects',
    ready: heading('Projects'),
    open: simulationAction('Rename', /.+/),
  },
  {
    name: 'projects: Move simulation dialog',
    path: '/projects',
    ready: heading('Projects'),
    open: simulationAction('Move', /.+/),
  },
  {
    name: 'projects: Delete simulation confirmation',
    path: '/projects',
    ready: heading('Projects'),
    open: simulationAction('Delete', /.+/),
  },
  { name: 'settings overview', path: '/settings', ready: heading('Overview') },
  { name: 'settings profile', path: '/settings/profile', ready: heading('Profile') },
  {
    name: 'settings profile: Add authenticator dialog',
    path: '/settings/profile',
    ready: heading('Profile'),
    open: dialog('Add authenticator', 'Add authenticator'),
  },
  { name: 'settings budget', path: '/settings/budget', ready: heading('Budget') },
  { name: 'settings team', path: '/settings/team', ready: heading('Team') },
  {
    name: 'settings team: New User dialog',
    path: '/settings/team',
    ready: heading('Team'),
    open: dialog('New User', /.+/),
  },
  {
    name: 'settings team: Edit user dialog',
    path: '/settings/team',
    ready: heading('Team'),
    open: dialog('Edit Carl Contributor', /.+/),
  },
  {
    name: 'settings team: Delete user confirmation',
    path: '/settings/team',
    ready: heading('Team'),
    open: dialog('Delete Carl Contributor', /.+/),
  },
  { name: 'settings subscription', path: '/settings/subscription', ready: heading(/.+/) },
  { name: 'machines', path: '/machines', ready: heading('Machines') },
  { name: 'not found', path: '/no-such-page', ready: heading(/empty here/) },
  {
    name: 'simulation not found',
    path: '/simulation/{demo}/nothing',
    ready: heading(/empty here/),
  },
  {
    name: 'projects: Upload simulation dialog (organization with upload_preprocessing)',
    path: '/projects',
    ready: heading('Projects'),
    open: async (page) => {
      // The Actions menu offers Upload only to an organization with the feature, which only the
      // provider sets (no route): the gate sets it in the e2e server's database, and afterAll
      // gives the organization its features back.
      setManagerFeatures((features) => [...features, 'upload_preprocessing'])
      await page.reload()
      await heading('Projects')(page)
      await simulationAction('Upload', /.+/)(page)
    },
  },
  {
    name: 'machines: Launch VM dialog',
    path: '/machines',
    ready: heading('Machines'),
    open: dialog('Launch VM', 'Launch VM'),
  },
  {
    name: 'machines: Access storage dialog (Download tab)',
    path: '/machines',
    ready: heading('Machines'),
    open: dialog('Access storage', 'Access storage'),
  },
  {
    name: 'machines: Access storage dialog (Upload tab)',
    path: '/machines',
    ready: heading('Machines'),
    open: async (page) => {
      await dialog('Access storage', 'Access storage')(page)
      await page.getByRole('tab', { name: 'Upload' }).click()
      await expect(page.getByRole('tabpanel', { name: 'Upload' })).toBeVisible()
    },
  },
  {
    name: 'machine (no such VM: the window reads not found)',
    path: '/machines/999999',
    ready: async (page) => {
      await heading('Machine')(page)
      await expect(page.getByRole('region', { name: 'Remote desktop' })).toHaveAttribute(
        'data-state',
        'notFound',
      )
    },
  },
  // Last: the contributor's entries log in from the logged-out page.
  { name: 'logout', path: '/logout', ready: heading(/logged out|Logging out/) },
]

/** Pages of a contributor: the forbidden page. */
const CONTRIBUTOR: A11yCheck[] = [
  { name: 'forbidden', path: '/settings/team', ready: heading('What are you doing here?') },
]

// ── the run (one browser page, one login per user) ──────────────────────────────────────────────

// The shared page lives across tests: a per-test trace of it is no use, and costs time.
test.use({ trace: 'off' })

let shared: Page
const ids: GateIds = {}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/projects/)
}

test.beforeAll(async ({ browser, request }) => {
  // AxeBuilder needs a page of a context the test made (not browser.newPage()).
  shared = await (await browser.newContext()).newPage()
  const login = await request.post('/api/auth/login', {
    data: { email: USERS.manager, password: DEMO_PASSWORD },
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const reply = await request.get('/api/projects?pageLimit=30', {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  const body = (await reply.json()) as {
    results: { id: number; simulations: { id: number; name: string }[] }[]
  }
  for (const project of body.results)
    for (const simulation of project.simulations)
      if (simulation.name === 'Dam break') {
        ids.demo = simulation.id
        ids.demoProject = project.id
      }
})

test.afterAll(async () => {
  if (savedFeatures !== null) setManagerFeatures(() => savedFeatures ?? [])
  await shared.context().close()
})

/** The manager organization's features before the gate changed them (null: unchanged). */
let savedFeatures: string[] | null = null

/** Rewrites the features of the manager's organization in the e2e server's SQLite database. */
function setManagerFeatures(change: (features: string[]) => string[]): void {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('E2E_DATA_DIR is unset (playwright.config.ts sets it)')
  const db = new Sqlite(join(dataDir, 'dive.sqlite'))
  try {
    const row = db
      .prepare(
        'SELECT o.id, o.features FROM organizations o JOIN users u ON u.organization_id = o.id WHERE u.email = ?',
      )
      .get(USERS.manager) as { id: number; features: string }
    const features = JSON.parse(row.features) as string[]
    savedFeatures ??= features
    db.prepare('UPDATE organizations SET features = ? WHERE id = ?').run(
      JSON.stringify(change(features)),
      row.id,
    )
  } finally {
    db.close()
  }
}

/** Who the shared page is logged in as (a failed test restarts the worker, and this with it). */
let loggedInAs: keyof typeof USERS | null = null

async function runAs(user: keyof typeof USERS | null, check: A11yCheck): Promise<void> {
  if (user !== null && loggedInAs !== user) {
    await logIn(shared, USERS[user])
    loggedInAs = user
  }
  await runCheck(shared, check, ids)
  if (check.path === '/logout') loggedInAs = null
}

for (const check of LOGGED_OUT) test(check.name, async () => runAs(null, check))
for (const check of LOGGED_IN) test(check.name, async () => runAs('manager', check))
for (const check of CONTRIBUTOR) test(check.name, async () => runAs('contributor', check))
