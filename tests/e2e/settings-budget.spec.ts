import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { LoginPage } from './pages/LoginPage.ts'

/*
 * The budget of a finished run: a clone of the seeded dam break (a clone, since other specs run the
 * demo itself and lock its setup; coarsened through the API so it stays short) runs to completion,
 * then the manager finds its transaction, its consumption in the history and the fewer credits on
 * /settings/budget, downloads credit_transactions.csv and parses it; a contributor sees the same
 * transactions without the User column.
 */

const SHOTS = process.env.SETTINGS_SHOTS_DIR

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter(
    (v) => v.impact === 'critical' || v.impact === 'serious',
  )
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([])
}

async function bearer(page: Page): Promise<{ authorization: string }> {
  const token = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('dive.auth') ?? '{}') as { accessToken: string })
        .accessToken,
  )
  return { authorization: `Bearer ${token}` }
}

/** The name of the clone this spec runs. */
const RUN_NAME = 'Budget dam break'

/**
 * Clones the demo dam break, coarse, and runs the clone to completion through the API; returns the
 * credits it used.
 */
async function finishDemoRun(request: APIRequestContext, headers: { authorization: string }) {
  const projects = (await (
    await request.get('/api/projects?pageLimit=30', { headers })
  ).json()) as { results: { simulations: { id: number; name: string }[] }[] }
  const simulation = projects.results
    .flatMap((project) => project.simulations)
    .find((s) => s.name === 'Dam break')
  if (!simulation) throw new Error('the demo dam break is missing')
  const cloned = await request.post(`/api/simulations/${simulation.id}`, { headers })
  expect(cloned.status(), await cloned.text()).toBe(201)
  const id = ((await cloned.json()) as { id: number }).id
  const coarse = await request.put(`/api/simulations/${id}`, {
    headers,
    data: {
      name: RUN_NAME,
      settings: { particleDiameter: 0.02, endTime: 0.1, outputTimeInterval: 0.015 },
    },
  })
  expect(coarse.status(), await coarse.text()).toBe(200)
  const started = await request.post(`/api/simulations/${id}/jobs`, {
    headers,
    data: { cores: 1, solver_id: 1 },
  })
  expect(started.status(), await started.text()).toBe(201)
  let state = ''
  let creditsConsumed = 0
  await expect
    .poll(
      async () => {
        const body = (await (await request.get(`/api/simulations/${id}`, { headers })).json()) as {
          state: string
          creditsConsumed: number
        }
        state = body.state
        creditsConsumed = body.creditsConsumed
        return state
      },
      { timeout: 150_000, intervals: [1000] },
    )
    .toBe('completed')
  return creditsConsumed
}

test('a manager sees the budget of a finished run and downloads the transactions as CSV', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000)
  await new LoginPage(page).loginAs('manager')
  const headers = await bearer(page)
  const before = (await (await request.get('/api/credits/budget', { headers })).json()) as {
    credits: number
  }
  const consumed = await finishDemoRun(request, headers)
  expect(consumed).toBeGreaterThan(0)

  await page.goto('/settings/budget')
  await expect(page.getByRole('heading', { name: 'Budget', level: 1 })).toBeVisible()
  const left = (before.credits - consumed).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
  await expect(page.getByText(`${left} credits`, { exact: true })).toBeVisible()
  const table = page.getByRole('table', { name: 'Credit transactions' })
  const row = table.getByRole('row', { name: new RegExp(RUN_NAME) })
  await expect(row).toBeVisible()
  await expect(row).toContainText('Simulation')
  await expect(row).toContainText('Mia Manager')
  await expect(row).toContainText(`-${consumed.toFixed(2)}`)
  await expect(page.getByRole('heading', { name: 'Credit history by team member' })).toBeVisible()
  await expect(page.locator('.budget-chart canvas')).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'budget.png'), fullPage: true })

  // Keyboard: sort by Value from the header button.
  await table.getByRole('button', { name: 'Value' }).focus()
  await page.keyboard.press('Enter')
  await expect(table.getByRole('columnheader', { name: /Value/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  )

  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download as CSV' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('credit_transactions.csv')
  const lines = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\r\n')
  expect(lines[0]).toBe('Transaction,Type,Date,User,Value')
  const cells = lines.find((line) => line.startsWith(`${RUN_NAME},`))?.split(',')
  expect(cells?.[1]).toBe('Simulation')
  expect(cells?.at(-2)).toBe('Mia Manager')
  expect(Number(cells?.at(-1))).toBeCloseTo(-consumed, 2)

  await page.getByLabel('Search transactions').fill('no such run')
  await expect(table.getByText('Try to adjust your search.')).toBeVisible()

  // A contributor sees the transactions without the User column.
  await page.context().clearCookies()
  await page.evaluate(() => localStorage.clear())
  await new LoginPage(page).loginAs('contributor')
  await page.goto('/settings/budget')
  const contributorTable = page.getByRole('table', { name: 'Credit transactions' })
  await expect(contributorTable.getByRole('row', { name: new RegExp(RUN_NAME) })).toBeVisible()
  await expect(contributorTable.getByRole('columnheader', { name: 'User' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Credit history', exact: true })).toBeVisible()
})
