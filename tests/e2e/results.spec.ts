import { expect, test } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

test('a finished run opens in Results with its outputs on the timeline', async ({
  page,
  request,
}) => {
  const outputs = await request.get(`/api/simulations/${demo.simulationId}/output_manifests`, {
    headers: demo.headers,
  })
  const list = (await outputs.json()) as { outputs: { outputNo: number }[] }
  expect(list.outputs.length).toBeGreaterThanOrEqual(7)
  await openResults(page, demo)
  await expect(page.getByTestId('timeline-label')).toContainText('0')
})
