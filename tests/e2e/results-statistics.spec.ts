import { expect, test, type Page } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * The Statistics table on the Results page of the shared results clone, through the real results
 * session (/ws/results), the server's statistics over the solver's outputs, and the charts.
 */

let demo: ResultsDemo
let lastOutputNo = 0

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
  const reply = await request.get(`/api/simulations/${demo.simulationId}/output_manifests`, {
    headers: demo.headers,
  })
  expect(reply.status()).toBe(200)
  const outputs = ((await reply.json()) as { outputs: { outputNo: number }[] }).outputs
  lastOutputNo = Math.max(...outputs.map((o) => o.outputNo))
  expect(lastOutputNo).toBeGreaterThan(2)
})

test.use({ viewport: { width: 1920, height: 1080 } })

const NUMBER = /^-?\d+(\.\d+)?(e-?\d+)?$/

function statisticsPanel(page: Page) {
  return page.getByRole('region', { name: 'Statistics' })
}

test('current output: pressure statistics of the shown output appear without a Load', async ({
  page,
}) => {
  await openResults(page, demo)
  const panel = statisticsPanel(page)
  await expect(panel.getByLabel('Attribute')).toHaveValue('pressure')
  const table = panel.getByRole('table', { name: 'Statistics results' })
  await expect(table).toBeVisible({ timeout: 30_000 })
  await expect(table.getByRole('columnheader', { name: 'Pressure (Pa)' })).toBeVisible()
  for (const operation of ['Mean', 'Min', 'Max']) {
    const row = table.getByRole('row', { name: new RegExp(`^${operation}`) })
    await expect(row.getByRole('cell')).toHaveText(NUMBER)
  }
})

test('output range 0..last: Load shows a value per output, Plot draws it in the chart', async ({
  page,
}) => {
  await openResults(page, demo)
  const panel = statisticsPanel(page)
  await expect(panel.getByLabel('Attribute')).toBeVisible({ timeout: 30_000 })
  await panel.getByLabel('Attribute').selectOption('pressure')
  await panel.getByLabel('Outputs').selectOption('outputRange')
  await expect(panel.getByText('Click the Load button to view the selected data.')).toBeVisible()

  await panel.getByLabel('End output').fill(String(lastOutputNo + 5))
  await expect(panel.getByText(`The simulation only has ${lastOutputNo} outputs.`)).toBeVisible()
  await expect(panel.getByRole('button', { name: 'Load' })).toBeDisabled()
  await panel.getByLabel('Start output').fill('0')
  await panel.getByLabel('End output').fill(String(lastOutputNo))
  await panel.getByRole('button', { name: 'Load' }).click()

  const perOutput = panel.getByRole('table', { name: 'Statistics per output' })
  await expect(perOutput).toBeVisible({ timeout: 30_000 })
  // A header row and one row per output 0 … last.
  await expect(perOutput.getByRole('row')).toHaveCount(lastOutputNo + 2)
  const lastRow = perOutput.getByRole('row').last()
  await expect(lastRow.getByRole('rowheader')).toHaveText(String(lastOutputNo))
  await expect(lastRow.getByRole('cell').nth(1)).toHaveText(NUMBER)
  const summary = panel.getByRole('table', { name: 'Statistics summary' })
  // Operation, aggregator over the outputs, value, Plot.
  const maxRow = summary.getByRole('row', { name: /^Max/ })
  await expect(maxRow.getByRole('cell').nth(0)).toHaveText('Max')
  await expect(maxRow.getByRole('cell').nth(1)).toHaveText(NUMBER)

  await summary.getByRole('button', { name: 'Plot Mean' }).click()
  const charts = page.getByRole('region', { name: 'Charts' })
  const restore = charts.getByRole('button', { name: 'Restore charts' })
  if (await restore.isVisible()) await restore.click()
  await expect(charts.locator('canvas')).toBeVisible()
  await expect(charts.getByText('Add data from the Statistics table')).toBeHidden()
})

test('a running range calculation can be cancelled: the server is told and the panel says so', async ({
  page,
}) => {
  const sentTypes: string[] = []
  // Between page and server: hold the statistics of the range request so it stays running.
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
  const panel = statisticsPanel(page)
  await expect(panel.getByLabel('Outputs')).toBeVisible({ timeout: 30_000 })
  await panel.getByLabel('Outputs').selectOption('outputRange')
  await panel.getByRole('button', { name: 'Load' }).click()
  await expect(panel.getByRole('progressbar', { name: 'Statistics progress' })).toBeVisible()
  await panel.getByRole('button', { name: 'Cancel' }).click()
  await expect(panel.getByText('Computation cancelled.')).toBeVisible()
  expect(sentTypes).toContain('cancel')
  await expect(panel.getByRole('table', { name: 'Statistics per output' })).toBeHidden()
})

test('a page hidden for 300 s closes the results session and reconnects when shown again', async ({
  page,
}) => {
  let connections = 0
  let closedByPage = 0
  await page.routeWebSocket('**/ws/results', (client) => {
    connections += 1
    const server = client.connectToServer()
    client.onClose(() => {
      closedByPage += 1
      void server.close()
    })
  })
  await page.clock.install()
  await openResults(page, demo)
  const panel = statisticsPanel(page)
  await expect(panel.getByRole('table', { name: 'Statistics results' })).toBeVisible({
    timeout: 30_000,
  })
  expect(connections).toBe(1)
  const setHidden = (hidden: boolean) =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => (value ? 'hidden' : 'visible'),
      })
      document.dispatchEvent(new Event('visibilitychange'))
    }, hidden)

  await setHidden(true)
  await page.clock.fastForward('04:59')
  expect(closedByPage).toBe(0)
  await page.clock.fastForward('00:02')
  await expect.poll(() => closedByPage).toBe(1)

  await setHidden(false)
  await expect.poll(() => connections).toBe(2)
  await expect(page.getByText('Reconnected to the results server.')).toBeVisible()
})
