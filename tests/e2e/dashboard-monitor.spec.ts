import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'

/*
 * The Monitor dashboard (issue 14 item 1): a clone of the seeded dam break (coarsened so the run
 * takes about a minute) runs while its default view's graphs fill from the run's log, polled every
 * 10 s; then a graph, a note and a view made from a template.
 */

async function accessToken(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('dive.auth') ?? '{}') as { accessToken: string })
        .accessToken,
  )
}

/** A coarse clone of the demo dam break, so the demo itself stays untouched for other specs. */
async function cloneDemo(request: APIRequestContext, token: string, name: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` }
  const projects = (await (
    await request.get('/api/projects?pageLimit=30', { headers })
  ).json()) as {
    results: { simulations: { id: number; name: string }[] }[]
  }
  const demo = projects.results.flatMap((p) => p.simulations).find((s) => s.name === 'Dam break')
  if (!demo) throw new Error('the demo dam break is missing')
  const clone = await request.post(`/api/simulations/${demo.id}`, { headers })
  expect(clone.status()).toBe(201)
  const id = ((await clone.json()) as { id: number }).id
  const renamed = await request.put(`/api/simulations/${id}`, {
    headers,
    data: {
      name,
      settings: { particleDiameter: 0.02, endTime: 0.3, outputTimeInterval: 0.03 },
    },
  })
  expect(renamed.status()).toBe(200)
  return id
}

/** No critical or serious axe-core violation in the dashboard and its dialogs. */
async function expectNoSeriousAxeViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(
    serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
}

/** Points each graph tile draws (its data-points), by tile title. */
async function graphPoints(page: Page, title: string): Promise<number> {
  const tile = page.getByRole('region', { name: title, exact: true })
  const value = await tile.locator('.dashboard-graph').getAttribute('data-points')
  return Number(value ?? 0)
}

test('a running simulation fills its dashboard graphs while it runs', async ({ page, request }) => {
  test.setTimeout(180_000)
  await new LoginPage(page).loginAs('manager')
  const token = await accessToken(page)
  const id = await cloneDemo(request, token, 'Dashboard run')
  await page.goto(`/simulation/${id}/dashboard`)

  for (const title of ['Details', 'Progress', 'Budget', 'Variables', 'Jobs', 'Note', 'Image'])
    await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible()
  for (const title of ['Particles', 'Runtime per simulated second', 'Time step'])
    await expect(page.getByRole('region', { name: title, exact: true })).toContainText(
      'No data yet: the graph fills while the simulation runs.',
    )

  const header = page.locator('.sim-header')
  await header.getByRole('button', { name: 'Run', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Run simulation' })
  await dialog.getByRole('button', { name: 'Next' }).click()
  await dialog.getByRole('button', { name: 'Start' }).click()
  await expect(dialog).toContainText('The simulation is launching!')
  await dialog.getByRole('button', { name: 'Done' }).click()

  // Points appear while it runs, and more at the next 10 s refresh, still running.
  await expect.poll(() => graphPoints(page, 'Particles'), { timeout: 60_000 }).toBeGreaterThan(0)
  const first = await graphPoints(page, 'Time step')
  await expect(header.getByRole('button', { name: 'Stop' })).toBeVisible()
  await expect
    .poll(() => graphPoints(page, 'Time step'), { timeout: 25_000 })
    .toBeGreaterThan(first)
  // Tiles take their new points one per task: the next tile follows within moments.
  await expect
    .poll(() => graphPoints(page, 'Runtime per simulated second'), { timeout: 10_000 })
    .toBeGreaterThan(0)
  const progress = page
    .getByRole('region', { name: 'Progress', exact: true })
    .getByRole('progressbar', { name: 'Simulation progress' })
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThan(0)

  const stopped = await request.delete(`/api/simulations/${id}/jobs`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(stopped.status()).toBeLessThan(300)
})

test('adds a graph and a note, and a view from a template', async ({ page, request }) => {
  await new LoginPage(page).loginAs('manager')
  const token = await accessToken(page)
  const id = await cloneDemo(request, token, 'Dashboard layout')
  await page.goto(`/simulation/${id}/dashboard`)
  await expect(page.getByRole('region', { name: 'Particles', exact: true })).toBeVisible()

  await expectNoSeriousAxeViolations(page, '.dashboard')

  // Add Graph: Add is disabled until a graph is chosen.
  await page.getByRole('button', { name: 'Add graph' }).click()
  const addGraph = page.getByRole('dialog', { name: 'Add Graph' })
  await expectNoSeriousAxeViolations(page, '[role="dialog"]')
  await expect(addGraph.getByText('Choose the graph')).toBeVisible()
  await expect(addGraph.getByRole('button', { name: 'Add' })).toBeDisabled()
  await addGraph.getByRole('radio', { name: 'Time step' }).check()
  await addGraph.getByRole('button', { name: 'Add' }).click()
  await expect(addGraph).toBeHidden()
  await expect(page.getByRole('region', { name: 'Time step', exact: true })).toHaveCount(2)

  // A note, kept after a reload.
  const note = page.getByRole('region', { name: 'Note', exact: true })
  await note
    .getByRole('textbox', { name: 'Note' })
    .fill('Box hit at 0.4 s: check the pressure sensor.')
  await note.getByRole('button', { name: 'Save note' }).click()
  await expect(note.getByRole('button', { name: 'Save note' })).toBeDisabled()
  await page.reload()
  await expect(
    page.getByRole('region', { name: 'Note', exact: true }).getByRole('textbox', { name: 'Note' }),
  ).toHaveValue('Box hit at 0.4 s: check the pressure sensor.')

  // Save the view as a template; a taken name is refused with the spec's tooltip.
  await page.getByRole('button', { name: 'Save as template' }).click()
  const saveTemplate = page.getByRole('dialog', { name: 'Save view as template' })
  await saveTemplate.getByLabel('Name').fill('Four graphs')
  await saveTemplate.getByRole('button', { name: 'Save template' }).click()
  await expect(saveTemplate).toBeHidden()
  await page.getByRole('button', { name: 'Save as template' }).click()
  await page
    .getByRole('dialog', { name: 'Save view as template' })
    .getByLabel('Name')
    .fill('four graphs')
  await expect(
    page.getByRole('dialog', { name: 'Save view as template' }).getByRole('button', {
      name: 'Save template',
    }),
  ).toHaveAttribute('title', 'Template with entered name already exists.')
  await page.keyboard.press('Escape')

  // A new view from the template has the template's tiles (four graphs, no note text).
  await page.getByRole('button', { name: 'New view' }).click()
  const newView = page.getByRole('dialog', { name: 'New view' })
  await expectNoSeriousAxeViolations(page, '[role="dialog"]')
  await newView.getByLabel('Name').fill('Default')
  await expect(newView.getByRole('button', { name: 'Add view' })).toHaveAttribute(
    'title',
    'View with entered name already exists',
  )
  await newView.getByLabel('Name').fill('From template')
  await newView.getByLabel('Template').selectOption({ label: 'Four graphs' })
  await newView.getByRole('button', { name: 'Add view' }).click()
  await expect(newView).toBeHidden()
  await expect(page.getByLabel('View', { exact: true })).toHaveValue(/\d+/)
  await expect(page.getByRole('option', { name: 'From template' })).toBeAttached()
  await expect(page.getByRole('region', { name: 'Time step', exact: true })).toHaveCount(2)
  await expect(
    page.getByRole('region', { name: 'Note', exact: true }).getByRole('textbox', { name: 'Note' }),
  ).toHaveValue('')
})
