/**
 * The results server session (/ws/results) against the bytes it serves: statistics streamed over
 * 100 outputs of 1M particles by stats.calc, against a raw read of the same files; and one 1M
 * output's bundle over the websocket (fetch.data, bundle true) against the HTTP bundle route.
 * The outputs are written once with domain/output/synthetic.ts (scripts/writeSyntheticRun.ts) into
 * a cached directory under the system temp dir; the server is the real app (buildApp) on a fresh
 * SQLite database, client and server in this process.
 */
import { existsSync } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { objectFile } from '../../domain/output/layout.ts'
import { outputBundleUrl } from '../../domain/rest/resultsRoutes.ts'
import { encodeObjectId } from '../../domain/resultsObjects.ts'
import type { StatsCalcRequest } from '../../domain/resultsProtocol.ts'
import { ResultsTestClient } from '../../server/results/session/testClient.ts'
import { BufferPool } from '../../server/results/statistics/outputReader.ts'
import { readObjectColumns } from '../../server/results/statistics/columnReader.ts'
import { StatisticsThreads } from '../../server/results/statistics/statisticsThread.ts'
import { computeMedian, judgeAtLeast, judgeRatio, toMBps } from '../lib/measure.ts'
import { loadAverageNote } from '../lib/resultsServer.ts'
import { FLUID_OBJECT, RUN_ID, startServer } from './sessionServer.ts'
import { formatCount } from '../lib/synthetic.ts'
import { BenchSkip, type BenchCase, type BenchContext } from '../lib/types.ts'
import { BENCH_CHROMIUM_ARGS } from '../browser/harness.ts'

export { disposeBench } from './sessionServer.ts'

/** Reads files one after the other into one reused buffer (the denominator); ms. */
async function readFilesMs(paths: readonly string[], buffer: Buffer): Promise<number> {
  const startedMs = performance.now()
  for (const path of paths) {
    const handle = await open(path, 'r')
    try {
      const { size } = await handle.stat()
      let offset = 0
      while (offset < size) {
        const { bytesRead } = await handle.read(buffer, offset, size - offset, offset)
        if (bytesRead === 0) break
        offset += bytesRead
      }
    } finally {
      await handle.close()
    }
  }
  return performance.now() - startedMs
}

/** Reads just the pressure columns of the files, as stats.calc does (columnReader.ts); bytes and ms. */
async function readColumnsMs(
  paths: readonly string[],
  pool: BufferPool,
): Promise<{ bytes: number; ms: number }> {
  const startedMs = performance.now()
  let bytes = 0
  for (const path of paths) {
    const read = await readObjectColumns(path, ['pressure'], pool)
    bytes += read.bytesRead
    read.release()
  }
  return { bytes, ms: performance.now() - startedMs }
}

