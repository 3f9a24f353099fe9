import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { parseVtu } from '../../server/exports/vtuParser.ts'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * The user export through the UI: export the pressure of one output as VTU, wait for the job,
 * download the file through the page and read it back with the tests' VTU parser.
 */

let demo: ResultsDemo

interface Manifest {
  outputNo: number
  objects: { kind: string; name: string; particleCount: { full: number } }[]
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

test('exports the pressure of one output as VTU and the downloaded file has every particle', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  const reply = await request.get(`/api/simulations/${demo.simulationId}/output_manifests`, {
    headers: demo.headers,
  })
  const outputs = ((await reply.json()) as { outputs: Manifest[] }).outputs
  const last = outputs.at(-1)!
  const fluid = last.objects.find((object) => object.kind === 'fluid')!
  expect(fluid.particleCount.full).toBeGreaterThan(0)

  await openResults(page, demo)
  await page.getByTestId('open-export').click()
  const dialog = page.getByRole('dialog', { name: 'Export' })
  await expect(dialog.getByRole('tab', { name: '1. Select Data' })).toBeVisible()
  await dialog.getByRole('tab', { name: '1. Select Data' }).click()
  await expect(dialog.getByText('Select at least 1 item to start export')).toBeVisible()

  await dialog.getByRole('checkbox', { name: fluid.name }).first().check()
  await dialog.getByRole('checkbox', { name: 'Pressure' }).check()
  await expect(dialog.getByLabel('Output', { exact: true })).toHaveValue(String(last.outputNo))
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  // A previous export of this shared clone (an earlier spec run) asks first.
  const replace = page.getByText('Previously exported files will be deleted. Are you sure?')
  if (await replace.isVisible().catch(() => false))
    await page.getByRole('button', { name: 'Yes' }).click()

  const filename = `${fluid.name.replace(/[^\w.-]+/g, '_')}_${String(last.outputNo).padStart(6, '0')}.vtu`
  const fileButton = dialog.getByRole('button', { name: filename })
  await expect(fileButton).toBeVisible({ timeout: 60_000 })
  await expect(dialog.getByText(/Browsers download at most 6 files at a time/)).toBeVisible()

  const [download] = await Promise.all([page.waitForEvent('download'), fileButton.click()])
  expect(download.suggestedFilename()).toBe(filename)
  const bytes = new Uint8Array(await readFile(await download.path()))
  const vtu = parseVtu(bytes)
  expect(vtu.byteOrder).toBe('LittleEndian')
  expect(vtu.numberOfPoints).toBe(fluid.particleCount.full)
  expect(vtu.points.values).toHaveLength(fluid.particleCount.full * 3)
  expect(Object.keys(vtu.pointData)).toEqual(['pressure'])
  expect(vtu.pointData.pressure!.values).toHaveLength(fluid.particleCount.full)
  expect(vtu.pointData.pressure!.values.every((value) => Number.isFinite(value))).toBe(true)
})
