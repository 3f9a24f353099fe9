import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * The Run sidebar (issue 14 item 2) on the Results page of the shared results clone: a statistics
 * calculation cancelled from Jobs Progress through 'Stop computation?', told to the server over the
 * real results session, and the run's History as the solver logged it.
 */

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

test.use({ viewport: { width: 1920, height: 1080 } })

async function openRunSidebar(page: Page) {
  await page.getByRole('button', { name: 'Run sidebar' }).click()
  const sidebar = page.getByRole('complementary', { name: 'Run sidebar' })
  await expect(sidebar).toBeVisible()
  return sidebar
}

test('a statistics calculation is cancelled from Jobs Progress', async ({ page }) => {
  const sentTypes: string[] = []
  // Between page and server: hold the answers of the range request so the calculation stays running.
  await page.routeWebSocket('**/ws/results', (client) => {
    const server = client.connectToServer()
    let heldRequestId: number | null = null
    client.onMessage((message) => {
      if (typeof message === 'string') {
        const frame = JSON.parse(message) as { type: string; requestId: number; mode?: string }
        sentTypes.push(frame.type)
        if (frame.type === 'stats.calc' && frame.mode === 'both') heldRequestId = frame.requestId
      }
      server.send(message)
    })
    server.onMessage((message) => {
      if (typeof message === 'string' && heldRequestId !== null) {
        const frame = JSON.parse(message) as { type: string; requestId: number }
        if (frame.type.startsWith('stats.calc') && frame.requestId === heldRequestId) return
      }
      client.send(message)
    })
  })
  await openResults(page, demo)
  const panel = page.getByRole('region', { name: 'Statistics' })
  await expect(panel.getByLabel('Outputs')).toBeVisible({ timeout: 30_000 })
  await panel.getByLabel('Outputs').selectOption('outputRange')
  await panel.getByRole('button', { name: 'Load' }).click()
  await expect(panel.getByRole('progressbar', { name: 'Statistics progress' })).toBeVisible()

  const sidebar = await openRunSidebar(page)
  await expect(sidebar.getByRole('tab', { name: 'Jobs Progress' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  const job = sidebar.getByRole('region', { name: 'Statistics job' })
  await expect(job.locator('.job-widget__state')).toHaveText('Running')
  await job.getByRole('button', { name: 'Stop computation' }).click()
  const dialog = page.getByRole('dialog', { name: 'Stop computation?' })
  await expect(dialog).toContainText('There is no resume option.')
  await dialog.getByRole('button', { name: 'Yes, stop' }).click()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toBeHidden()

  await expect(job.locator('.job-widget__state')).toHaveText('Canceled')
  await expect(job.getByRole('button', { name: 'Stop computation' })).toBeHidden()
  await expect(panel.getByText('Computation cancelled.')).toBeVisible()
  expect(sentTypes).toContain('cancel')
})

test('the History lists the run’s log with levels, without debug lines for a manager', async ({
  page,
}) => {
  await openResults(page, demo)
  const sidebar = await openRunSidebar(page)
  const historyTab = sidebar.getByRole('tab', { name: 'History' })
  // From the keyboard: End jumps to the last tab.
  await sidebar.getByRole('tab', { name: 'Jobs Progress' }).focus()
  await page.keyboard.press('End')
  await expect(historyTab).toHaveAttribute('aria-selected', 'true')
  await expect(historyTab).toBeFocused()

  const history = sidebar.getByRole('list', { name: 'Run history' })
  await expect(history).toBeVisible()
  const entries = history.getByRole('listitem')
  await expect(entries.first()).toContainText('Simulation started.')
  await expect(entries.first().locator('.run-history__level')).toHaveText('INFO')
  await expect(history.getByText('Output 0 written.')).toBeVisible()
  const last = entries.last()
  await expect(last).toContainText('Simulation completed: end time reached.')
  await expect(last.locator('.run-history__level')).toHaveText('SUCCESS')
  await expect(history.locator('.run-history__entry--debug')).toHaveCount(0)

  // Input Validation is the setup's business on the Results page.
  await sidebar.getByRole('tab', { name: 'Input Validation' }).click()
  await expect(sidebar.getByRole('link', { name: 'Go to the setup to validate' })).toHaveAttribute(
    'href',
    `/simulation/${demo.simulationId}/preprocessor`,
  )
})

test('Download with compression: the server packs an archive, which downloads and is deleted', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await openResults(page, demo)
  const sidebar = await openRunSidebar(page)
  await sidebar.getByRole('tab', { name: 'Download' }).click()
  const section = sidebar.getByRole('region', { name: 'Download with compression' })
  await section.getByRole('button', { name: 'Compress simulation' }).click()
  // The job polls every 5 s while it runs; the demo's outputs pack in seconds.
  const download = section.getByRole('button', { name: 'Download archive' })
  await expect(download).toBeVisible({ timeout: 30_000 })
  await expect(section.locator('.run-sidebar__archive')).toContainText('.tar.gz')
  await expect(section.locator('.run-sidebar__archive')).toContainText('before compression')
  // The tab with its new section passes axe-core (no critical or serious violation).
  const axe = await new AxeBuilder({ page }).include('.run-sidebar').analyze()
  expect(
    axe.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])

  const saving = page.waitForEvent('download')
  await download.click()
  const file = await saving
  expect(file.suggestedFilename()).toMatch(/\.tar\.gz$/)
  const stream = await file.createReadStream()
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  const bytes = Buffer.concat(chunks)
  // gzip's magic number, and more than the two tar end blocks inside.
  expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b])
  expect(bytes.length).toBeGreaterThan(1024)

  // Jobs Progress shows the finished job too.
  await sidebar.getByRole('tab', { name: 'Jobs Progress' }).click()
  const job = sidebar.getByRole('region', { name: 'Compression job' })
  await expect(job.locator('.job-widget__state')).toHaveText('Completed')

  await sidebar.getByRole('tab', { name: 'Download' }).click()
  await section.getByRole('button', { name: 'Delete archive' }).click()
  await expect(section.getByRole('button', { name: 'Compress simulation' })).toBeVisible()
  await expect(download).toBeHidden()
})
