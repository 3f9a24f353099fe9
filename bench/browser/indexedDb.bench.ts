/**
 * IndexedDB put/get MB/s in a worker of headless chromium (raw idb and the product's output cache)
 * for a payload the size of a 5M-particle bundle, with the main thread's long tasks and heap meanwhile.
 */
import { computeMedian, judgeAtLeast, measureStorageBandwidth, toMBps } from '../lib/measure.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { disposeHarness, useHarness } from './harness.ts'
import type { IndexedDbPageApi, IndexedDbBenchResult } from './page/api.ts'

/** The full-dataset bundle of the 5M synthetic output is 193.5 MB. */
const FULL_SIZE_BYTES = 193_500_000
const QUICK_SIZE_BYTES = 32_000_000

async function runIndexedDb(context: BenchContext): Promise<void> {
  const sizeBytes = context.quick ? QUICK_SIZE_BYTES : FULL_SIZE_BYTES
  const label = `${Math.round(sizeBytes / 1e6)}MB`
  const storage = measureStorageBandwidth()
  context.log(
    `storage (temp dir): write ${storage.writeMBps.toFixed(0)} MB/s with fsync, read ${storage.readMBps.toFixed(0)} MB/s`,
  )
  const harness = await useHarness(context.log)
  const { context: browserContext, page } = await harness.openBenchPage('indexedDb')
  try {
    await page.evaluate(() =>
      (globalThis as unknown as { diveBench: IndexedDbPageApi }).diveBench.takeLongTasks(),
    )
    const result: IndexedDbBenchResult = await page.evaluate(
      (request) =>
        (globalThis as unknown as { diveBench: IndexedDbPageApi }).diveBench.runIndexedDb(request),
      { sizeBytes, runs: context.quick ? 2 : 5 },
    )
    const { longTasks, heapBytes } = await page.evaluate(() => {
      const api = (globalThis as unknown as { diveBench: IndexedDbPageApi }).diveBench
      return { longTasks: api.takeLongTasks(), heapBytes: api.readHeapBytes() }
    })
    const rate = (samplesMs: number[]): number => toMBps(sizeBytes, computeMedian(samplesMs))
    const rawPut = rate(result.rawPutMs)
    const rawGet = rate(result.rawGetMs)
    const memcpy = rate(result.memcpyMs)
    context.log(`memcpy in the worker: ${memcpy.toFixed(0)} MB/s`)
    const report = (name: string, value: number, denominator: number): void =>
      context.report({
        case: `browser/indexedDb.${name}.${label}`,
        value,
        unit: 'MB/s',
        ratio: value / denominator,
        target: null,
        ok: null,
      })
    report('rawPut', rawPut, storage.writeMBps)
    report('rawGet', rawGet, storage.readMBps)
    report('cachePut', rate(result.cachePutMs), rawPut)
    const cacheGet = rate(result.cacheGetMs)
    context.report({
      case: `browser/indexedDb.cacheGet.${label}`,
      value: cacheGet,
      unit: 'MB/s',
      ...judgeAtLeast(cacheGet, rawGet, 0.8, 'raw IndexedDB read'),
    })
    context.report({
      case: `browser/longTasks.indexedDb.${label}`,
      value: longTasks.length,
      unit: 'count',
      ratio: null,
      target: '== 0 long tasks',
      ok: longTasks.length === 0,
    })
    if (heapBytes !== null) {
      context.report({
        case: `browser/heap.indexedDb.${label}`,
        value: heapBytes / 1e6,
        unit: 'MB',
        ratio: heapBytes / sizeBytes,
        target: null,
        ok: null,
      })
    }
  } finally {
    await browserContext.close()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'browser/indexedDb',
    description:
      'IndexedDB put/get of a 193.5 MB payload in a worker (raw vs storage bandwidth; output cache get >= 0.8 x raw get), main-thread long tasks (== 0) and heap meanwhile.',
    run: runIndexedDb,
  },
]

export const disposeBench = disposeHarness
