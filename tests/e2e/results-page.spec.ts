import { expect, test, type Locator, type Page } from '@playwright/test'
import { COLOUR_RANGE_MESSAGE } from '../../domain/results.ts'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * The Results page on the shared results clone, through the real server and workers (SwiftShader):
 * the colour map bar recolours the view (attribute, scheme), refuses a max below the min, the
 * timeline plays and pauses with Space, and the viewport state survives a reload. Pixels come from
 * screenshots of the canvas with everything drawn over it hidden.
 */

test.use({ trace: 'off' })

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

/** Every test starts, and the next spec starts, from a view with no saved state. */
async function forgetViewportState(page: Page): Promise<void> {
  const reply = await page.request.delete(
    `/api/simulations/${demo.simulationId}/runs/viewport_state`,
    { headers: demo.headers },
  )
  expect(reply.status()).toBe(200)
}

test.beforeEach(async ({ page }) => forgetViewportState(page))
test.afterEach(async ({ page }) => forgetViewportState(page))

const HIDE_CHROME =
  '.canvas-layer, .viewport__readout, .viewport__loading, .viewport__overlay, .viewport__status { visibility: hidden !important; }'

function view(page: Page): Locator {
  return page.locator('.viewport')
}

async function waitForDrawn(page: Page): Promise<void> {
  await expect(view(page)).toHaveAttribute('data-engine-status', 'ready', { timeout: 30_000 })
  await expect(page.getByTestId('viewport-points')).not.toHaveText('0 points', { timeout: 30_000 })
  await expect(page.getByTestId('viewport-shown-output')).toBeVisible({ timeout: 30_000 })
}

/** A settled screenshot of the canvas: two in a row agree (the worker draws only on change). */
async function screenshot(page: Page): Promise<Buffer> {
  const canvas = page.locator('canvas.viewport__canvas')
  const take = () => canvas.screenshot({ style: HIDE_CHROME })
  let previous = await take()
  for (let attempt = 0; attempt < 8; attempt++) {
    await page.waitForTimeout(250)
    const next = await take()
    if (next.equals(previous)) return next
    previous = next
  }
  return previous
}

/** Share of pixels of two PNGs (same size) whose colour moved by more than 40 in some channel. */
async function changedShare(helper: Page, a: Buffer, b: Buffer): Promise<number> {
  return helper.evaluate(
    async ({ a, b }) => {
      const decode = async (base64: string) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
        const context = canvas.getContext('2d')!
        context.drawImage(bitmap, 0, 0)
        return context.getImageData(0, 0, bitmap.width, bitmap.height).data
      }
      const first = await decode(a)
      const second = await decode(b)
      if (first.length !== second.length) return 1
      let changed = 0
      for (let i = 0; i < first.length; i += 4) {
        const delta = Math.max(
          Math.abs(first[i]! - second[i]!),
          Math.abs(first[i + 1]! - second[i + 1]!),
          Math.abs(first[i + 2]! - second[i + 2]!),
        )
        if (delta > 40) changed++
      }
      return changed / (first.length / 4)
    },
    { a: a.toString('base64'), b: b.toString('base64') },
  )
}

