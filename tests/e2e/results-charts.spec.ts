import { readFile } from 'node:fs/promises'
import { expect, test, type Download } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * The chart windows on the Results page of the shared results clone: the empty panel and its
 * display modes, then series plotted from the Statistics table (through the real results session)
 * renamed, bounded, edited, removed and exported.
 */

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1920, height: 1080 } })

  test('the chart panel says where data comes from, minimizes, goes fullscreen and back with Escape', async ({
    page,
  }) => {
    await openResults(page, demo)
    const panel = page.getByRole('region', { name: 'Charts' })
    await expect(panel.getByText('Add data from the Statistics table')).toBeVisible()

    await panel.getByRole('button', { name: 'Minimize charts' }).click()
    await expect(panel.getByText('Add data from the Statistics table')).toBeHidden()
    await panel.getByRole('button', { name: 'Restore charts' }).click()
    await expect(panel.getByText('Add data from the Statistics table')).toBeVisible()

    await panel.getByRole('button', { name: 'Fullscreen charts' }).click()
    await expect
      .poll(async () => (await panel.boundingBox())?.width)
      .toBe(page.viewportSize()?.width)
    await page.keyboard.press('Escape')
    await expect.poll(async () => (await panel.boundingBox())?.width ?? 0).toBeLessThan(1920)

    await panel.getByRole('button', { name: 'Half-screen charts' }).click()
    await expect.poll(async () => (await panel.boundingBox())?.width).toBe(960)
    await panel.getByRole('button', { name: 'Half-screen charts' }).click()
    await expect.poll(async () => (await panel.boundingBox())?.width ?? 0).toBeLessThan(960)
  })
})

test('below 1700 px the chart panel starts minimized and opens fullscreen', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 })
  await openResults(page, demo)
  const panel = page.getByRole('region', { name: 'Charts' })
  await expect(panel.getByRole('button', { name: 'Restore charts' })).toBeVisible()
  await expect(panel.getByText('Add data from the Statistics table')).toBeHidden()
  await expect(panel.getByRole('button', { name: 'Maximize charts' })).toBeDisabled()
  await expect(panel.getByRole('button', { name: 'Half-screen charts' })).toBeDisabled()

  await panel.getByRole('button', { name: 'Restore charts' }).click()
  await expect(panel.getByText('Add data from the Statistics table')).toBeVisible()
  await expect.poll(async () => (await panel.boundingBox())?.width).toBe(1600)
  await page.keyboard.press('Escape')
  await expect(panel.getByText('Add data from the Statistics table')).toBeHidden()
})

