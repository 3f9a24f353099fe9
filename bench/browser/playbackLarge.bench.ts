/**
 * Playback of 1M-particle outputs through the real engine in headless chromium (issue 17 item 4):
 * speeds 1, 2, 4 and 8, from memory (the render worker holds the loop) and from IndexedDB (a fresh
 * engine whose data workers read the product's output cache), with the render worker's memory per
 * output. The playback rate is set against the spec's rate (3 × speed outputs/s) and the load
 * average is printed beside every figure (the 2 cores are shared).
 *
 * On-time (bench/README.md): a step is on time when it is drawn at most 1.5 intervals after the step
 * before. The engine's own count (`engineLate`: steps whose output was not in memory when due) is
 * printed on stderr beside it. Headless chromium draws on SwiftShader (about 1 µs a point), so the
 * run plays the product's playback dataset ('fast': 100k of each 1M output) at detail Low (10k points
 * drawn): the draw stays well inside a frame at speed 8 and the figure is the data path's.
 */
import { loadavg } from 'node:os'
import { writeBundle } from '../../domain/output/writer.ts'
import { writeSyntheticOutput } from '../../domain/output/synthetic.ts'
import { judgeAtLeast } from '../lib/measure.ts'
import { formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { disposeHarness, useHarness, type BenchHarness } from './harness.ts'
import type {
  BenchOutput,
  FramesPageApi,
  LongTaskRecord,
  PlaybackRunRequest,
  PlaybackRunResult,
} from './page/api.ts'

const VIEW_SIZE = { width: 640, height: 480 }
const SPEEDS = [1, 2, 4, 8] as const
/** Warm-up loops at most, until the render worker holds every output. */
const WARM_UP_LOOPS = 5
/** The output cache is warm when it holds this share of the bundles' bytes (payloads without headers). */
const CACHED_SHARE = 0.98

type Page = Awaited<ReturnType<BenchHarness['openBenchPage']>>['page']

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')
}

/** Outputs of `particles` each, written as bundles of their `fast` dataset (what playback loads). */
function writeOutputs(harness: BenchHarness, particles: number, count: number): BenchOutput[] {
  const outputs: BenchOutput[] = []
  for (let outputNo = 0; outputNo < count; outputNo++) {
    const written = writeSyntheticOutput({
      particles,
      timeS: 0.4 + outputNo * 0.05,
      outputNo,
      seed: outputNo + 1,
      simulationId: 3,
      runId: 1,
      volumeClip: false,
    })
    const bundle = writeBundle([...written.fast.values()])
    const bundleUrl = harness.writeStaticFile(
      `playback-${formatCount(particles)}/out-${outputNo}.divb`,
      bundle,
    )
    outputs.push({
      outputNo,
      timeS: 0.4 + outputNo * 0.05,
      bundleUrl,
      estimatedBytes: bundle.byteLength,
    })
  }
  return outputs
}

/** The page's API, one call at a time (page.evaluate serializes each function on its own). */
function pageApi(page: Page) {
  type Api = FramesPageApi
  return {
    startEngine: (size: typeof VIEW_SIZE) =>
      page.evaluate(
        (value) => (globalThis as unknown as { diveBench: Api }).diveBench.startEngine(value),
        size,
      ),
    showOutput: (request: Parameters<Api['showOutput']>[0]) =>
      page.evaluate(
        (value) => (globalThis as unknown as { diveBench: Api }).diveBench.showOutput(value),
        request,
      ),
    setOutputs: (request: Parameters<Api['setOutputs']>[0]) =>
      page.evaluate(
        (value) => (globalThis as unknown as { diveBench: Api }).diveBench.setOutputs(value),
        request,
      ),
    playFor: (request: PlaybackRunRequest) =>
      page.evaluate(
        (value) => (globalThis as unknown as { diveBench: Api }).diveBench.playFor(value),
        request,
      ),
    waitForLoaded: (count: number, timeoutMs: number) =>
      page.evaluate(
        ([value, ms]) =>
          (globalThis as unknown as { diveBench: Api }).diveBench.waitForLoaded(value, ms),
        [count, timeoutMs] as const,
      ),
    measureMemory: (timeoutMs: number) =>
      page.evaluate(
        (ms) =>
          (globalThis as unknown as { diveBench: Api }).diveBench.measureRenderWorkerMemory(ms),
        timeoutMs,
      ),
    takeLongTasks: (): Promise<LongTaskRecord[]> =>
      page.evaluate(() => (globalThis as unknown as { diveBench: Api }).diveBench.takeLongTasks()),
    disposeEngine: () =>
      page.evaluate(() => (globalThis as unknown as { diveBench: Api }).diveBench.disposeEngine()),
    deleteOutputCache: () =>
      page.evaluate(() =>
        (globalThis as unknown as { diveBench: Api }).diveBench.deleteOutputCache(),
      ),
    countCacheFiles: () =>
      page.evaluate(() =>
        (globalThis as unknown as { diveBench: Api }).diveBench.countCacheFiles(),
      ),
    waitForCachedBytes: (minBytes: number, timeoutMs: number) =>
      page.evaluate(
        ([bytes, ms]) =>
          (globalThis as unknown as { diveBench: Api }).diveBench.waitForCachedBytes(bytes, ms),
        [minBytes, timeoutMs] as const,
      ),
  }
}