/** Waits until the view differs from `before` in more than 0.5 % of its pixels. */
async function expectPictureChange(page: Page, helper: Page, before: Buffer): Promise<Buffer> {
  let latest = before
  await expect
    .poll(
      async () => {
        latest = await screenshot(page)
        return changedShare(helper, before, latest)
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0.005)
  return latest
}

function colourMap(page: Page): Locator {
  return page.getByRole('region', { name: 'Colour map' })
}

async function pickScheme(page: Page, name: string): Promise<void> {
  await colourMap(page).getByRole('button', { name: 'Colour scheme' }).click()
  await page.getByRole('option', { name, exact: true }).click()
}

/** Colours by height: position z varies over everything drawn (water and wall particles). */
async function colourByHeight(page: Page): Promise<void> {
  await colourMap(page).getByLabel('Attribute').selectOption('position')
  await colourMap(page).getByLabel('Component').selectOption('z')
}

test('recolours the view when the attribute or the scheme changes', async ({ page, context }) => {
  const helper = await context.newPage()
  await openResults(page, demo)
  await waitForDrawn(page)
  const gradient = page.getByTestId('colour-map-gradient')
  await expect(gradient).toHaveAttribute('data-scheme', 'rainbow')
  // The water is at rest at output 0: velocity paints it one colour.
  const velocity = await screenshot(page)
  await colourByHeight(page)
  const height = await expectPictureChange(page, helper, velocity)
  await pickScheme(page, 'Binary')
  await expect(gradient).toHaveAttribute('data-scheme', 'binary')
  await expectPictureChange(page, helper, height)
  // The ticks sit at 25, 50 and 75 % of the range in use.
  await expect(page.getByTestId('colour-map-ticks').locator('span')).toHaveCount(3)
})

test("refuses a max below the min with 'Max must be greater than Min.', then applies a valid range", async ({
  page,
  context,
}) => {
  const helper = await context.newPage()
  await openResults(page, demo)
  await waitForDrawn(page)
  await colourByHeight(page)
  const min = colourMap(page).getByLabel('Min')
  const max = colourMap(page).getByLabel('Max')
  await expect(max).not.toHaveValue('')
  const dataMin = await min.inputValue()
  const dataMax = await max.inputValue()
  const before = await screenshot(page)
  await min.fill('500')
  await max.fill('100')
  await max.press('Enter')
  await expect(colourMap(page).getByRole('alert')).toHaveText(COLOUR_RANGE_MESSAGE)
  await expect(max).toHaveAttribute('aria-invalid', 'true')
  // The lowest quarter of the heights now spans the whole scheme.
  await min.fill(dataMin)
  await max.fill(String(Number(dataMin) + (Number(dataMax) - Number(dataMin)) / 4))
  await max.press('Enter')
  await expect(colourMap(page).getByRole('alert')).toHaveCount(0)
  const narrowed = await expectPictureChange(page, helper, before)
  await colourMap(page).getByRole('button', { name: 'Rescale' }).click()
  await expect(min).toHaveValue(dataMin)
  await expect(max).toHaveValue(dataMax)
  await expectPictureChange(page, helper, narrowed)
})

test('plays and pauses with Space, but Space in a field types', async ({ page }) => {
  await openResults(page, demo)
  await waitForDrawn(page)
  const timeline = page.getByRole('group', { name: 'Timeline' })
  await expect(page.getByTestId('timeline-label')).toHaveText(/^Output 0 · 0 s$/)
  const min = colourMap(page).getByLabel('Min')
  await min.focus()
  await page.keyboard.press('Space')
  await page.waitForTimeout(500)
  await expect(timeline.getByRole('button', { name: 'Play' })).toBeVisible()
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await page.keyboard.press('Space')
  await expect(timeline.getByRole('button', { name: 'Pause' })).toBeVisible({ timeout: 10_000 })
  await expect(page.getByTestId('timeline-label')).not.toHaveText(/^Output 0 ·/, {
    timeout: 15_000,
  })
  await page.keyboard.press('Space')
  await expect(timeline.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 10_000 })
  // Paused: the shown output stays.
  const shown = await page.getByTestId('timeline-label').textContent()
  await page.waitForTimeout(1500)
  await expect(page.getByTestId('timeline-label')).toHaveText(shown ?? '')
})

test('keeps the colour map and the shown output across a reload (saved every 5 s)', async ({
  page,
}) => {
  await openResults(page, demo)
  await waitForDrawn(page)
  await colourMap(page).getByLabel('Attribute').selectOption('pressure')
  await pickScheme(page, 'Diverging')
  await page.getByLabel('Output', { exact: true }).fill('3')
  await expect(page.getByTestId('timeline-label')).toHaveText(/^Output 3 ·/)
  await expect
    .poll(
      async () => {
        const reply = await page.request.get(
          `/api/simulations/${demo.simulationId}/runs/viewport_state`,
          { headers: demo.headers },
        )
        const body = (await reply.json()) as {
          state: { output: number | null; colorMap: { scheme: string } | null } | null
        }
        return body.state ? `${body.state.colorMap?.scheme} ${body.state.output}` : null
      },
      { timeout: 12_000, intervals: [1000] },
    )
    .toBe('diverging 3')
  await page.reload()
  await waitForDrawn(page)
  await expect(colourMap(page).getByLabel('Attribute')).toHaveValue('pressure')
  await expect(page.getByTestId('colour-map-gradient')).toHaveAttribute('data-scheme', 'diverging')
  await expect(page.getByTestId('timeline-label')).toHaveText(/^Output 3 ·/, { timeout: 15_000 })
})
