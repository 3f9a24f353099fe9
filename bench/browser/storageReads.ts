/**
 * Read rate of the browser's storage for the payloads playback reads (issue 17 item 4): payloads of
 * 5.4 MB (a 1M output's `fast` bundle) read whole in 1 and 4 workers at once, each worker one payload
 * at a time: from the product's output cache with its bytes in IndexedDB (64 MB chunks, as it keeps
 * them without OPFS) and in OPFS files (`cacheFiles`, as a data worker opens it), and from an OPFS
 * file read directly through a sync access handle (`createSyncAccessHandle`, read into an
 * ArrayBuffer) and through `getFile().arrayBuffer()`. Variants alternate within each repeat, in one
 * page, so a busy machine slows them alike. Prints first what this chromium's OPFS allows, and
 * checks the product's cache on OPFS there (`check …: ok`; exit code 1 otherwise). A script, not a
 * bench case:
 *
 *   npx tsx bench/browser/storageReads.ts [--payloads 60] [--repeats 3] [--persistent]
 *
 * Playwright's `browser.newContext()` (what the bench cases use) is an off-the-record profile, whose
 * storage chromium may keep in memory; `--persistent` runs the page in a profile on disk instead
 * (launchPersistentContext in a temporary directory), as a user's browser is.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { BENCH_CHROMIUM_ARGS, disposeHarness, useHarness } from './harness.ts'
import type { IndexedDbPageApi, StorageReadsRequest, StorageReadVariant } from './page/api.ts'

const { values } = parseArgs({
  options: {
    payloads: { type: 'string', default: '60' },
    repeats: { type: 'string', default: '3' },
    persistent: { type: 'boolean', default: false },
  },
})
const PAYLOAD_COUNT = Math.max(4, Number(values.payloads))
const REPEATS = Math.max(1, Number(values.repeats))
/** A 1M output's fast bundle (bench/browser/cacheReads.ts). */
const PAYLOAD_BYTES = 5_400_000
const WORKER_COUNTS = [1, 4]
const VARIANTS: StorageReadVariant[] = ['indexedDb', 'cacheFiles', 'opfsSync', 'opfsFile']
/** Speed 8 plays 24 outputs/s. */
const SPEED8_MBPS = (24 * PAYLOAD_BYTES) / 1e6

const log = (message: string) => console.error(message)
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')

const harness = await useHarness(log)
const profileDir = values.persistent ? mkdtempSync(join(tmpdir(), 'dive-storage-reads-')) : null
try {
  const { chromium } = await import('playwright-core')
  const context =
    profileDir === null
      ? await harness.browser.newContext()
      : await chromium.launchPersistentContext(profileDir, {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: BENCH_CHROMIUM_ARGS,
        })
  try {
    const page = await context.newPage()
    await page.goto(`${harness.baseUrl}/bench/browser/page/indexedDb.html`)
    await page.waitForFunction(() => 'diveBench' in globalThis)
    log(
      `profile: ${profileDir === null ? 'off the record (newContext)' : `on disk (${profileDir})`}`,
    )
    const probe = await page.evaluate(() =>
      (globalThis as unknown as { diveBench: IndexedDbPageApi }).diveBench.probeStorage(),
    )
    console.log(`OPFS in a worker: ${JSON.stringify(probe)}`)
    const failed = await page.evaluate(() =>
      (globalThis as unknown as { diveBench: IndexedDbPageApi }).diveBench.checkCacheFiles(),
    )
    console.log(
      `check of the output cache on OPFS: ${failed.length === 0 ? 'ok' : failed.join('; ')}`,
    )
    if (failed.length > 0) process.exitCode = 1
    const fillStartMs = performance.now()
    await page.evaluate(
      ([count, size]) =>
        (globalThis as unknown as { diveBench: IndexedDbPageApi }).diveBench.fillStorage(
          count,
          size,
        ),
      [PAYLOAD_COUNT, PAYLOAD_BYTES] as const,
    )
    log(
      `${PAYLOAD_COUNT} payloads of ${(PAYLOAD_BYTES / 1e6).toFixed(1)} MB written to IndexedDB and OPFS in ${((performance.now() - fillStartMs) / 1000).toFixed(1)} s`,
    )
    for (let repeat = 0; repeat < REPEATS; repeat++)
      for (const workers of WORKER_COUNTS)
        for (const variant of VARIANTS) {
          const request: StorageReadsRequest = { variant, workers, count: PAYLOAD_COUNT }
          const result = await page.evaluate(
            (value) =>
              (globalThis as unknown as { diveBench: IndexedDbPageApi }).diveBench.readStorage(
                value,
              ),
            request,
          )
          if (result.bytes !== PAYLOAD_COUNT * PAYLOAD_BYTES)
            throw new Error(`${variant} read ${result.bytes} bytes`)
          const mbps = result.bytes / 1e6 / (result.spanMs / 1000)
          const sorted = [...result.readMs].sort((a, b) => a - b)
          const median = sorted[Math.floor(sorted.length / 2)] ?? 0
          console.log(
            `storageReads.${variant}.workers${workers}: ${mbps.toFixed(0)} MB/s (${(mbps / SPEED8_MBPS).toFixed(2)} x speed 8's ${SPEED8_MBPS.toFixed(0)} MB/s), median ${median.toFixed(1)} ms a payload, load average ${load()}`,
          )
        }
  } finally {
    await context.close()
  }
} finally {
  await disposeHarness()
  if (profileDir !== null) rmSync(profileDir, { recursive: true, force: true })
}
