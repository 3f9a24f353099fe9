/**
 * Serving one output's bundle (issue 17 item 1): GET …/outputs/0/bundle of a 1M-particle synthetic
 * output (every object, full dataset) from the real app, to a Node client (node:http, the body
 * copied into one buffer of Content-Length, as the data workers read it) and to a chromium page
 * (fetch() and a body reader into one ArrayBuffer of Content-Length, as engine/data/responseBytes.ts
 * does), against a streaming read of the same files (the bundle's object files read one after the
 * other into one reused 1 MiB buffer, from the page cache), measured in the same run, alternating
 * with the fetches so all see the same load. fetch() in Node (undici, arrayBuffer()) is printed too.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { outputBundleUrl } from '../../domain/rest/resultsRoutes.ts'
import { prepareOutputBundle } from '../../server/results/bundleStream.ts'
import { readOutputManifest } from '../../server/results/outputFiles.ts'
import { BENCH_CHROMIUM_ARGS } from '../browser/harness.ts'
import { computeMedian, judgeAtLeast, toMBps } from '../lib/measure.ts'
import {
  BENCH_RUN_ID,
  loadAverageNote,
  openSocketProbe,
  startResultsBenchServer,
  type ResultsBenchServer,
  type SocketProbe,
} from '../lib/resultsServer.ts'
import { formatCount } from '../lib/synthetic.ts'
import { BenchSkip, type BenchCase, type BenchContext } from '../lib/types.ts'

let shared: ResultsBenchServer | null = null

async function useServer(context: BenchContext): Promise<ResultsBenchServer> {
  const particles = context.quick ? 200_000 : 1_000_000
  if (shared?.particles === particles) return shared
  await disposeBench()
  shared = await startResultsBenchServer(1, particles, context.log)
  return shared
}

/** Closes the shared server (the cached outputs stay). */
export async function disposeBench(): Promise<void> {
  const server = shared
  shared = null
  await server?.close()
}

/** The object files the full bundle of output 0 is made of. */
async function bundleFiles(server: ResultsBenchServer): Promise<string[]> {
  const manifest = await readOutputManifest(server.dataDir, server.simulationId, BENCH_RUN_ID, 0)
  if (!manifest) throw new Error('the synthetic output has no manifest')
  const location = { simulationId: server.simulationId, runId: BENCH_RUN_ID, outputNo: 0 }
  const { bundle } = await prepareOutputBundle(server.dataDir, location, manifest, [], 'full')
  if (!bundle) throw new Error('the synthetic output has no files')
  return bundle.files.map((file) => file.path)
}

/** Reads the files one after the other into one reused buffer (the denominator); bytes and ms. */
async function streamingFileReadMs(
  paths: readonly string[],
  buffer: Buffer,
): Promise<{ bytes: number; ms: number }> {
  const startedMs = performance.now()
  let bytes = 0
  for (const path of paths) {
    const handle = await open(path, 'r')
    try {
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null)
        if (bytesRead === 0) break
        bytes += bytesRead
      }
    } finally {
      await handle.close()
    }
  }
  return { bytes, ms: performance.now() - startedMs }
}

/** GET with node:http, the body copied into one buffer of Content-Length; bytes and ms. */
function nodeHttpGetMs(url: string, token: string): Promise<{ bytes: number; ms: number }> {
  const startedMs = performance.now()
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume()
        reject(new Error(`bundle: HTTP ${response.statusCode}`))
        return
      }
      const length = Number(response.headers['content-length'])
      const body = Buffer.allocUnsafe(length)
      let offset = 0
      response.on('data', (chunk: Buffer) => {
        offset += chunk.copy(body, offset)
      })
      response.on('end', () => {
        if (offset !== length) reject(new Error(`bundle: ${offset} of ${length} bytes`))
        else resolve({ bytes: offset, ms: performance.now() - startedMs })
      })
      response.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

async function fetchArrayBufferMs(url: string, token: string): Promise<number> {
  const startedMs = performance.now()
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`bundle: HTTP ${response.status}`)
  return performance.now() - startedMs
}

/**
 * The client in a process of its own (bundleServeClient.ts), so that client and server do not share
 * one thread as they do above: each fetch gives its wall time, the client's CPU and this (the
 * server's) process's CPU meanwhile.
 */
class ClientProcess {
  readonly #child: ChildProcess
  readonly #lines: AsyncIterator<string>

  constructor() {
    const script = fileURLToPath(new URL('./bundleServeClient.ts', import.meta.url))
    this.#child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    this.#lines = createInterface({ input: this.#child.stdout! })[Symbol.asyncIterator]()
  }