async function runStatisticsCalc(context: BenchContext): Promise<void> {
  const server = await startServer(context)
  const outputs = Array.from({ length: server.outputs }, (_, i) => i)
  const paths = outputs.map((outputNo) =>
    join(server.dataDir, objectFile(server.simulationId, RUN_ID, outputNo, FLUID_OBJECT, 'full')),
  )
  let totalBytes = 0
  for (const path of paths) totalBytes += (await readFile(path)).byteLength
  const buffer = Buffer.allocUnsafeSlow(Math.ceil((totalBytes / paths.length) * 1.2))
  const client = await ResultsTestClient.open(server.wsUrl, server.token)
  const rawMs: number[] = []
  const columnMs: number[] = []
  let columnBytes = 0
  const columnPool = new BufferPool(2)
  const statsMs: number[] = []
  // The same request on one statistics thread, in the same loop (the 1-thread baseline under the same load).
  const oneThread = new StatisticsThreads(1)
  const oneThreadMs: number[] = []
  const delays: number[] = []
  const idleDelays: number[] = []
  const runs = context.quick ? 2 : 3
  const request = (list: number[]) => ({
    type: 'stats.calc',
    simId: server.simulationId,
    outputs: list,
    attribute: 'pressure',
    dataset: 'raw',
    objIds: [encodeObjectId('fluid', 0)],
    masks: [],
    operations: {
      mean: ['mean'],
      min: ['min'],
      max: ['max'],
      '5th_percentile': ['5th_percentile'],
      median: ['median'],
      '95th_percentile': ['95th_percentile'],
    },
    mode: 'both',
  })
  try {
    // The statistics thread starts once per server (about 0.3 s): not part of the figure.
    await client.request(request([0]), 'stats.calc.done', 600_000)
    const direct = (list: number[]) =>
      oneThread.run(
        { ...request(list), requestId: 1, subAttribute: null } as unknown as StatsCalcRequest,
        { dataDir: server.dataDir, simulationId: server.simulationId, runId: RUN_ID, clips: [] },
        () => Promise.resolve(),
        new AbortController().signal,
      )
    await direct([0])
    for (let run = 0; run < runs; run++) {
      rawMs.push(await readFilesMs(paths, buffer))
      const columns = await readColumnsMs(paths, columnPool)
      columnMs.push(columns.ms)
      columnBytes = columns.bytes
      const loop = monitorEventLoopDelay({ resolution: 5 })
      loop.enable()
      const startedMs = performance.now()
      const frames = await client.request(request(outputs), 'stats.calc.done', 600_000)
      statsMs.push(performance.now() - startedMs)
      const oneStartedMs = performance.now()
      if ((await direct(outputs)) !== 'completed')
        throw new Error('stats.calc on one thread failed')
      oneThreadMs.push(performance.now() - oneStartedMs)
      loop.disable()
      delays.push(loop.max / 1e6)
      // The same span with nothing of ours running: what the shared cores alone cost the loop.
      const idle = monitorEventLoopDelay({ resolution: 5 })
      idle.enable()
      await new Promise((resolve) => setTimeout(resolve, statsMs.at(-1)))
      idle.disable()
      idleDelays.push(idle.max / 1e6)
      const done = frames.at(-1)?.frame
      const values = frames.filter((f) => f.frame.type === 'stats.calc.output_statistic')
      if (
        done?.type !== 'stats.calc.done' ||
        done.state !== 'completed' ||
        values.length !== 6 * outputs.length
      )
        throw new Error(`stats.calc did not complete: ${JSON.stringify(done)}`)
    }
  } finally {
    client.close()
    await oneThread.close()
  }
  const label = `${formatCount(server.particles)}x${server.outputs}`
  const oneThreadRate = toMBps(totalBytes, computeMedian(oneThreadMs))
  const statsRate = toMBps(totalBytes, computeMedian(statsMs))
  const rawRate = toMBps(totalBytes, computeMedian(rawMs))
  const columnRate = toMBps(columnBytes, computeMedian(columnMs))
  const statsColumnRate = toMBps(columnBytes, computeMedian(statsMs))
  context.log(
    `stats.calc ${statsRate.toFixed(0)} MB/s = ${(statsRate / rawRate).toFixed(2)} × the raw read of the files (${rawRate.toFixed(0)} MB/s), ${(statsColumnRate / columnRate).toFixed(2)} × the raw read of the column bytes (${columnRate.toFixed(0)} MB/s); on one statistics thread ${oneThreadRate.toFixed(0)} MB/s = ${(oneThreadRate / rawRate).toFixed(2)} × (${computeMedian(oneThreadMs).toFixed(0)} ms against ${computeMedian(statsMs).toFixed(0)} ms); event loop max ${delays.map((d) => d.toFixed(0)).join(', ')} ms (${loadAverageNote()})`,
  )
  context.log(
    `raw read ${computeMedian(rawMs).toFixed(0)} ms, stats.calc ${computeMedian(statsMs).toFixed(0)} ms for ${(totalBytes / 1e6).toFixed(0)} MB of files, of which it reads ${(columnBytes / 1e6).toFixed(0)} MB (the pressure columns and each file's head; read alone ${computeMedian(columnMs).toFixed(0)} ms); event loop max ${delays.map((d) => d.toFixed(0)).join(', ')} ms, idle over the same spans ${idleDelays.map((d) => d.toFixed(0)).join(', ')} ms (${loadAverageNote()})`,
  )
  context.report({
    case: `results/statsCalc.${label}`,
    value: statsRate,
    unit: 'MB/s',
    ...judgeAtLeast(statsRate, rawRate, 0.5, 'raw read of the same files'),
  })
  context.report({
    case: `results/statsCalc.oneThread.${label}`,
    value: oneThreadRate,
    unit: 'MB/s',
    ratio: oneThreadRate / rawRate,
    target: null,
    ok: null,
  })
  context.report({
    case: `results/statsCalc.rawRead.${label}`,
    value: rawRate,
    unit: 'MB/s',
    ratio: null,
    target: null,
    ok: null,
  })
  context.report({
    case: `results/statsCalc.columnBytes.${label}`,
    value: statsColumnRate,
    unit: 'MB/s',
    ...judgeAtLeast(statsColumnRate, columnRate, 0.5, 'raw read of the column bytes it reads'),
  })
  const worstDelay = Math.max(...delays)
  context.report({
    case: `results/statsCalc.eventLoopDelayMax.${label}`,
    value: worstDelay,
    unit: 'ms',
    ...judgeRatio(worstDelay, 20, 1, '20 ms'),
  })
  context.report({
    case: `results/statsCalc.eventLoopDelayMax.idle.${label}`,
    value: Math.max(...idleDelays),
    unit: 'ms',
    ratio: null,
    target: null,
    ok: null,
  })
}