test.describe('with series plotted from the Statistics table', () => {
  test.use({ viewport: { width: 1920, height: 1080 } })

  test('plots, renames, bounds Y, edits and removes series, and exports CSV and PNG', async ({
    page,
  }) => {
    test.setTimeout(120_000)
    await openResults(page, demo)
    const statistics = page.getByRole('region', { name: 'Statistics' })
    await statistics.getByLabel('Attribute').selectOption({ label: 'Pressure' })
    await statistics.getByLabel('Outputs').selectOption({ label: 'Output range' })
    await statistics.getByRole('button', { name: 'Load' }).click()
    const summary = statistics.getByRole('table', { name: 'Statistics summary' })
    await expect(summary).toBeVisible({ timeout: 60_000 })
    await summary.getByRole('button', { name: 'Plot Mean' }).click()
    await summary.getByRole('button', { name: 'Plot Max' }).click()

    const charts = page.getByRole('region', { name: 'Charts' })
    await expect(charts.getByRole('tab', { name: 'Pressure' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await expect(charts.getByRole('img', { name: 'Chart Pressure' })).toBeVisible()
    const datasets = charts.getByRole('list', { name: 'Datasets' }).getByRole('listitem')
    await expect(datasets).toHaveCount(2)
    const meanName = (await datasets.nth(0).locator('.chart-datasets__name').textContent()) ?? ''
    expect(meanName).toMatch(/^Pressure mean \(/)

    // Rename by double click.
    await charts.getByRole('tab', { name: 'Pressure' }).dblclick()
    await charts.getByLabel('Chart name').fill('Tank pressure')
    await charts.getByLabel('Chart name').press('Enter')
    await expect(charts.getByRole('tab', { name: 'Tank pressure' })).toBeVisible()

    // Y bounds and their rule.
    await charts.getByLabel('Y min').fill('100')
    await charts.getByLabel('Y max').fill('10')
    await expect(charts.getByRole('alert')).toHaveText('Min must be smaller than max.')
    await charts.getByRole('button', { name: 'Reset' }).click()
    await expect(charts.getByRole('alert')).toHaveCount(0)

    // Time indicator, Output axis, monotone interpolation: the chart keeps drawing.
    await charts.getByLabel('Time indicator').check()
    await charts.getByLabel('X axis').selectOption({ label: 'Output' })
    await charts.getByLabel('Interpolation').selectOption({ label: 'Monotone' })
    await charts.getByLabel('X axis').selectOption({ label: 'Time (s)' })

    // Edit the max series, then remove it.
    await charts.getByRole('button', { name: /^Edit Pressure max/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit dataset' })
    await dialog.getByLabel('Name').fill('Peak pressure')
    await dialog.getByLabel('Line style').selectOption({ label: 'Dashed' })
    await dialog.getByLabel('Marker style').selectOption({ label: 'Square' })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(charts.getByText('Peak pressure')).toBeVisible()

    // CSV: ';'-separated, time = output × 0.015 s (the clone's output interval).
    await charts.getByRole('button', { name: 'Export' }).click()
    const exportDialog = page.getByRole('dialog', { name: 'Export chart' })
    const csvDownload = page.waitForEvent('download')
    await exportDialog.getByRole('button', { name: 'Export' }).click()
    const csv = await csvDownload
    expect(csv.suggestedFilename()).toBe('Dam break (results e2e) - Tank pressure.csv')
    const lines = (await readDownload(csv)).trimEnd().split('\n')
    expect(lines[0]).toBe(`Output;Time (s);${meanName};Peak pressure`)
    expect(lines.length).toBeGreaterThanOrEqual(8)
    const row = lines[3]!.split(';')
    expect(row[0]).toBe('2')
    expect(Number(row[1])).toBeCloseTo(0.03, 10)
    expect(Number.isFinite(Number(row[2]))).toBe(true)

    // PNG on white: the chart canvas itself is transparent at its corners.
    await charts.getByRole('button', { name: 'Export' }).click()
    await exportDialog.getByLabel('PNG').check()
    const pngDownload = page.waitForEvent('download')
    await exportDialog.getByRole('button', { name: 'Export' }).click()
    const png = await pngDownload
    expect(png.suggestedFilename()).toBe('Dam break (results e2e) - Tank pressure.png')
    const corner = await page.evaluate(
      async (base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
        const context = canvas.getContext('2d')!
        context.drawImage(bitmap, 0, 0)
        return { width: bitmap.width, pixel: [...context.getImageData(0, 0, 1, 1).data] }
      },
      (await readDownloadBytes(png)).toString('base64'),
    )
    expect(corner.width).toBeGreaterThan(100)
    expect(corner.pixel).toEqual([255, 255, 255, 255])

    await charts.getByRole('button', { name: 'Remove Peak pressure' }).click()
    await expect(datasets).toHaveCount(1)
    await charts.getByRole('button', { name: `Remove ${meanName}` }).click()
    await expect(charts.getByText('Add data from the Statistics table')).toBeVisible()
  })
})

async function readDownloadBytes(download: Download): Promise<Buffer> {
  const path = await download.path()
  return readFile(path)
}

async function readDownload(download: Download): Promise<string> {
  return (await readDownloadBytes(download)).toString('utf8')
}
