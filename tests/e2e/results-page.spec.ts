import { expect, test, type Locator, type Page } from '@playwright/test'
import { COLOUR_RANGE_MESSAGE } from '../../domain/results.ts'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'
import { expectPictureChange, screenshot, waitForDrawn } from './support/viewPixels.ts'

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
  // The data range settles once every object of the output is in (fluid first, then walls).
  await expect
    .poll(async () => {
      const first = `${await min.inputValue()} ${await max.inputValue()}`
      await page.waitForTimeout(750)
      return first === `${await min.inputValue()} ${await max.inputValue()}`
    })
    .toBe(true)
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
