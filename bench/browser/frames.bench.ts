/**
 * The real engine in headless chromium (engine/client.ts, the render worker, data workers caching
 * in IndexedDB) on a production build served by the real server: time to first frame (cold over
 * throttled loopback, warm IndexedDB, warm memory), detail switch, main-thread long tasks and heap,
 * and playback. Every figure is set against a floor measured in the same run: a raw IndexedDB read
 * of the same bytes, a bare three.js draw of the same points, the link's bandwidth.
 */
import type { Page } from 'playwright-core'
import { computeMedian, judgeAtLeast, judgeRatio } from '../lib/measure.ts'
import { buildSyntheticBundle, formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { disposeHarness, useHarness, type BenchHarness } from './harness.ts'
import type { BenchOutput, FramesPageApi, LongTaskRecord } from './page/api.ts'

/** The throttled link of the cold case: 94 Mbit/s. */
const LINK_BITS_PER_SECOND = 94e6
const VIEW_SIZE = { width: 800, height: 600 }
/** engine/protocol.ts MAX_BYTES_IN_FLIGHT. */
const MAX_BYTES_IN_FLIGHT = 1024 ** 3

function reportBytesInFlight(context: BenchContext, name: string, maxBytes: number): void {
  context.report({
    case: name,
    value: maxBytes / 1e6,
    unit: 'MB',
    ratio: maxBytes / MAX_BYTES_IN_FLIGHT,
    target: '<= 1 x 1 GiB',
    ok: maxBytes <= MAX_BYTES_IN_FLIGHT,
  })
}

type FramesPage = Page

function writeOutputs(
  harness: BenchHarness,
  particles: number,
  count: number,
): { outputs: BenchOutput[]; bundleBytes: number[] } {
  const outputs: BenchOutput[] = []
  const bundleBytes: number[] = []
  for (let outputNo = 0; outputNo < count; outputNo++) {
    const { bundle } = buildSyntheticBundle(particles, { outputNo })
    const bundleUrl = harness.writeStaticFile(
      `${formatCount(particles)}/out-${outputNo}.divb`,
      bundle,
    )
    outputs.push({
      outputNo,
      timeS: 0.4 + outputNo * 0.05,
      bundleUrl,
      estimatedBytes: bundle.byteLength,
    })
    bundleBytes.push(bundle.byteLength)
  }
  return { outputs, bundleBytes }
}

async function takeLongTasks(page: FramesPage): Promise<LongTaskRecord[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.takeLongTasks(),
  )
}

async function setLinkThrottle(page: FramesPage, bitsPerSecond: number | null): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: bitsPerSecond === null ? 0 : 1,
    downloadThroughput: bitsPerSecond === null ? -1 : bitsPerSecond / 8,
    uploadThroughput: bitsPerSecond === null ? -1 : bitsPerSecond / 8,
  })
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

