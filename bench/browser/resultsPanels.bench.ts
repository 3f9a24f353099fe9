/**
 * The Results panels under load: the product's 3D view plays 1M-particle synthetic outputs (real
 * engine, render and data workers) while statistics results keep arriving for a chart of 5 series
 * × 100 outputs (the product's chart windows, chart.js) with the time indicator following the
 * shown output. Figures: main-thread long tasks (target 0), main-thread frame intervals, the time
 * from a statistics result to chart.js having drawn it, and playback rate.
 */
import type { Page } from 'playwright-core'
import { computeMedian, judgeAtLeast, judgeRatio } from '../lib/measure.ts'
import { buildSyntheticBundle, formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { disposeHarness, useHarness } from './harness.ts'
import type { BenchOutput, LongTaskRecord } from './page/api.ts'
import type { ResultsPanelsPageApi } from './page/resultsPanelsApi.ts'

/** Wide enough for the docked chart panel (below 1700 px it is forced minimized). */
const PAGE_SIZE = { width: 1800, height: 1100 }
const VIEW_SIZE = { width: 1000, height: 520 }
/** One frame at 60 Hz, ms: what a chart update should fit in. */
const FRAME_MS = 1000 / 60
const SERIES = 5
const POINTS = 100

function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN
}

type PanelsPage = Page

function pageApi(page: PanelsPage) {
  return {
    mount: (size: { width: number; height: number }) =>
      page.evaluate(
        (size) =>
          (globalThis as unknown as { diveBench: ResultsPanelsPageApi }).diveBench.mount(size),
        size,
      ),
    showOutput: (request: Parameters<ResultsPanelsPageApi['showOutput']>[0]) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: ResultsPanelsPageApi }).diveBench.showOutput(
            request,
          ),
        request,
      ),
    plotDatasets: (request: Parameters<ResultsPanelsPageApi['plotDatasets']>[0]) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: ResultsPanelsPageApi }).diveBench.plotDatasets(
            request,
          ),
        request,
      ),
    run: (request: Parameters<ResultsPanelsPageApi['run']>[0]) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: ResultsPanelsPageApi }).diveBench.run(request),
        request,
      ),
    takeLongTasks: () =>
      page.evaluate(() =>
        (globalThis as unknown as { diveBench: ResultsPanelsPageApi }).diveBench.takeLongTasks(),
      ),
  }
}

function reportLongTasks(context: BenchContext, name: string, tasks: LongTaskRecord[]): void {
  const longest = tasks.reduce((max, task) => Math.max(max, task.durationMs), 0)
  if (tasks.length > 0)
    context.log(`${name}: ${tasks.length} long tasks, longest ${longest.toFixed(0)} ms`)
  context.report({
    case: name,
    value: tasks.length,
    unit: 'count',
    ratio: null,
    target: '== 0 long tasks',
    ok: tasks.length === 0,
  })
}

