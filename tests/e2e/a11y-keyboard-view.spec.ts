import { expect, test, type Page } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'
import { waitForDrawn } from './support/viewPixels.ts'

/*
 * The results 3D view from the keyboard only (issue 23): the canvas is reached with Tab, arrows
 * orbit, Shift+arrows pan, + and Page Down zoom, Home fits the view again; the skip links reach the
 * view and the timeline; Space plays and the output is announced politely. The camera is read from
 * the view's data-camera-* attributes (the render worker's snapshot).
 */

test.use({ trace: 'off' })

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

interface Camera {
  position: number[]
  target: number[]
}

async function camera(page: Page): Promise<Camera> {
  const view = page.locator('.viewport')
  const parse = (value: string | null) => (value ?? '').split(',').map(Number)
  return {
    position: parse(await view.getAttribute('data-camera-position')),
    target: parse(await view.getAttribute('data-camera-target')),
  }
}

const distance = (c: Camera) =>
  Math.hypot(...c.position.map((value, i) => value - (c.target[i] ?? 0)))

/** Presses `key` and waits until the camera differs from `before`; returns the new camera. */
async function pressAndWait(page: Page, key: string, before: Camera): Promise<Camera> {
  await page.keyboard.press(key)
  await expect.poll(async () => JSON.stringify(await camera(page))).not.toBe(JSON.stringify(before))
  // Let a keyframe animation (a fit) settle: two reads in a row agree.
  let previous = await camera(page)
  for (;;) {
    await page.waitForTimeout(300)
    const next = await camera(page)
    if (JSON.stringify(next) === JSON.stringify(previous)) return next
    previous = next
  }
}

test('the 3D view is reached with Tab and orbits, pans, zooms and resets from the keyboard', async ({
  page,
}) => {
  await openResults(page, demo)
  await waitForDrawn(page)
  const canvas = page.getByRole('application', { name: 'Results 3D view' })
  await expect(canvas).toHaveAccessibleDescription(/Arrow keys orbit/)

  // Tab from the top of the freshly loaded page until the view has focus.
  let reached = false
  for (let presses = 0; presses < 120 && !reached; presses++) {
    await page.keyboard.press('Tab')
    reached = await canvas.evaluate((element) => element === document.activeElement)
  }
  expect(reached).toBe(true)
  const scrollY = await page.evaluate(() => window.scrollY)

  const fitted = await camera(page)
  expect(fitted.position).toHaveLength(3)
  const orbited = await pressAndWait(page, 'ArrowLeft', fitted)
  expect(orbited.target).toEqual(fitted.target)
  expect(distance(orbited)).toBeCloseTo(distance(fitted), 3)

  const panned = await pressAndWait(page, 'Shift+ArrowRight', orbited)
  expect(panned.target).not.toEqual(orbited.target)
  expect(distance(panned)).toBeCloseTo(distance(orbited), 3)

  const zoomedIn = await pressAndWait(page, '+', panned)
  expect(distance(zoomedIn)).toBeLessThan(distance(panned) * 0.9)
  const zoomedOut = await pressAndWait(page, 'PageDown', zoomedIn)
  expect(distance(zoomedOut)).toBeGreaterThan(distance(zoomedIn) * 1.1)

  // Home fits the view again: the target goes back to the fitted one.
  const reset = await pressAndWait(page, 'Home', zoomedOut)
  for (const [i, value] of fitted.target.entries()) expect(reset.target[i]).toBeCloseTo(value, 3)

  // The keys did not scroll the page.
  expect(await page.evaluate(() => window.scrollY)).toBe(scrollY)
})

test('skip links reach the view and the timeline; playback is announced politely', async ({
  page,
}) => {
  await openResults(page, demo)
  await waitForDrawn(page)
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to the 3D view' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('application', { name: 'Results 3D view' })).toBeFocused()

  await page.reload()
  await waitForDrawn(page)
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to the timeline' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('group', { name: 'Timeline' })).toBeFocused()

  // The shortcuts help lists Space beside the camera keys.
  await page.getByText('Keyboard shortcuts').click()
  await expect(page.getByRole('definition').filter({ hasText: 'Play or pause' })).toBeVisible()
  await expect(page.getByRole('term').filter({ hasText: 'Home or 0' })).toBeVisible()

  const announcement = page.getByTestId('playback-announcement')
  await expect(announcement).toHaveAttribute('aria-live', 'polite')
  await page.keyboard.press('Space')
  await expect(announcement).toHaveText(/^Output \d+ · .+ s$/)
  await page.keyboard.press('Space')
})

test('the setup 3D view takes focus and its camera keys too', async ({ page, request }) => {
  const reply = await request.get('/api/projects?pageLimit=30', { headers: demo.headers })
  const body = (await reply.json()) as {
    results: { simulations: { id: number; name: string }[] }[]
  }
  const seeded = body.results.flatMap((p) => p.simulations).find((s) => s.name === 'Dam break')
  if (!seeded) throw new Error('the seeded demo dam break is missing')
  await openResults(page, demo)
  await page.goto(`/simulation/${seeded.id}/preprocessor`)
  const canvas = page.getByRole('application', { name: 'Setup 3D view' })
  await expect(page.locator('.viewport')).toHaveAttribute('data-engine-status', 'ready', {
    timeout: 30_000,
  })
  await expect(page.locator('.viewport')).toHaveAttribute('data-camera-position', /./)
  let reached = false
  for (let presses = 0; presses < 150 && !reached; presses++) {
    await page.keyboard.press('Tab')
    reached = await canvas.evaluate((element) => element === document.activeElement)
  }
  expect(reached).toBe(true)
  const before = await camera(page)
  const orbited = await pressAndWait(page, 'ArrowRight', before)
  expect(distance(orbited)).toBeCloseTo(distance(before), 3)
  const zoomedOut = await pressAndWait(page, '-', orbited)
  expect(distance(zoomedOut)).toBeGreaterThan(distance(orbited) * 1.1)
})