async function runFirstFrame(context: BenchContext): Promise<void> {
  const particles = context.quick ? 200_000 : 5_000_000
  const label = formatCount(particles)
  const timeoutMs = context.quick ? 60_000 : 180_000
  const harness = await useHarness(context.log)
  const { outputs, bundleBytes } = writeOutputs(harness, particles, 2)
  const bundleSize = bundleBytes[0] ?? 0
  const { context: browserContext, page } = await harness.openBenchPage('frames')
  try {
    // Floors, same run: a raw IndexedDB read of the bundle's bytes and a bare draw of its points.
    const idb = await page.evaluate(
      (sizeBytes) =>
        (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.runIndexedDb({
          sizeBytes,
          runs: 2,
        }),
      bundleSize,
    )
    const rawReadMs = computeMedian(idb.rawGetMs)
    const bare = await page.evaluate(
      (request) =>
        (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.drawBare(request),
      {
        bundleUrl: outputs[0]!.bundleUrl,
        ...VIEW_SIZE,
      },
    )
    context.log(
      `floors: raw IndexedDB read of ${(bundleSize / 1e6).toFixed(1)} MB ${rawReadMs.toFixed(0)} ms, bare three.js draw of ${bare.points} points ${bare.drawMs.toFixed(0)} ms`,
    )
    context.report({
      case: `browser/floor.rawIndexedDbRead.${label}`,
      value: rawReadMs,
      unit: 'ms',
      ratio: null,
      target: null,
      ok: null,
    })
    context.report({
      case: `browser/floor.bareDraw.${label}`,
      value: bare.drawMs,
      unit: 'ms',
      ratio: null,
      target: null,
      ok: null,
    })

    await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.deleteOutputCache(),
    )
    await page.evaluate(
      (size) => (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.startEngine(size),
      VIEW_SIZE,
    )
    const show = (outputNo: number) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.showOutput(request),
        {
          simulationId: 1,
          runId: 1,
          outputs,
          outputNo,
          timeoutMs,
        },
      )

    // Cold: empty cache, 94 Mbit/s.
    await takeLongTasks(page)
    await setLinkThrottle(page, LINK_BITS_PER_SECOND)
    const cold = await show(0)
    await setLinkThrottle(page, null)
    if (cold.timedOut || cold.error !== null) {
      throw new Error(`The cold first frame did not come: ${cold.error ?? 'timed out'}`)
    }
    const linkMs = ((bundleSize * 8) / LINK_BITS_PER_SECOND) * 1000
    context.report({
      case: `browser/firstFrame.cold94Mbit.${label}`,
      value: cold.elapsedMs,
      unit: 'ms',
      ...judgeRatio(cold.elapsedMs, linkMs + bare.drawMs, null, '(link transfer + bare draw)'),
    })
    reportLongTasks(context, `browser/longTasks.load.${label}`, await takeLongTasks(page))
    reportBytesInFlight(context, `browser/bytesInFlight.load.${label}`, cold.maxBytesInFlight)
    const heapBytes = await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.readHeapBytes(),
    )
    if (heapBytes !== null) {
      context.report({
        case: `browser/heap.mainThread.afterLoad.${label}`,
        value: heapBytes / 1e6,
        unit: 'MB',
        ratio: heapBytes / bundleSize,
        target: null,
        ok: null,
      })
    }

    // Detail switch on the shown output.
    await takeLongTasks(page)
    const low = await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.setDetail('Low', 60_000),
    )
    const back = await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.setDetail('All', 60_000),
    )
    const detailMs = Math.max(low.elapsedMs, back.elapsedMs)
    context.report({
      case: `browser/detailSwitch.${label}`,
      value: detailMs,
      unit: 'ms',
      ...judgeRatio(detailMs, bare.drawMs, 1, 'one bare draw (within one frame)'),
    })
    reportLongTasks(context, `browser/longTasks.detailSwitch.${label}`, await takeLongTasks(page))

    // Colour range change on the shown output: uniforms only.
    await takeLongTasks(page)
    const recolour = await page.evaluate(
      (range) =>
        (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.setColourRange(
          range,
          60_000,
        ),
      { min: 0, max: 12_345 },
    )
    context.report({
      case: `browser/colourRangeChange.${label}`,
      value: recolour.elapsedMs,
      unit: 'ms',
      ...judgeRatio(recolour.elapsedMs, bare.drawMs, 1, 'one bare draw (within one frame)'),
    })
    reportLongTasks(
      context,
      `browser/longTasks.colourRangeChange.${label}`,
      await takeLongTasks(page),
    )

    // Warm memory: show another output, then the first again while it is still loaded.
    const second = await show(1)
    if (second.timedOut) context.log('output 1 did not show in time')
    const warmMemory = await show(0)
    context.report({
      case: `browser/firstFrame.warmMemory.${label}`,
      value: warmMemory.elapsedMs,
      unit: 'ms',
      ...judgeRatio(warmMemory.elapsedMs, bare.drawMs, null, 'bare draw'),
    })

    // Warm IndexedDB: a reload (new engine, new workers), the output read from the cache.
    const cachedBytes = await page.evaluate(
      (minBytes) =>
        (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.waitForCachedBytes(
          minBytes,
          60_000,
        ),
      Math.floor(bundleSize * 0.99),
    )
    if (cachedBytes < bundleSize * 0.99)
      context.log(`only ${cachedBytes} bytes cached before the reload`)
    await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.disposeEngine(),
    )
    await page.reload()
    await page.waitForFunction(() => 'diveBench' in globalThis)
    await page.evaluate(
      (size) => (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.startEngine(size),
      VIEW_SIZE,
    )
    await takeLongTasks(page)
    const warm = await show(0)
    const floorMs = 1.2 * (rawReadMs + bare.drawMs) + 100
    context.report({
      case: `browser/firstFrame.warmIndexedDb.${label}`,
      value: warm.elapsedMs,
      unit: 'ms',
      ratio: warm.elapsedMs / (rawReadMs + bare.drawMs),
      target: '<= 1.2 x (raw IndexedDB read + bare draw) + 100 ms',
      ok: !warm.timedOut && warm.elapsedMs <= floorMs,
    })
    context.report({
      case: `browser/firstFrame.coldOverWarmIndexedDb.${label}`,
      value: cold.elapsedMs / warm.elapsedMs,
      unit: 'x',
      ...judgeAtLeast(cold.elapsedMs / warm.elapsedMs, 1, 50, 'cache hit speed-up'),
    })
    reportLongTasks(context, `browser/longTasks.warmLoad.${label}`, await takeLongTasks(page))
    await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.disposeEngine(),
    )
  } finally {
    await browserContext.close()
  }
}