  async fetch(
    url: string,
    token: string,
    mode: 'http' | 'socket',
    sizeBytes = 0,
  ): Promise<{ ms: number; clientCpuMs: number; serverCpuMs: number }> {
    const cpu = process.cpuUsage()
    this.#child.stdin!.write(`${url} ${token || '-'} ${mode} ${sizeBytes}\n`)
    const line = await this.#lines.next()
    const used = process.cpuUsage(cpu)
    const [ms, clientCpuMs] = String(line.value ?? '')
      .split(' ')
      .map(Number)
    if (line.done || !Number.isFinite(ms) || !Number.isFinite(clientCpuMs))
      throw new Error(`the client process gave no figure for ${mode}`)
    return { ms: ms!, clientCpuMs: clientCpuMs!, serverCpuMs: (used.user + used.system) / 1000 }
  }

  close(): void {
    this.#child.kill()
  }
}

async function runNodeClient(context: BenchContext): Promise<void> {
  const server = await useServer(context)
  const paths = await bundleFiles(server)
  const url = `${server.baseUrl}${outputBundleUrl(server.simulationId, BENCH_RUN_ID, 0)}`
  const buffer = Buffer.allocUnsafeSlow(1024 * 1024)
  const readMs: number[] = []
  const httpMs: number[] = []
  const fetchMs: number[] = []
  const socketMs: number[] = []
  const apart = { httpMs: [] as number[], socketMs: [] as number[] }
  const cpu = { client: [] as number[], server: [] as number[], socketClient: [] as number[] }
  let fileBytes = 0
  const runs = context.quick ? 3 : 7
  // Warm the page cache, the connection pool and the JIT first.
  await streamingFileReadMs(paths, buffer)
  const bundleBytes = (await nodeHttpGetMs(url, server.token)).bytes
  const socket = await openSocketProbe(bundleBytes)
  const socketUrl = `http://127.0.0.1:${socket.port}/`
  const child = new ClientProcess()
  try {
    await child.fetch(url, server.token, 'http')
    await child.fetch(socketUrl, '', 'socket', bundleBytes)
    for (let run = 0; run < runs; run++) {
      const read = await streamingFileReadMs(paths, buffer)
      readMs.push(read.ms)
      fileBytes = read.bytes
      socketMs.push(await socket.transferMs())
      httpMs.push((await nodeHttpGetMs(url, server.token)).ms)
      fetchMs.push(await fetchArrayBufferMs(url, server.token))
      const http = await child.fetch(url, server.token, 'http')
      apart.httpMs.push(http.ms)
      cpu.client.push(http.clientCpuMs)
      cpu.server.push(http.serverCpuMs)
      const probe = await child.fetch(socketUrl, '', 'socket', bundleBytes)
      apart.socketMs.push(probe.ms)
      cpu.socketClient.push(probe.clientCpuMs)
    }
  } finally {
    child.close()
    await socket.close()
  }
  const label = formatCount(server.particles)
  const socketRate = toMBps(bundleBytes, computeMedian(socketMs))
  const readRate = toMBps(fileBytes, computeMedian(readMs))
  const httpRate = toMBps(bundleBytes, computeMedian(httpMs))
  const fetchRate = toMBps(bundleBytes, computeMedian(fetchMs))
  const apartHttpRate = toMBps(bundleBytes, computeMedian(apart.httpMs))
  const apartSocketRate = toMBps(bundleBytes, computeMedian(apart.socketMs))
  context.log(
    `client in its own process: node:http ${apartHttpRate.toFixed(0)} MB/s = ${(apartHttpRate / readRate).toFixed(2)} x the streaming read, ${(apartHttpRate / apartSocketRate).toFixed(2)} x the loopback socket read the same way (${apartSocketRate.toFixed(0)} MB/s); CPU per bundle: server ${computeMedian(cpu.server).toFixed(1)} ms, node:http client ${computeMedian(cpu.client).toFixed(1)} ms, socket client ${computeMedian(cpu.socketClient).toFixed(1)} ms (medians of ${runs}; ${loadAverageNote()})`,
  )
  context.report({
    case: `node/bundleServe.nodeHttpOwnProcess.${label}`,
    value: apartHttpRate,
    unit: 'MB/s',
    ratio: apartHttpRate / readRate,
    target: null,
    ok: null,
  })
  context.report({
    case: `node/bundleServe.socketOwnProcess.${label}`,
    value: apartSocketRate,
    unit: 'MB/s',
    ratio: apartSocketRate / readRate,
    target: null,
    ok: null,
  })
  context.report({
    case: `node/bundleServe.serverCpuPerBundle.${label}`,
    value: computeMedian(cpu.server),
    unit: 'ms',
    ratio: null,
    target: null,
    ok: null,
  })
  context.log(
    `${(bundleBytes / 1e6).toFixed(1)} MB bundle (${paths.length} files, ${(fileBytes / 1e6).toFixed(1)} MB): streaming read ${readRate.toFixed(0)} MB/s, loopback socket ${socketRate.toFixed(0)} MB/s, node:http ${httpRate.toFixed(0)} MB/s (${(httpRate / readRate).toFixed(2)} x the read, ${(httpRate / socketRate).toFixed(2)} x the socket), fetch ${fetchRate.toFixed(0)} MB/s (medians of ${runs}; ${loadAverageNote()})`,
  )
  context.report({
    case: `node/bundleServe.nodeHttp.${label}`,
    value: httpRate,
    unit: 'MB/s',
    ...judgeAtLeast(httpRate, readRate, 0.5, 'streaming read of the same files'),
  })
  context.report({
    case: `node/bundleServe.nodeFetch.${label}`,
    value: fetchRate,
    unit: 'MB/s',
    ratio: fetchRate / readRate,
    target: null,
    ok: null,
  })
  context.report({
    case: `node/bundleServe.socket.${label}`,
    value: socketRate,
    unit: 'MB/s',
    ratio: socketRate / readRate,
    target: null,
    ok: null,
  })
  context.report({
    case: `node/bundleServe.streamingRead.${label}`,
    value: readRate,
    unit: 'MB/s',
    ratio: null,
    target: null,
    ok: null,
  })
}

