import { truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { objectFile } from '../../domain/output/layout.ts'
import { activateSyntheticRun, writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { LoginPage, USERS, DEMO_PASSWORD } from './pages/LoginPage.ts'

/*
 * The results viewport through the real server, render worker and data workers in chromium
 * (SwiftShader): a synthetic run written to the server's data directory is loaded, drawn,
 * recoloured, clipped and played. Pixels are read from screenshots of the canvas; the page itself
 * cannot read them (the canvas belongs to the render worker).
 */

/*
 * Main-thread long tasks while loading are a speed figure, measured by the frames bench
 * (bench/browser/frames.bench.ts, browser/longTasks.load.*), not asserted here: on 2 shared cores
 * a 50-80 ms task came and went from run to run on the same commit. Traces stay off: their DOM
 * snapshots would load the same main thread.
 */
test.use({ trace: 'off' })

const PARTICLES = 200_000
const OUTPUTS = 4
const RUN_ID = 1

/** What a screenshot of the view holds: pixels that are clearly coloured (not the grey background). */
interface ImageStats {
  name: string
  pixels: number
  coloured: number
  /** Mean RGB of the coloured pixels. */
  mean: [number, number, number]
}

/**
 * Decodes a PNG in a blank helper page (the view's page stays untouched), keeps its pixels there
 * under `name` for later comparisons, and returns a summary.
 */
async function readImage(helper: Page, png: Buffer, name: string): Promise<ImageStats> {
  return helper.evaluate(
    async ({ base64, name }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
      const context = canvas.getContext('2d')!
      context.drawImage(bitmap, 0, 0)
      const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data
      const store = window as unknown as { images?: Record<string, Uint8ClampedArray> }
      store.images = { ...store.images, [name]: data }
      let coloured = 0
      const sum: [number, number, number] = [0, 0, 0]
      for (let i = 0; i < data.length; i += 4) {
        const r = data[i]!
        const g = data[i + 1]!
        const b = data[i + 2]!
        if (Math.max(r, g, b) - Math.min(r, g, b) > 60) {
          coloured++
          sum[0] += r
          sum[1] += g
          sum[2] += b
        }
      }
      const mean = sum.map((value) => (coloured ? value / coloured : 0)) as [number, number, number]
      return { name, pixels: data.length / 4, coloured, mean }
    },
    { base64: png.toString('base64'), name },
  )
}

/** Share of pixels whose colour moved by more than 40 (of 255) in some channel. */
async function changedShare(helper: Page, a: ImageStats, b: ImageStats): Promise<number> {
  return helper.evaluate(
    ({ a, b }) => {
      const images = (window as unknown as { images: Record<string, Uint8ClampedArray> }).images
      const first = images[a]!
      const second = images[b]!
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
    { a: a.name, b: b.name },
  )
}

/** Polls screenshots until one differs from `before` in more than 1 % of its pixels. */
async function expectImageChange(helper: Page, results: ResultsPage, before: ImageStats) {
  await expect
    .poll(
      async () =>
        changedShare(helper, before, await readImage(helper, await results.screenshot(), 'probe')),
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0.01)
}

/** The results page as the test drives it. */
class ResultsPage {
  readonly page: Page
  readonly view: Locator
  readonly canvas: Locator
  constructor(page: Page) {
    this.page = page
    this.view = page.locator('.viewport')
    this.canvas = page.locator('canvas.viewport__canvas')
  }

  async open(simulationId: number): Promise<void> {
    await this.page.goto(`/simulation/${simulationId}/postprocessor`)
  }

  points(): Locator {
    return this.page.getByTestId('viewport-points')
  }

  shownOutput(): Locator {
    return this.page.getByTestId('viewport-shown-output')
  }

  /** Waits until a frame with particles is drawn and nothing is loading. */
  async waitForDrawn(): Promise<void> {
    await expect(this.view).toHaveAttribute('data-engine-status', 'ready', { timeout: 30_000 })
    await expect(this.points()).not.toHaveText('0 points', { timeout: 30_000 })
    await expect(this.view.getByRole('alert')).toHaveCount(0)
  }

  /** A settled screenshot: two in a row that agree (the worker draws only on change). */
  async screenshot(): Promise<Buffer> {
    let previous = await this.canvas.screenshot()
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.page.waitForTimeout(200)
      const next = await this.canvas.screenshot()
      if (next.equals(previous)) return next
      previous = next
    }
    return previous
  }
}

async function createSimulation(request: APIRequestContext): Promise<number> {
  const login = await request.post('/api/auth/login', {
    data: { email: USERS.manager, password: DEMO_PASSWORD },
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const headers = { Authorization: `Bearer ${accessToken}` }
  const projects = (await (
    await request.get('/api/projects?pageLimit=10', { headers })
  ).json()) as {
    results: { id: number }[]
  }
  const created = await request.post(`/api/projects/${projects.results[0]!.id}/simulations`, {
    headers,
    data: { name: `Viewport ${Date.now().toString(36)}` },
  })
  expect(created.status()).toBe(201)
  return ((await created.json()) as { id: number }).id
}

test('a synthetic run is drawn, recoloured, clipped and played through the real workers', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(90_000)
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('playwright.config.ts sets E2E_DATA_DIR')
  const simulationId = await createSimulation(request)
  await writeSyntheticRun({
    dataDir,
    simulationId,
    runId: RUN_ID,
    outputCount: OUTPUTS,
    particles: PARTICLES,
    intervalS: 0.25,
  })
  await activateSyntheticRun(dataDir, simulationId, RUN_ID)

  await new LoginPage(page).loginAs('manager')
  const results = new ResultsPage(page)
  await results.open(simulationId)
  await results.waitForDrawn()
  await expect(results.shownOutput()).toHaveText('Output 0')
  // Still water at output 0: velocity is uniform, the hydrostatic pressure is not.
  const pointsText = (await results.points().textContent()) ?? ''
  expect(Number(pointsText.replace(/\D/g, ''))).toBeGreaterThanOrEqual(PARTICLES / 2)

  const colourMap = page.getByRole('region', { name: 'Colour map' })
  await colourMap.getByLabel('Attribute').selectOption('pressure')
  const helper = await context.newPage()
  const drawn = await readImage(helper, await results.screenshot(), 'drawn')
  // Particles are drawn: a good part of the view is coloured by the rainbow scheme.
  expect(drawn.coloured / drawn.pixels).toBeGreaterThan(0.02)

  // Recoloured: another scheme moves the colour of the particles, uploading nothing new.
  await colourMap.getByRole('button', { name: 'Colour scheme' }).click()
  await page.getByRole('option', { name: 'Blue brightness', exact: true }).click()
  await expectImageChange(helper, results, drawn)
  const recoloured = await readImage(helper, await results.screenshot(), 'recoloured')
  const meanShift = Math.max(...drawn.mean.map((value, c) => Math.abs(value - recoloured.mean[c]!)))
  expect(meanShift).toBeGreaterThan(20)

  // Clipped at the middle of the 4 m tank along x, then the other half.
  const clipDialog = page.getByRole('dialog', { name: 'Clip' })
  await page.getByRole('button', { name: 'Clip', exact: true }).click()
  await clipDialog.getByRole('switch', { name: 'Clipping plane' }).check()
  await clipDialog.getByLabel('Offset (m)').fill('2')
  // The dialog sits over the view: closed before reading pixels.
  await page.keyboard.press('Escape')
  await expectImageChange(helper, results, recoloured)
  const clipped = await readImage(helper, await results.screenshot(), 'clipped')
  await page.getByRole('button', { name: 'Clip', exact: true }).click()
  await clipDialog.getByRole('switch', { name: 'Flipped' }).check()
  await page.keyboard.press('Escape')
  await expectImageChange(helper, results, clipped)

  // Played: the shown output advances, then pausing holds it.
  const timeline = page.getByRole('group', { name: 'Timeline' })
  await timeline.getByRole('button', { name: 'Faster' }).click()
  await timeline.getByRole('button', { name: 'Play' }).click()
  await expect(results.shownOutput()).not.toHaveText('Output 0', { timeout: 30_000 })
  await timeline.getByRole('button', { name: 'Pause' }).click()
  await expect(timeline.getByRole('button', { name: 'Play' })).toBeVisible()
  const held = await results.shownOutput().textContent()
  await page.waitForTimeout(1000)
  await expect(results.shownOutput()).toHaveText(held ?? '')
  await expect(page.getByTestId('timeline-label')).toContainText(held ?? '')
})

test('a missing output shows a clear error in the view and the page stays usable', async ({
  page,
  request,
}) => {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('playwright.config.ts sets E2E_DATA_DIR')
  const simulationId = await createSimulation(request)
  const [first] = await writeSyntheticRun({
    dataDir,
    simulationId,
    runId: RUN_ID,
    outputCount: 2,
    particles: 20_000,
  })
  await activateSyntheticRun(dataDir, simulationId, RUN_ID)
  // Output 1's fluid file is truncated after its manifest was written: a corrupt bundle.
  expect(first?.outputNo).toBe(0)
  await truncate(join(dataDir, objectFile(simulationId, RUN_ID, 1, 'fluid-0', 'full')), 1000)

  await new LoginPage(page).loginAs('manager')
  const results = new ResultsPage(page)
  await results.open(simulationId)
  await results.waitForDrawn()
  await page.getByRole('group', { name: 'Timeline' }).getByLabel('Output').fill('1')
  await expect(results.view.getByRole('alert')).toContainText('Output 1 could not be loaded', {
    timeout: 30_000,
  })
  // The last good frame stays: output 0 is still what is drawn.
  await expect(results.shownOutput()).toHaveText('Output 0')
  await expect(results.points()).not.toHaveText('0 points')
})