async function runPlayback(context: BenchContext): Promise<void> {
  const particles = context.quick ? 20_000 : 100_000
  const label = formatCount(particles)
  const speed = 1
  const durationMs = context.quick ? 4_000 : 20_000
  const harness = await useHarness(context.log)
  const { outputs } = writeOutputs(harness, particles, 10)
  const { context: browserContext, page } = await harness.openBenchPage('frames')
  try {
    await page.evaluate(
      (size) => (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.startEngine(size),
      VIEW_SIZE,
    )
    const first = await page.evaluate(
      (request) =>
        (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.showOutput(request),
      {
        simulationId: 2,
        runId: 1,
        outputs,
        outputNo: 0,
        timeoutMs: 60_000,
      },
    )
    if (first.timedOut || first.error !== null)
      throw new Error(`Output 0 did not show: ${first.error ?? 'timed out'}`)
    await takeLongTasks(page)
    const result = await page.evaluate(
      (request) => (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.play(request),
      { speed, durationMs },
    )
    const intervalMs = 1000 / (3 * speed)
    const startMs = result.shown[0]?.atMs ?? 0
    const steps = result.shown.slice(1)
    // A step is on time when it comes at most half an interval after its due time, counted from the
    // step before (a stall is late once; a slow but steady clock shows in outputs/s instead).
    const onTime = steps.filter(
      (step, index) => step.atMs - (result.shown[index]?.atMs ?? 0) <= 1.5 * intervalMs,
    ).length
    const outputsPerSecond = steps.length / ((result.durationMs - startMs) / 1000)
    context.report({
      case: `browser/playback.drawn.${label}.speed${speed}`,
      value: outputsPerSecond,
      unit: 'outputs/s',
      ...judgeAtLeast(outputsPerSecond, 3 * speed, 0.99, 'the spec rate (3 x speed)'),
    })
    context.report({
      case: `browser/playback.onTime.${label}.speed${speed}`,
      value: onTime / Math.max(1, steps.length),
      unit: 'ratio',
      ...judgeAtLeast(onTime / Math.max(1, steps.length), 1, 0.99, 'all on time'),
    })
    reportLongTasks(context, `browser/longTasks.playback.${label}`, await takeLongTasks(page))
    reportBytesInFlight(context, `browser/bytesInFlight.playback.${label}`, result.maxBytesInFlight)
    await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.disposeEngine(),
    )
  } finally {
    await browserContext.close()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'browser/firstFrame',
    description:
      'Time to first frame of a 5M-particle output through the real engine: cold at 94 Mbit/s, warm memory, warm IndexedDB (<= 1.2 x (raw IndexedDB read + bare draw) + 100 ms, >= 50 x faster than cold); detail switch (<= one bare draw); long tasks (== 0) and main-thread heap.',
    run: runFirstFrame,
  },
  {
    name: 'browser/playback',
    description:
      'Playback drawn end to end of 100k-particle outputs at speed 1: outputs/s (>= 0.99 x 3 outputs/s), on-time ratio (>= 0.99), long tasks (== 0).',
    run: runPlayback,
  },
]

export const disposeBench = disposeHarness