async function runResultsPanels(context: BenchContext): Promise<void> {
  const particles = context.quick ? 100_000 : 1_000_000
  const outputCount = context.quick ? 3 : 5
  const durationMs = context.quick ? 4_000 : 15_000
  const speed = 1
  const label = formatCount(particles)
  const harness = await useHarness(context.log)
  const outputs: BenchOutput[] = []
  for (let outputNo = 0; outputNo < outputCount; outputNo++) {
    const { bundle } = buildSyntheticBundle(particles, { outputNo })
    outputs.push({
      outputNo,
      timeS: outputNo * 0.05,
      bundleUrl: harness.writeStaticFile(`panels/${label}/out-${outputNo}.divb`, bundle),
      estimatedBytes: bundle.byteLength,
    })
  }
  const { context: browserContext, page } = await harness.openBenchPage('resultsPanels')
  try {
    await page.setViewportSize(PAGE_SIZE)
    const api = pageApi(page)
    await api.mount(VIEW_SIZE)
    const firstMs = await api.showOutput({
      simulationId: 7,
      runId: 1,
      outputs,
      outputNo: 0,
      timeoutMs: 120_000,
    })
    if (firstMs < 0) throw new Error('Output 0 was not drawn in time.')
    context.log(`output 0 of ${label} drawn in ${firstMs.toFixed(0)} ms`)

    const series = `${SERIES}x${POINTS}`
    await api.takeLongTasks()
    const firstDrawMs = await api.plotDatasets({ datasets: SERIES, points: POINTS })
    // Long-task entries reach the observer a little after the task: let them land in this phase.
    await page.waitForTimeout(500)
    reportLongTasks(
      context,
      `browser/longTasks.chartFirstDraw.${series}`,
      await api.takeLongTasks(),
    )
    context.report({
      case: `browser/resultsPanels.chartFirstDraw.${series}`,
      value: firstDrawMs,
      unit: 'ms',
      ...judgeRatio(firstDrawMs, FRAME_MS, null, 'one 60 fps frame'),
    })

    const result = await api.run({ speed, durationMs, statisticsIntervalMs: 250 })
    const tasks = await api.takeLongTasks()
    reportLongTasks(context, `browser/longTasks.resultsPanels.${label}`, tasks)
    const overlaps = (
      task: LongTaskRecord,
      span: { startMs: number; durationMs: number },
    ): boolean =>
      task.startMs + task.durationMs >= span.startMs &&
      task.startMs <= span.startMs + (Number.isFinite(span.durationMs) ? span.durationMs : 0)
    for (const task of tasks) {
      const update = result.chartUpdates.find((span) => overlaps(task, span))
      const draw = result.chartDraws.find((span) => overlaps(task, span))
      context.log(
        `long task of ${task.durationMs.toFixed(0)} ms at ${task.startMs.toFixed(0)} ms: ${update ? `during a chart update (${update.durationMs.toFixed(0)} ms to drawn)` : 'no chart update then'}, ${draw ? `a chart draw of ${draw.durationMs.toFixed(0)} ms in it` : 'no chart draw in it'}`,
      )
    }
    const drawMs = result.chartDraws.map((draw) => draw.durationMs)
    context.log(
      `${drawMs.length} chart draws: median ${computeMedian(drawMs).toFixed(1)} ms, max ${Math.max(0, ...drawMs).toFixed(1)} ms`,
    )
    const medianFrameMs = computeMedian(result.frameIntervalsMs)
    const p95FrameMs = percentile(result.frameIntervalsMs, 0.95)
    const maxFrameMs = Math.max(...result.frameIntervalsMs)
    context.log(
      `${result.frameIntervalsMs.length} main-thread frames in ${(result.durationMs / 1000).toFixed(1)} s: median ${medianFrameMs.toFixed(1)} ms, p95 ${p95FrameMs.toFixed(1)} ms, max ${maxFrameMs.toFixed(1)} ms; ${result.chartUpdateMs.length} chart updates, ${result.indicatorDraws} indicator redraws`,
    )
    context.report({
      case: `browser/resultsPanels.frameInterval.median.${label}`,
      value: medianFrameMs,
      unit: 'ms',
      ...judgeRatio(medianFrameMs, FRAME_MS, null, 'one 60 fps frame'),
    })
    context.report({
      case: `browser/resultsPanels.frameInterval.p95.${label}`,
      value: p95FrameMs,
      unit: 'ms',
      ...judgeRatio(p95FrameMs, FRAME_MS, null, 'one 60 fps frame'),
    })
    context.report({
      case: `browser/resultsPanels.frameInterval.max.${label}`,
      value: maxFrameMs,
      unit: 'ms',
      ...judgeRatio(maxFrameMs, FRAME_MS, null, 'one 60 fps frame'),
    })
    const chartUpdateMs = computeMedian(result.chartUpdateMs)
    context.report({
      case: `browser/resultsPanels.chartUpdate.${series}`,
      value: chartUpdateMs,
      unit: 'ms',
      ...judgeRatio(chartUpdateMs, FRAME_MS, 1, 'one 60 fps frame'),
    })
    const startMs = result.shown[0]?.atMs ?? 0
    const steps = Math.max(0, result.shown.length - 1)
    const outputsPerSecond = steps / ((result.durationMs - startMs) / 1000)
    context.report({
      case: `browser/resultsPanels.playback.drawn.${label}.speed${speed}`,
      value: outputsPerSecond,
      unit: 'outputs/s',
      ...judgeAtLeast(outputsPerSecond, 3 * speed, 0.99, 'the spec rate (3 x speed)'),
    })
  } finally {
    await browserContext.close()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'browser/resultsPanels',
    description:
      'Results view playing 1M-particle outputs while 5 chart series x 100 outputs update every 250 ms (chart.js, time indicator on): main-thread long tasks (== 0), frame intervals (reports, vs a 60 fps frame), statistics result to chart drawn (<= one frame), playback outputs/s (>= 0.99 x 3 x speed).',
    run: runResultsPanels,
  },
]

export const disposeBench = disposeHarness
