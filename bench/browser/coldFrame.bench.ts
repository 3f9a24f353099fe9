/**
 * Cold first frame of a 5M-particle output from the server, unthrottled (issue 17 item 2): the
 * real engine in chromium (bench/browser/page/frames.html: engine/client.ts, the render worker,
 * data workers) in a fresh browser context (empty memory and IndexedDB), the output's bundle served
 * by the real server, until the render worker's snapshot reports it drawn. Set against the floors
 * of the same run: the bundle's transfer at this machine's loopback socket rate (bench/lib
 * resultsServer.ts openSocketProbe: the same bytes over a plain TCP socket between Node ends) plus
 * one bare draw of the same points (three.js Points in a worker: upload, draw, 1-pixel readback).
 * The page's own fetch of the bundle (fetch() into one ArrayBuffer) is printed too: where the
 * transfer part of the cold frame goes.
 */
import type { Page } from 'playwright-core'
import { computeMedian, judgeRatio, toMBps } from '../lib/measure.ts'
import { loadAverageNote, openSocketProbe } from '../lib/resultsServer.ts'
import { buildSyntheticBundle, formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { disposeHarness, useHarness } from './harness.ts'
import type { BenchOutput, FramesPageApi } from './page/api.ts'

const VIEW_SIZE = { width: 800, height: 600 }

function api(page: Page) {
  return {
    drawBare: (bundleUrl: string) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.drawBare(request),
        { bundleUrl, ...VIEW_SIZE },
      ),
    startEngine: () =>
      page.evaluate(
        (size) =>
          (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.startEngine(size),
        VIEW_SIZE,
      ),
    showOutput: (outputs: BenchOutput[], timeoutMs: number) =>
      page.evaluate(
        (request) =>
          (globalThis as unknown as { diveBench: FramesPageApi }).diveBench.showOutput(request),
        { simulationId: 1, runId: 1, outputs, outputNo: 0, timeoutMs },
      ),
    /** fetch() of the bundle into one ArrayBuffer of Content-Length, as the data workers read it. */
    fetchMs: (url: string) =>
      page.evaluate(async (bundleUrl) => {
        const started = performance.now()
        const response = await fetch(bundleUrl, { cache: 'no-store' })
        const length = Number(response.headers.get('content-length'))
        const view = new Uint8Array(new ArrayBuffer(length))
        const reader = response.body!.getReader()
        let offset = 0
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          view.set(value, offset)
          offset += value.length
        }
        if (offset !== length) throw new Error(`bundle: ${offset} of ${length} bytes`)
        return performance.now() - started
      }, url),
  }
}

async function runColdFrame(context: BenchContext): Promise<void> {
  const particles = context.quick ? 200_000 : 5_000_000
  const label = formatCount(particles)
  const timeoutMs = context.quick ? 60_000 : 240_000
  const runs = context.quick ? 1 : 2
  const harness = await useHarness(context.log)
  const { bundle } = buildSyntheticBundle(particles, { outputNo: 0 })
  const bundleUrl = harness.writeStaticFile(`coldFrame/${label}/out-0.divb`, bundle)
  const outputs: BenchOutput[] = [
    { outputNo: 0, timeS: 0.4, bundleUrl, estimatedBytes: bundle.byteLength },
  ]
  const socket = await openSocketProbe(bundle.byteLength)
  const socketMs: number[] = []
  const fetchMs: number[] = []
  const bareMs: number[] = []
  const coldMs: number[] = []
  try {
    for (let run = 0; run < runs; run++) {
      socketMs.push(await socket.transferMs())
      // A fresh context each run: no output in memory, an empty IndexedDB.
      const { context: browserContext, page } = await harness.openBenchPage('frames')
      try {
        const calls = api(page)
        fetchMs.push(await calls.fetchMs(bundleUrl))
        const bare = await calls.drawBare(bundleUrl)
        bareMs.push(bare.drawMs)
        await calls.startEngine()
        const cold = await calls.showOutput(outputs, timeoutMs)
        if (cold.timedOut || cold.error !== null)
          throw new Error(`The cold first frame did not come: ${cold.error ?? 'timed out'}`)
        coldMs.push(cold.elapsedMs)
        context.log(
          `run ${run + 1}: socket ${socketMs.at(-1)!.toFixed(0)} ms, page fetch ${fetchMs.at(-1)!.toFixed(0)} ms, bare draw ${bare.drawMs.toFixed(0)} ms of ${bare.points} points, cold first frame ${cold.elapsedMs.toFixed(0)} ms (${loadAverageNote()})`,
        )
      } finally {
        await browserContext.close()
      }
    }
  } finally {
    await socket.close()
  }
  const transferMs = computeMedian(socketMs)
  const bareDrawMs = computeMedian(bareMs)
  const coldFrameMs = computeMedian(coldMs)
  context.log(
    `${(bundle.byteLength / 1e6).toFixed(1)} MB bundle: socket ${toMBps(bundle.byteLength, transferMs).toFixed(0)} MB/s, page fetch ${toMBps(bundle.byteLength, computeMedian(fetchMs)).toFixed(0)} MB/s`,
  )
  context.report({
    case: `browser/coldFrame.transferAtSocketRate.${label}`,
    value: transferMs,
    unit: 'ms',
    ratio: null,
    target: null,
    ok: null,
  })
  context.report({
    case: `browser/coldFrame.pageFetch.${label}`,
    value: computeMedian(fetchMs),
    unit: 'ms',
    ratio: computeMedian(fetchMs) / transferMs,
    target: null,
    ok: null,
  })
  context.report({
    case: `browser/coldFrame.bareDraw.${label}`,
    value: bareDrawMs,
    unit: 'ms',
    ratio: null,
    target: null,
    ok: null,
  })
  context.report({
    case: `browser/coldFrame.firstFrame.${label}`,
    value: coldFrameMs,
    unit: 'ms',
    ...judgeRatio(
      coldFrameMs,
      transferMs + bareDrawMs,
      1.5,
      '(transfer at the socket rate + bare draw)',
    ),
  })
}

/** Closes the shared harness (the other browser modules do the same; the second call does nothing). */
export async function disposeBench(): Promise<void> {
  await disposeHarness()
}

export const cases: BenchCase[] = [
  {
    name: 'browser/coldFrame',
    description:
      'cold first frame of a 5M output served by the real server, unthrottled, in a fresh chromium context, against the transfer at the loopback socket rate + one bare draw measured in the same run; target <= 1.5 x',
    run: runColdFrame,
  },
]
