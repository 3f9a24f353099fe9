import { expect, test, type Locator, type Page } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * The canvas menus and chrome of the Results screen on the shared results clone, through the real
 * server, render worker and data workers (SwiftShader): camera mode, axis gizmo, Clip dialog and
 * Save Image. Pixels come from screenshots of the 3D view with the menus, gizmo and cube hidden
 * (they are HTML/SVG over the canvas; the canvas itself belongs to the render worker).
 */

test.use({ trace: 'off' })

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

/** Hides what is drawn over the canvas so that only the render worker's pixels are compared. */
const HIDE_CHROME =
  '.canvas-layer, .viewport__readout, .viewport__loading, .viewport__overlay, .viewport__status { visibility: hidden !important; }'

/** The 3D view of the page. */
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

/** Waits until the view differs from `before` in more than 1 % of its pixels; returns the new picture. */
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
    .toBeGreaterThan(0.01)
  return latest
}

test('switches to orthographic and back, keeping the camera', async ({ page, context }) => {
  const helper = await context.newPage()
  await openResults(page, demo)
  await waitForDrawn(page)
  const cameraMode = page.getByRole('group', { name: 'Camera mode' })
  await expect(cameraMode.getByRole('button', { name: 'Perspective' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  const perspective = await screenshot(page)
  await cameraMode.getByRole('button', { name: 'Orthographic' }).click()
  await expect(cameraMode.getByRole('button', { name: 'Orthographic' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expectPictureChange(page, helper, perspective)
  await cameraMode.getByRole('button', { name: 'Perspective' }).click()
  await expect(cameraMode.getByRole('button', { name: 'Perspective' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  // Position, up and target were kept: the perspective picture comes back as it was.
  await expect
    .poll(async () => changedShare(helper, perspective, await screenshot(page)), {
      timeout: 10_000,
    })
    .toBeLessThan(0.002)
})

test('an axis of the gizmo and a face of the view cube turn the view', async ({
  page,
  context,
}) => {
  const helper = await context.newPage()
  await openResults(page, demo)
  await waitForDrawn(page)
  const before = await screenshot(page)
  await page.getByRole('button', { name: 'View from +X' }).click()
  const fromX = await expectPictureChange(page, helper, before)
  // Looking along −x, the view cube shows the Right face straight on.
  const cube = page.getByRole('group', { name: 'View cube' })
  await expect(cube.getByRole('button', { name: 'View Right', exact: true })).toBeVisible()
  for (const hidden of ['View Front', 'View Top', 'View Left'])
    await expect(cube.getByRole('button', { name: hidden, exact: true })).toHaveCount(0)
  await cube.getByRole('button', { name: 'View Right', exact: true }).click()
  await page.getByRole('button', { name: 'View from +Z' }).click()
  await expectPictureChange(page, helper, fromX)
  await expect(cube.getByRole('button', { name: 'View Top', exact: true })).toBeVisible()
})

test('the Clip dialog clips the view and flips it', async ({ page, context }) => {
  const helper = await context.newPage()
  await openResults(page, demo)
  await waitForDrawn(page)
  const before = await screenshot(page)
  await page.getByRole('button', { name: 'Clip', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Clip' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('switch', { name: 'Clipping plane' }).check()
  // The first switch-on puts the plane through the middle of the output.
  await expect(dialog.getByLabel('Offset (m)')).not.toHaveValue('0')
  // The dialog sits over the view: close it before reading pixels.
  await page.keyboard.press('Escape')
  const clipped = await expectPictureChange(page, helper, before)
  await page.getByRole('button', { name: 'Clip', exact: true }).click()
  await dialog.getByRole('switch', { name: 'Flipped' }).check()
  await page.keyboard.press('Escape')
  await expectPictureChange(page, helper, clipped)
})

test('Save Image stores the view as the post image and offers the PNG', async ({
  page,
  request,
}) => {
  await openResults(page, demo)
  await waitForDrawn(page)
  await page.getByRole('button', { name: 'Save Image' }).click()
  await expect(page.getByText('Image saved!')).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText('You can see it on the monitoring page')).toBeVisible()
  const download = page.getByRole('link', { name: 'Download PNG' })
  await expect(download).toHaveAttribute('download', /\.png$/)

  const simulation = await request.get(`/api/simulations/${demo.simulationId}`, {
    headers: demo.headers,
  })
  const postImageId = ((await simulation.json()) as { postImageId: number | null }).postImageId
  expect(postImageId).not.toBeNull()
  const image = await request.get(`/api/images/${postImageId}`, { headers: demo.headers })
  expect(image.status()).toBe(200)
  expect(image.headers()['content-type']).toBe('image/png')
  const bytes = await image.body()
  expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])
  expect(bytes.length).toBeGreaterThan(1000)

  // 'You can see it on the monitoring page': it is there.
  await page.goto(`/simulation/${demo.simulationId}/dashboard`)
  const shown = page.getByRole('img', { name: /^Post image of / })
  await expect(shown).toBeVisible({ timeout: 15_000 })
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100)
})