/**
 * Steps drawn at most 1.5 intervals after the step before, and outputs/s: the steps over the time
 * from the first output on screen to the last step drawn. Counting them over the whole run instead
 * read a perfect player low (10 s at speed 1 holds 29 whole steps after a first one 4 ms late:
 * 0.967 × the rate); a player that stops drawing early is still charged the whole run.
 */
function judgeRun(result: PlaybackRunResult, speed: number) {
  const intervalMs = 1000 / (3 * speed)
  const startMs = result.shown[0]?.atMs ?? 0
  const steps = result.shown.slice(1)
  const onTime = steps.filter(
    (step, index) => step.atMs - (result.shown[index]?.atMs ?? 0) <= 1.5 * intervalMs,
  ).length
  const lastMs = steps.at(-1)?.atMs ?? startMs
  const drewToTheEnd = lastMs >= result.durationMs - 1.5 * intervalMs
  const spanMs = (drewToTheEnd ? lastMs : result.durationMs) - startMs
  return {
    steps: steps.length,
    onTime: onTime / Math.max(1, steps.length),
    outputsPerSecond: spanMs > 0 ? steps.length / (spanMs / 1000) : 0,
  }
}

function report(
  context: BenchContext,
  name: string,
  speed: number,
  result: PlaybackRunResult,
): void {
  const judged = judgeRun(result, speed)
  const engine = result.engineSteps
  const firstStepMs = (result.shown[1]?.atMs ?? NaN) - (result.shown[0]?.atMs ?? NaN)
  context.log(
    `${name}: ${judged.steps} steps drawn, the first ${firstStepMs.toFixed(0)} ms after the output on screen at play (interval ${(1000 / (3 * speed)).toFixed(0)} ms), engine steps ${engine?.shown ?? '?'} (not in memory when due: ${engine?.late ?? '?'}), ${result.loadedOutputs} outputs held (${((result.heldBytes ?? 0) / 1e6).toFixed(0)} MB of a ${((result.budgetBytes ?? 0) / 1e6).toFixed(0)} MB budget), load average ${load()}`,
  )
  context.report({
    case: `${name}.drawn`,
    value: judged.outputsPerSecond,
    unit: 'outputs/s',
    ...judgeAtLeast(judged.outputsPerSecond, 3 * speed, 0.99, 'the spec rate (3 x speed)'),
  })
  context.report({
    case: `${name}.onTime`,
    value: judged.onTime,
    unit: 'ratio',
    ...judgeAtLeast(judged.onTime, 1, 0.99, 'all on time'),
  })
}

