/**
 * The Monitor dashboard during a run: 12 graph tiles (the product's grid and chart.js tiles) over
 * a run log that grows at every refresh, refreshed every 10 s as the product polls (every 2 s with
 * --quick). Each refresh fetches the log graphs reply the server makes of the log so far
 * (buildLogGraphs, as GET /simulations/{id}/log_graphs) and parses it on the page's main thread.
 * Figures: main-thread long tasks (target 0) and the time from a refresh's fetch to all 12 charts
 * drawn. Measured here (2026-11-27, load 15-18 on 2 cores): before, with the whole log in the page
 * and chart.js on the main thread, 4 long tasks of 54-112 ms in 6 refreshes, median 360 ms; with
 * server-thinned log graphs and the chart worker, 0 long tasks, median 158 ms.
 *
 * The second case does the same while results playback runs in another tab of the same browser
 * (the real engine of bench/browser/page/frames.html: render worker, data workers, synthetic
 * outputs at 3 outputs/s): the chart worker, the render worker and the data workers share the
 * cores, and the dashboard's main thread must still see no long task. Measured here (2026-11-27,
 * load 16-17 on 2 cores): 6 refreshes, 0 long tasks on the dashboard (and 0 on the results tab),
 * refresh to drawn median 109 ms, the playback at 2.92 outputs/s meanwhile; the case without
 * playback in the same run: 0 long tasks, median 198 ms.
 */
import type { Page } from 'playwright-core'
import { buildLogGraphs, type LogGraphLine } from '../../domain/logGraphs.ts'
import { computeMedian } from '../lib/measure.ts'
import { buildSyntheticBundle, formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { disposeHarness, useHarness, type BenchHarness } from './harness.ts'
import type { BenchOutput, FramesPageApi, PlaybackResult } from './page/api.ts'
import type {
  DashboardMountRequest,
  DashboardPageApi,
  DashboardRunRequest,
} from './page/dashboardApi.ts'

const TILES = 12
/** The product's graph refresh (spec §9: graphs 10 s). */
const REFRESH_MS = 10_000

/** A run's log lines: one a second of wall time, 1 ms simulated each, runtime bumps at outputs. */
function buildLogLines(count: number): LogGraphLine[] {
  return Array.from({ length: count }, (_, n) => ({
    time: n,
    runtime: n * 300 + (n % 50 === 0 ? 900 : 0),
    particles: 1_000_000 - Math.floor(n / 100),
    dt: 1e-3 * (1 + 0.1 * Math.sin(n / 20)),
    progress: Math.min(1, n / 10_000),
  }))
}

/** Writes the log graphs reply of the log's first `lines` lines; returns its URL. */
function writeLogGraphs(harness: BenchHarness, log: LogGraphLine[], lines: number): string {
  const reply = { runId: 1, lineCount: lines, graphs: buildLogGraphs(log.slice(0, lines)) }
  return harness.writeStaticFile(
    `dashboard/log-graphs-${lines}.json`,
    new TextEncoder().encode(JSON.stringify(reply)),
  )
}

function pageApi(page: Page) {
  return {
    mount: (request: DashboardMountRequest) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: DashboardPageApi }).diveBench.mount(request),
        request,
      ),
    run: (request: DashboardRunRequest) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: DashboardPageApi }).diveBench.run(request),
        request,
      ),
    takeLongTasks: () =>
      page.evaluate(() =>
        (globalThis as unknown as { diveBench: DashboardPageApi }).diveBench.takeLongTasks(),
      ),
  }
}

/** Results playback in its own tab while the dashboard refreshes: the frames page's engine. */
interface Playback {
  /** Resolves with what the playback showed once it has played `durationMs`. */
  done: Promise<PlaybackResult>
  takeLongTasks: () => Promise<{ durationMs: number }[]>
  close: () => Promise<void>
}

/** Outputs the playback loops over, and their particles (the frames bench's playback size). */
const PLAYBACK_OUTPUTS = 10