async function runBundleFetch(context: BenchContext): Promise<void> {
  const server = await startServer(context)
  const outputNo = 0
  const url = `${server.baseUrl}${outputBundleUrl(server.simulationId, RUN_ID, outputNo)}`
  const client = await ResultsTestClient.open(server.wsUrl, server.token)
  const httpMs: number[] = []
  const wsMs: number[] = []
  let bytes = 0
  const runs = context.quick ? 2 : 5
  try {
    for (let run = 0; run < runs; run++) {
      let startedMs = performance.now()
      const response = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } })
      const body = new Uint8Array(await response.arrayBuffer())
      httpMs.push(performance.now() - startedMs)
      if (response.status !== 200) throw new Error(`HTTP bundle: ${response.status}`)
      bytes = body.byteLength
      startedMs = performance.now()
      const frames = await client.request(
        {
          type: 'fetch.data',
          simId: server.simulationId,
          outputs: [outputNo],
          bundle: true,
          requests: [{ objIds: [], attributes: [], geometry: true, dataset: 'full', masks: [] }],
        },
        'fetch.data.done',
        600_000,
      )
      wsMs.push(performance.now() - startedMs)
      const bundle = frames.find((f) => f.frame.type === 'fetch.data.bundle')
      if (bundle?.payload?.byteLength !== bytes)
        throw new Error(
          `The websocket bundle has ${bundle?.payload?.byteLength} bytes, HTTP ${bytes}`,
        )
      client.frames.length = 0
    }
  } finally {
    client.close()
  }
  const label = formatCount(server.particles)
  const httpRate = toMBps(bytes, computeMedian(httpMs))
  const wsRate = toMBps(bytes, computeMedian(wsMs))
  context.report({
    case: `results/bundleFetch.http.${label}`,
    value: httpRate,
    unit: 'MB/s',
    ratio: null,
    target: null,
    ok: null,
  })
  context.report({
    case: `results/bundleFetch.websocket.${label}`,
    value: wsRate,
    unit: 'MB/s',
    ratio: wsRate / httpRate,
    target: null,
    ok: null,
  })
}

/*
 * The same bundle fetched from a page in Debian's chromium, where the data workers run: HTTP with
 * fetch() against /ws/results with a WebSocket (binaryType arraybuffer). The data workers use the
 * faster one (issue 5: "whichever the bench shows faster"); the Node figures above do not decide it.
 */
