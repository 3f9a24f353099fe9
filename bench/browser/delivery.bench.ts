/**
 * Delivery (issue 23 item 4): bytes on the wire per route, the built app served by the real server
 * (precompressed .br/.gz, code split by route), against the raw bytes of the same files; and the
 * time to an interactive login page, cold, on loopback and on Lighthouse's desktop link
 * (10,240 kbit/s, 40 ms round trip).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { computeMedian } from '../lib/measure.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { demoAuthStorage, disposeHarness, useHarness } from './harness.ts'

/** The routes of the issue; the seeded demo's first simulation is id 1 on a fresh database. */
const ROUTES = [
  { name: 'login', path: '/login', auth: false },
  { name: 'projects', path: '/projects', auth: true },
  { name: 'setup', path: '/simulation/1/preprocessor', auth: true },
  { name: 'results', path: '/simulation/1/postprocessor', auth: true },
  { name: 'dashboard', path: '/simulation/1/dashboard', auth: true },
] as const

/** Lighthouse 12's desktop throttling (its constants.throttling.desktopDense4G). */
const DESKTOP_LINK = { downloadKbit: 10_240, uploadKbit: 10_240, latencyMs: 40 }

interface RouteBytes {
  files: number
  /** Bodies as sent (compressed where the server had a variant) plus response headers. */
  wireBytes: number
  /** The same files' bodies decoded. */
  rawBytes: number
  scriptWireBytes: number
  scriptRawBytes: number
}

/** The static files (not /api, not /ws) a page loaded, main thread and workers alike. */
function trackStaticBytes(page: Page, baseUrl: string): () => Promise<RouteBytes> {
  const pending: Promise<Omit<RouteBytes, 'files'> | null>[] = []
  page.on('requestfinished', (request) => {
    const url = new URL(request.url())
    if (!request.url().startsWith(baseUrl)) return
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return
    pending.push(
      (async () => {
        const response = await request.response()
        if (!response || response.status() !== 200) return null
        const [sizes, body, headers] = await Promise.all([
          request.sizes(),
          response.body(),
          response.headersArray(),
        ])
        // Requests of workers report no sizes: take the body's Content-Length (the static server
        // always sends it: the variant's length) and the headers as they were sent.
        const bodyWire = Number(response.headers()['content-length'] ?? sizes.responseBodySize)
        const headersWire =
          sizes.responseHeadersSize > 0
            ? sizes.responseHeadersSize
            : headers.reduce((sum, { name, value }) => sum + name.length + value.length + 4, 17)
        const wire = bodyWire + headersWire
        const isScript = url.pathname.endsWith('.js')
        return {
          wireBytes: wire,
          rawBytes: body.byteLength,
          scriptWireBytes: isScript ? wire : 0,
          scriptRawBytes: isScript ? body.byteLength : 0,
        }
      })().catch(() => null), // a request still finishing when the page closes
    )
  })
  return async () => {
    const results = (await Promise.all(pending)).filter((result) => result !== null)
    const total: RouteBytes = {
      files: results.length,
      wireBytes: 0,
      rawBytes: 0,
      scriptWireBytes: 0,
      scriptRawBytes: 0,
    }
    for (const result of results) {
      total.wireBytes += result.wireBytes
      total.rawBytes += result.rawBytes
      total.scriptWireBytes += result.scriptWireBytes
      total.scriptRawBytes += result.scriptRawBytes
    }
    return total
  }
}

async function measureRoute(
  browser: Browser,
  baseUrl: string,
  route: (typeof ROUTES)[number],
): Promise<RouteBytes> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } })
  try {
    if (route.auth) {
      const stored = await demoAuthStorage(baseUrl)
      await context.addInitScript((value) => localStorage.setItem('dive.auth', value), stored)
    }
    const page = await context.newPage()
    const collect = trackStaticBytes(page, baseUrl)
    await page.goto(`${baseUrl}${route.path}`, { waitUntil: 'load' })
    // Lazy route chunks, stylesheets and workers arrive after load; the page polls the API, so
    // "idle" may never come: wait for quiet or 15 s.
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined)
    await page.waitForTimeout(1000)
    return await collect()
  } finally {
    await context.close()
  }
}

/** ms from navigation start to the login form's e-mail field shown and enabled (cold cache). */
async function timeToInteractiveLogin(
  browser: Browser,
  baseUrl: string,
  link: typeof DESKTOP_LINK | null,
): Promise<number> {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1350, height: 940 },
  })
  try {
    const page = await context.newPage()
    if (link) {
      const session = await context.newCDPSession(page)
      await session.send('Network.enable')
      await session.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: link.latencyMs,
        downloadThroughput: (link.downloadKbit * 1024) / 8,
        uploadThroughput: (link.uploadKbit * 1024) / 8,
      })
    }
    await page.goto(`${baseUrl}/login`, { waitUntil: 'commit' })
    const handle = await page.waitForFunction(
      () => {
        const field = document.querySelector<HTMLInputElement>('input[type="email"]')
        return field && !field.disabled && field.getClientRects().length > 0
          ? performance.now()
          : false
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    )
    return (await handle.jsonValue()) as number
  } finally {
    await context.close()
  }
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1)

export const cases: BenchCase[] = [
  {
    name: 'browser/delivery',
    description:
      'Bytes on the wire per route (login, projects, setup, results, dashboard) with compression against the raw bytes of the same files, and the time to an interactive login page on loopback and on a 10 Mbit/s, 40 ms link',
    async run(context: BenchContext) {
      const harness = await useHarness(context.log)
      const rows: string[] = [
        'route       files  raw kB  wire kB  wire/raw  scripts raw kB  scripts wire kB',
      ]
      for (const route of ROUTES) {
        const bytes = await measureRoute(harness.browser, harness.baseUrl, route)
        if (bytes.rawBytes === 0) throw new Error(`${route.path} loaded no static file`)
        rows.push(
          `${route.name.padEnd(10)} ${String(bytes.files).padStart(6)} ${kB(bytes.rawBytes).padStart(7)} ` +
            `${kB(bytes.wireBytes).padStart(8)} ${(bytes.wireBytes / bytes.rawBytes).toFixed(2).padStart(9)} ` +
            `${kB(bytes.scriptRawBytes).padStart(15)} ${kB(bytes.scriptWireBytes).padStart(16)}`,
        )
        context.report({
          case: `browser/delivery.${route.name}.wire`,
          value: Math.round(bytes.wireBytes / 100) / 10,
          unit: 'kB',
          ratio: bytes.wireBytes / bytes.rawBytes,
          target: null,
          ok: null,
        })
      }
      context.log(`bytes per route (static files, cold cache):\n${rows.join('\n')}`)

      const runs = context.quick ? 1 : 5
      for (const [name, link] of [
        ['loopback', null],
        ['desktopLink', DESKTOP_LINK],
      ] as const) {
        const times: number[] = []
        for (let run = 0; run < runs; run += 1)
          times.push(await timeToInteractiveLogin(harness.browser, harness.baseUrl, link))
        context.log(`login interactive (${name}): ${times.map((t) => t.toFixed(0)).join(', ')} ms`)
        context.report({
          case: `browser/delivery.loginInteractive.${name}`,
          value: Math.round(computeMedian(times)),
          unit: 'ms',
          ratio: null,
          target: null,
          ok: null,
        })
      }
    },
  },
]

export async function disposeBench(): Promise<void> {
  await disposeHarness()
}