async function startPlayback(
  harness: BenchHarness,
  particles: number,
  durationMs: number,
): Promise<Playback> {
  const outputs: BenchOutput[] = Array.from({ length: PLAYBACK_OUTPUTS }, (_, outputNo) => {
    const { bundle } = buildSyntheticBundle(particles, { outputNo })
    return {
      outputNo,
      timeS: 0.4 + outputNo * 0.05,
      bundleUrl: harness.writeStaticFile(
        `dashboard-playback/${formatCount(particles)}/out-${outputNo}.divb`,
        bundle,
      ),
      estimatedBytes: bundle.byteLength,
    }
  })
  const { context, page } = await harness.openBenchPage('frames')
  await page.evaluate(
    (size) => (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.startEngine(size),
    { width: 800, height: 600 },
  )
  const first = await page.evaluate(
    (request) =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.showOutput(request),
    { simulationId: 2, runId: 1, outputs, outputNo: 0, timeoutMs: 60_000 },
  )
  if (first.timedOut || first.error !== null)
    throw new Error(`Playback: output 0 did not show: ${first.error ?? 'timed out'}`)
  await page.evaluate(() =>
    (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.takeLongTasks(),
  )
  const done = page.evaluate(
    (request) => (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.play(request),
    { speed: 1, durationMs },
  )
  return {
    done,
    takeLongTasks: () =>
      page.evaluate(() =>
        (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.takeLongTasks(),
      ),
    close: () => context.close(),
  }
}

async function runDashboard(context: BenchContext, withPlayback = false): Promise<void> {
  const updates = context.quick ? 3 : 6
  const intervalMs = context.quick ? 2_000 : REFRESH_MS
  const linesPerUpdate = 500
  const startLines = context.quick ? 1_000 : 5_000
  const harness = await useHarness(context.log)
  const endLines = startLines + updates * linesPerUpdate
  const log = buildLogLines(endLines)
  const mountUrl = writeLogGraphs(harness, log, startLines)
  const urls = Array.from({ length: updates }, (_, update) =>
    writeLogGraphs(harness, log, startLines + (update + 1) * linesPerUpdate),
  )
  const { context: browserContext, page } = await harness.openBenchPage('dashboard')
  let playback: Playback | null = null
  try {
    await page.setViewportSize({ width: 1600, height: 1000 })
    const api = pageApi(page)
    const mountMs = await api.mount({ tiles: TILES, url: mountUrl })
    if (mountMs < 0) throw new Error('The graph tiles did not draw in time.')
    context.log(`${TILES} graph tiles of ${startLines} log lines drawn in ${mountMs.toFixed(0)} ms`)
    // The grid measures its width and the charts fit it after the first draw: let that settle.
    await page.waitForTimeout(2_000)
    const mountTasks = await api.takeLongTasks()
    if (mountTasks.length > 0)
      context.log(
        `mount: ${mountTasks.length} long tasks, longest ${Math.max(...mountTasks.map((t) => t.durationMs)).toFixed(0)} ms (not counted: the page opening and first layout)`,
      )
    if (withPlayback) {
      const particles = context.quick ? 20_000 : 100_000
      // Plays through the refreshes and a little past them.
      playback = await startPlayback(harness, particles, updates * intervalMs + 3_000)
      // Its first steps load outputs: let the playback reach its pace before the refreshes.
      await page.waitForTimeout(2_000)
      await api.takeLongTasks()
      context.log(`results playback of ${formatCount(particles)} particles running in another tab`)
    }
    const result = await api.run({ urls, intervalMs })
    await page.waitForTimeout(500)
    const tasks = await api.takeLongTasks()
    if (playback) {
      const played = await playback.done
      const steps = played.shown.length - 1
      const startMs = played.shown[0]?.atMs ?? 0
      const playbackTasks = await playback.takeLongTasks()
      context.log(
        `playback meanwhile: ${(steps / ((played.durationMs - startMs) / 1000)).toFixed(2)} outputs/s (spec 3), ${playbackTasks.length} long tasks on the results tab's main thread`,
      )
    }
    const longest = tasks.reduce((max, task) => Math.max(max, task.durationMs), 0)
    context.log(
      `${updates} refreshes every ${intervalMs / 1000} s up to ${endLines} lines: update to drawn ${result.updateMs.map((ms) => ms.toFixed(0)).join(', ')} ms; draws per refresh ${result.drawsPerUpdate.join(', ')}; ${tasks.length} long tasks${tasks.length > 0 ? `, longest ${longest.toFixed(0)} ms` : ''}`,
    )
    context.log(
      `${result.drawMs.length} chart draws: median ${computeMedian(result.drawMs).toFixed(1)} ms, max ${Math.max(0, ...result.drawMs).toFixed(1)} ms; ${result.pointsDrawn} points in the first tile`,
    )
    for (const task of tasks) {
      const since = result.refreshStartsMs.filter((start) => start <= task.startMs).at(-1)
      context.log(
        `long task of ${task.durationMs.toFixed(0)} ms ${since === undefined ? 'before the first refresh' : `${(task.startMs - since).toFixed(0)} ms after a refresh`}`,
      )
    }
    context.report({
      case: `browser/longTasks.dashboard.${TILES}graphs${withPlayback ? '.duringPlayback' : ''}`,
      value: tasks.length,
      unit: 'count',
      ratio: null,
      target: '== 0 long tasks',
      ok: tasks.length === 0,
    })
    context.report({
      case: `browser/dashboard.refreshToDrawn.${TILES}graphs.${endLines}lines${withPlayback ? '.duringPlayback' : ''}`,
      value: computeMedian(result.updateMs),
      unit: 'ms',
      ratio: null,
      target: null,
      ok: null,
    })
    if (result.updateMs.some((ms) => ms < 0))
      throw new Error('A refresh was not drawn by every graph tile within 30 s.')
  } finally {
    await playback?.close()
    await browserContext.close()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'browser/dashboard',
    description:
      'Monitor dashboard of 12 chart.js graph tiles while the run log grows and refreshes every 10 s (2 s with --quick): main-thread long tasks (== 0), refresh to all charts drawn (reports).',
    run: (context) => runDashboard(context),
  },
  {
    name: 'browser/dashboard.duringPlayback',
    description:
      'The same 12 graph tiles refreshing while results playback (the real engine, 100,000 particles, 3 outputs/s) runs in another tab: dashboard main-thread long tasks (== 0).',
    run: (context) => runDashboard(context, true),
  },
]

export const disposeBench = disposeHarness