const BROWSER_FETCH_SCRIPT = `async ({ bundleUrl, wsUrl, token, simulationId, runs }) => {
  const httpMs = [], wsMs = []
  let bytes = 0
  const socket = new WebSocket(wsUrl)
  socket.binaryType = 'arraybuffer'
  const waitFor = (test) => new Promise((resolve, reject) => {
    const onMessage = (event) => { if (test(event)) { socket.removeEventListener('message', onMessage); resolve(event) } }
    socket.addEventListener('message', onMessage)
    socket.addEventListener('close', () => reject(new Error('results session closed')), { once: true })
  })
  await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }))
  const hello = waitFor((e) => typeof e.data === 'string' && JSON.parse(e.data).type === 'sys.hello.resp')
  socket.send(JSON.stringify({ type: 'sys.hello', requestId: 1, protocolVersion: 1, accessToken: token }))
  await hello
  for (let run = 0; run < runs; run++) {
    let started = performance.now()
    const response = await fetch(bundleUrl, { headers: { authorization: 'Bearer ' + token } })
    bytes = (await response.arrayBuffer()).byteLength
    httpMs.push(performance.now() - started)
    started = performance.now()
    let payload = 0
    const done = new Promise((resolve, reject) => {
      const onMessage = (event) => {
        if (typeof event.data !== 'string') { payload += event.data.byteLength; return }
        const frame = JSON.parse(event.data)
        if (frame.type === 'fetch.data.done') { socket.removeEventListener('message', onMessage); resolve() }
        if (frame.type === 'error') reject(new Error(frame.message))
      }
      socket.addEventListener('message', onMessage)
    })
    socket.send(JSON.stringify({ type: 'fetch.data', requestId: 10 + run, simId: simulationId, outputs: [0], bundle: true,
      requests: [{ objIds: [], attributes: [], geometry: true, dataset: 'full', masks: [] }] }))
    await done
    wsMs.push(performance.now() - started)
    if (payload < bytes) throw new Error('websocket payload ' + payload + ' < ' + bytes)
  }
  socket.close(1000)
  return { httpMs, wsMs, bytes }
}`

async function runBrowserBundleFetch(context: BenchContext): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(executablePath)) throw new BenchSkip(`no chromium at ${executablePath}`)
  const server = await startServer(context)
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, args: BENCH_CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    await page.goto(`${server.baseUrl}/api/version`)
    const result = await page.evaluate<{ httpMs: number[]; wsMs: number[]; bytes: number }>(
      `(${BROWSER_FETCH_SCRIPT})(${JSON.stringify({
        bundleUrl: outputBundleUrl(server.simulationId, RUN_ID, 0),
        wsUrl: server.wsUrl,
        token: server.token,
        simulationId: server.simulationId,
        runs: context.quick ? 2 : 5,
      })})`,
    )
    const label = formatCount(server.particles)
    const httpRate = toMBps(result.bytes, computeMedian(result.httpMs))
    const wsRate = toMBps(result.bytes, computeMedian(result.wsMs))
    context.log(
      `chromium: ${(result.bytes / 1e6).toFixed(1)} MB bundle, HTTP ${computeMedian(result.httpMs).toFixed(0)} ms, websocket ${computeMedian(result.wsMs).toFixed(0)} ms (medians)`,
    )
    context.report({
      case: `results/bundleFetch.browser.http.${label}`,
      value: httpRate,
      unit: 'MB/s',
      ratio: null,
      target: null,
      ok: null,
    })
    context.report({
      case: `results/bundleFetch.browser.websocket.${label}`,
      value: wsRate,
      unit: 'MB/s',
      ratio: wsRate / httpRate,
      target: null,
      ok: null,
    })
  } finally {
    await browser.close()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'results/statsCalc',
    description:
      'stats.calc over 100 outputs of 1M particles (6 operations, mode both) on /ws/results, against a raw read of the same files; target >= 0.5 x',
    run: runStatisticsCalc,
  },
  {
    name: 'results/bundleFetch',
    description:
      "one 1M output's full bundle over /ws/results (fetch.data) and over the HTTP bundle route, MB/s each (ratio: websocket / HTTP)",
    run: runBundleFetch,
  },
  {
    name: 'results/bundleFetchBrowser',
    description:
      'the same bundle fetched from a chromium page: fetch() over HTTP against a WebSocket on /ws/results, MB/s each (ratio: websocket / HTTP); decides which one the data workers use',
    run: runBrowserBundleFetch,
  },
]