async function runPlaybackLarge(context: BenchContext): Promise<void> {
  const particles = context.quick ? 200_000 : 1_000_000
  const count = context.quick ? 30 : 60
  const label = formatCount(particles)
  const harness = await useHarness(context.log)
  const outputs = writeOutputs(harness, particles, count)
  context.log(
    `${count} outputs of ${label} written (fast bundles of ${(outputs[0]!.estimatedBytes / 1e6).toFixed(1)} MB), load average ${load()}`,
  )
  const { context: browserContext, page } = await harness.openBenchPage('frames')
  const run: { simulationId: number; runId: number; outputs: BenchOutput[] } = {
    simulationId: 3,
    runId: 1,
    outputs,
  }
  const api = pageApi(page)
  const start = async () => {
    await api.startEngine(VIEW_SIZE)
    await api.setOutputs(run)
  }
  const play = (request: PlaybackRunRequest) => api.playFor(request)
  const longTasks = () => api.takeLongTasks()
  try {
    await api.deleteOutputCache()
    await start()
    const baseline = await api.measureMemory(30_000)
    // Warm-up: loops from the server fill the render worker's memory and the output cache; on a
    // loaded machine one loop does not load every output, so it plays until the loop is held.
    const warmUp = async (why: string): Promise<number> => {
      let held = 0
      for (let loop = 1; loop <= WARM_UP_LOOPS && held < count; loop++) {
        const warm = await play({
          speed: 8,
          durationMs: (count / 24) * 1000 + 2000,
          dataset: 'fast',
          detail: 'Low',
        })
        held = await api.waitForLoaded(count, 5000)
        context.log(
          `${why} loop ${loop}: ${warm.shown.length} outputs drawn, ${held} of ${count} held, load average ${load()}`,
        )
      }
      return held
    }
    const loaded = await warmUp('warm-up')
    const held = await api.measureMemory(30_000)
    if (held.renderWorkerBytes !== null && baseline.renderWorkerBytes !== null && loaded > 0) {
      const perOutput = (held.renderWorkerBytes - baseline.renderWorkerBytes) / loaded
      context.report({
        case: `browser/playback.renderWorkerMemoryPerOutput.${label}`,
        value: perOutput / 1e6,
        unit: 'MB',
        ratio: perOutput / outputs[0]!.estimatedBytes,
        target: null,
        ok: null,
      })
      context.log(
        `render worker: ${(baseline.renderWorkerBytes / 1e6).toFixed(0)} MB empty, ${(held.renderWorkerBytes / 1e6).toFixed(0)} MB holding ${loaded} outputs (ratio: per output / its bundle)`,
      )
    } else context.log(`render worker memory: ${held.note ?? baseline.note ?? 'not measured'}`)

    // Paused outputs are freed after 10 s unused (spec §9) and the measurement above can take
    // longer: hold the loop again, so that the memory runs play from memory.
    await warmUp('before the memory runs,')
    await longTasks()
    for (const speed of SPEEDS) {
      const result = await play({
        speed,
        durationMs: context.quick ? 3000 : speed === 1 ? 10_000 : 8000,
        dataset: 'fast',
        detail: 'Low',
      })
      report(context, `browser/playback.memory.${label}.speed${speed}`, speed, result)
      if (speed === 1 && result.heldBytes !== null && result.loadedOutputs > 0) {
        // The engine's own count: column and mesh bytes of the outputs it holds, per output.
        const perOutput = result.heldBytes / result.loadedOutputs
        context.report({
          case: `browser/playback.heldBytesPerOutput.${label}`,
          value: perOutput / 1e6,
          unit: 'MB',
          ratio: perOutput / outputs[0]!.estimatedBytes,
          target: null,
          ok: null,
        })
      }
    }
    const memoryTasks = await longTasks()
    context.report({
      case: `browser/longTasks.playback.memory.${label}`,
      value: memoryTasks.length,
      unit: 'count',
      ratio: null,
      target: '== 0 long tasks',
      ok: memoryTasks.length === 0,
    })

    // From the cache: a fresh engine per speed (its memory empty), the cache warm (every output's
    // payloads written: checked, so that no run loads from the server); one loop at most. As a
    // user does, play is pressed on a page that shows its first output (of the played dataset,
    // the bundles hold no other), not while the engine is still starting.
    const bundleBytes = outputs.reduce((sum, output) => sum + output.estimatedBytes, 0)
    const cachedBytes = await api.waitForCachedBytes(CACHED_SHARE * bundleBytes, 120_000)
    const stored = await api.countCacheFiles()
    context.log(
      `output cache: ${(cachedBytes / 1e6).toFixed(0)} MB of the bundles' ${(bundleBytes / 1e6).toFixed(0)} MB, ${stored.records} payloads, ${stored.files} files in OPFS`,
    )
    for (const speed of SPEEDS) {
      await api.disposeEngine()
      await api.startEngine(VIEW_SIZE)
      const first = await api.showOutput({
        ...run,
        outputNo: 0,
        timeoutMs: 30_000,
        dataset: 'fast',
      })
      context.log(
        `fresh engine: output 0 drawn ${first.elapsedMs.toFixed(0)} ms after it was asked for${first.error === null ? '' : ` (${first.error})`}`,
      )
      const loopMs = (count / (3 * speed)) * 1000
      const result = await play({
        speed,
        durationMs: context.quick ? Math.min(3000, loopMs * 0.9) : Math.min(10_000, loopMs * 0.9),
        dataset: 'fast',
        detail: 'Low',
      })
      report(context, `browser/playback.indexedDb.${label}.speed${speed}`, speed, result)
    }
    const idbTasks = await longTasks()
    context.report({
      case: `browser/longTasks.playback.indexedDb.${label}`,
      value: idbTasks.length,
      unit: 'count',
      ratio: null,
      target: '== 0 long tasks',
      ok: idbTasks.length === 0,
    })
    await api.disposeEngine()
  } finally {
    await browserContext.close()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'browser/playbackLarge',
    description:
      'Playback of 60 outputs of 1M particles (their fast dataset, drawn at detail Low) at speeds 1, 2, 4, 8 from memory and from IndexedDB: outputs/s (>= 0.99 x 3 x speed), on-time (>= 0.99), render-worker memory per output, long tasks (== 0).',
    run: runPlaybackLarge,
  },
]

export const disposeBench = disposeHarness
