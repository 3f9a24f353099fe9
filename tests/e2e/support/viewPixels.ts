import { expect, type Locator, type Page } from '@playwright/test'

/*
 * Pixels of the results view for the e2e specs: the canvas belongs to the render worker, so the
 * picture is read from settled screenshots with everything drawn over the canvas hidden.
 */

const HIDE_CHROME =
  '.canvas-layer, .viewport__readout, .viewport__loading, .viewport__overlay, .viewport__status { visibility: hidden !important; }'

/** The 3D view of the page. */
export function view(page: Page): Locator {
  return page.locator('.viewport')
}

/** Waits until the engine runs and a frame with particles is drawn. */
export async function waitForDrawn(page: Page): Promise<void> {
  await expect(view(page)).toHaveAttribute('data-engine-status', 'ready', { timeout: 30_000 })
  await expect(page.getByTestId('viewport-points')).not.toHaveText('0 points', { timeout: 30_000 })
  await expect(page.getByTestId('viewport-shown-output')).toBeVisible({ timeout: 30_000 })
}

/** A settled screenshot of the canvas: two in a row agree (the worker draws only on change). */
export async function screenshot(page: Page): Promise<Buffer> {
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
export async function changedShare(helper: Page, a: Buffer, b: Buffer): Promise<number> {
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

/**
 * Waits until the view differs from `before` in more than `minShare` of its pixels (helper: a
 * second page that decodes the PNGs); returns the new picture.
 */
export async function expectPictureChange(
  page: Page,
  helper: Page,
  before: Buffer,
  minShare = 0.005,
): Promise<Buffer> {
  let latest = before
  await expect
    .poll(
      async () => {
        latest = await screenshot(page)
        return changedShare(helper, before, latest)
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(minShare)
  return latest
}
