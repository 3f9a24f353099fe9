import { expect, test } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'
import {
  changedShare,
  expectPictureChange,
  screenshot,
  waitForDrawn,
} from './support/viewPixels.ts'

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
  await expectPictureChange(page, helper, perspective, 0.01)
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
  const fromX = await expectPictureChange(page, helper, before, 0.01)
  // Looking along −x, the view cube shows the Right face straight on.
  const cube = page.getByRole('group', { name: 'View cube' })
  await expect(cube.getByRole('button', { name: 'View Right', exact: true })).toBeVisible()
  for (const hidden of ['View Front', 'View Top', 'View Left'])
    await expect(cube.getByRole('button', { name: hidden, exact: true })).toHaveCount(0)
  await cube.getByRole('button', { name: 'View Right', exact: true }).click()
  await page.getByRole('button', { name: 'View from +Z' }).click()
  await expectPictureChange(page, helper, fromX, 0.01)
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
  const clipped = await expectPictureChange(page, helper, before, 0.01)
  await page.getByRole('button', { name: 'Clip', exact: true }).click()
  await dialog.getByRole('switch', { name: 'Flipped' }).check()
  await page.keyboard.press('Escape')
  await expectPictureChange(page, helper, clipped, 0.01)
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