/** In the page: fetch() with a body reader into one ArrayBuffer of Content-Length (responseBytes.ts). */
const BROWSER_FETCH_SCRIPT = `async ({ url, token }) => {
  const started = performance.now()
  const response = await fetch(url, { headers: { authorization: 'Bearer ' + token } })
  if (response.status !== 200) throw new Error('bundle: HTTP ' + response.status)
  const length = Number(response.headers.get('content-length'))
  const view = new Uint8Array(new ArrayBuffer(length))
  const reader = response.body.getReader()
  let offset = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    view.set(value, offset)
    offset += value.length
  }
  if (offset !== length) throw new Error('bundle: ' + offset + ' of ' + length + ' bytes')
  return { bytes: offset, ms: performance.now() - started }
}`

async function runBrowserClient(context: BenchContext): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(executablePath)) throw new BenchSkip(`no chromium at ${executablePath}`)
  const server = await useServer(context)
  const paths = await bundleFiles(server)
  const buffer = Buffer.allocUnsafeSlow(1024 * 1024)
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, args: BENCH_CHROMIUM_ARGS })
  const readMs: number[] = []
  const pageMs: number[] = []
  const socketMs: number[] = []
  let fileBytes = 0
  let bundleBytes = 0
  let socket: SocketProbe | null = null
  const runs = context.quick ? 3 : 7
  try {
    const page = await browser.newPage()
    await page.goto(`${server.baseUrl}/api/version`)
    const script = `(${BROWSER_FETCH_SCRIPT})(${JSON.stringify({
      url: outputBundleUrl(server.simulationId, BENCH_RUN_ID, 0),
      token: server.token,
    })})`
    bundleBytes = (await page.evaluate<{ bytes: number }>(script)).bytes
    socket = await openSocketProbe(bundleBytes)
    for (let run = 0; run < runs; run++) {
      const read = await streamingFileReadMs(paths, buffer)
      readMs.push(read.ms)
      fileBytes = read.bytes
      socketMs.push(await socket.transferMs())
      const got = await page.evaluate<{ bytes: number; ms: number }>(script)
      pageMs.push(got.ms)
      bundleBytes = got.bytes
    }
  } finally {
    await socket?.close()
    await browser.close()
  }
  const label = formatCount(server.particles)
  const socketRate = toMBps(bundleBytes, computeMedian(socketMs))
  const readRate = toMBps(fileBytes, computeMedian(readMs))
  const pageRate = toMBps(bundleBytes, computeMedian(pageMs))
  context.log(
    `chromium: ${(bundleBytes / 1e6).toFixed(1)} MB bundle at ${pageRate.toFixed(0)} MB/s (${(pageRate / socketRate).toFixed(2)} x the loopback socket, ${socketRate.toFixed(0)} MB/s), streaming read ${readRate.toFixed(0)} MB/s (medians of ${runs}; ${loadAverageNote()})`,
  )
  context.report({
    case: `node/bundleServeBrowser.fetch.${label}`,
    value: pageRate,
    unit: 'MB/s',
    ...judgeAtLeast(pageRate, readRate, 0.3, 'streaming read of the same files'),
  })
}

export const cases: BenchCase[] = [
  {
    name: 'node/bundleServe',
    description:
      "a 1M output's full bundle from the real server's HTTP route to a Node client (node:http into one buffer; fetch() printed too), against a streaming read of the same files; target >= 0.5 x",
    run: runNodeClient,
  },
  {
    name: 'node/bundleServeBrowser',
    description:
      'the same bundle fetched by a chromium page (fetch() and a body reader into one ArrayBuffer), against a streaming read of the same files; target >= 0.3 x',
    run: runBrowserClient,
  },
]
