/**
 * Where the time of playback from IndexedDB goes (issue 17 item 4): outputs of 1M particles (their
 * `fast` bundles, 5.4 MB, as playback loads) read from the product's output cache in 1, 4 and 12
 * workers at once, each worker one output at a time as a data worker does: `load` (the loader's
 * whole path: object list, payloads, decode) and `payloads` (only the read of the payloads, one
 * getMany), in outputs/s and MB/s beside what playback at speed 8 needs (24 outputs/s). A script,
 * not a bench case (it takes minutes):
 *
 *   npx tsx bench/browser/cacheReads.ts [--outputs 30] [--repeats 2]
 *
 * Same harness as the browser cases (bench/browser/harness.ts: production build, real server,
 * headless chromium); the load average is printed beside every line.
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { writeBundle } from '../../domain/output/writer.ts'
import { writeSyntheticOutput } from '../../domain/output/synthetic.ts'
import { disposeHarness, useHarness } from './harness.ts'
import type { CacheReadsRequest, FramesPageApi } from './page/api.ts'

const { values } = parseArgs({
  options: {
    outputs: { type: 'string', default: '30' },
    repeats: { type: 'string', default: '2' },
  },
})
const OUTPUT_COUNT = Math.max(4, Number(values.outputs))
const REPEATS = Math.max(1, Number(values.repeats))
const WORKER_COUNTS = [1, 4, 12]
const SPEED8_OUTPUTS_PER_S = 24

const log = (message: string) => console.error(message)
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')

const harness = await useHarness(log)
try {
  const outputs: { outputNo: number; bundleUrl: string }[] = []
  let bundleBytes = 0
  for (let outputNo = 0; outputNo < OUTPUT_COUNT; outputNo++) {
    const written = writeSyntheticOutput({
      particles: 1_000_000,
      timeS: 0.4 + outputNo * 0.05,
      outputNo,
      seed: outputNo + 1,
      simulationId: 3,
      runId: 1,
      volumeClip: false,
    })
    const bundle = writeBundle([...written.fast.values()])
    bundleBytes += bundle.byteLength
    outputs.push({
      outputNo,
      bundleUrl: harness.writeStaticFile(`cache-reads/out-${outputNo}.divb`, bundle),
    })
  }
  log(
    `${OUTPUT_COUNT} outputs of 1M written (${(bundleBytes / 1e6).toFixed(0)} MB of fast bundles)`,
  )
  const { context, page } = await harness.openBenchPage('frames')
  const read = (request: CacheReadsRequest) =>
    page.evaluate(
      (value) =>
        (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.readCachedOutputs(value),
      request,
    )
  try {
    await page.evaluate(() =>
      (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.deleteOutputCache(),
    )
    // Fill: every output fetched from the server and written to the cache by the loader.
    const fill = await read({ variant: 'load', simulationId: 3, runId: 1, workers: 4, outputs })
    log(
      `cache filled in ${(fill.elapsedMs / 1000).toFixed(1)} s (${fill.fromCache} from the cache)`,
    )
    for (let repeat = 0; repeat < REPEATS; repeat++)
      for (const workers of WORKER_COUNTS)
        for (const variant of ['payloads', 'load'] as const) {
          const result = await read({ variant, simulationId: 3, runId: 1, workers, outputs })
          if (result.fromCache !== OUTPUT_COUNT)
            throw new Error(`${OUTPUT_COUNT - result.fromCache} outputs were not in the cache`)
          const perSecond = OUTPUT_COUNT / (result.elapsedMs / 1000)
          const sorted = [...result.loadMs].sort((a, b) => a - b)
          const median = sorted[Math.floor(sorted.length / 2)] ?? 0
          console.log(
            `cacheReads.${variant}.workers${workers}: ${perSecond.toFixed(1)} outputs/s, ${(result.bytes / 1e6 / (result.elapsedMs / 1000)).toFixed(0)} MB/s (${(perSecond / SPEED8_OUTPUTS_PER_S).toFixed(2)} x speed 8's 24 outputs/s), median ${median.toFixed(0)} ms an output in a worker, load average ${load()}`,
          )
        }
  } finally {
    await context.close()
  }
} finally {
  await disposeHarness()
}
