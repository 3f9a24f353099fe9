/**
 * What every browser case shares, started once per run: a production build of the UI plus the bench
 * pages (bench/browser/page/), the real server (buildApp with a fresh SQLite database) serving it,
 * and headless chromium with the flags of TOOLCHAIN.md.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { BenchSkip } from '../lib/types.ts'

/** Chromium flags that work on these machines (TOOLCHAIN.md): no sandbox as root, no background traffic. */
export const BENCH_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface BenchHarness {
  baseUrl: string
  browser: Browser
  /** Writes a file the server serves (under /bench-data/) and returns its URL. */
  writeStaticFile(path: string, bytes: Uint8Array): string
  /** A fresh context (own IndexedDB) with a bench page loaded and `window.diveBench` ready. */
  openBenchPage(name: BenchPageName): Promise<{ context: BrowserContext; page: Page }>
}

let harness: Promise<BenchHarness> | null = null
const cleanups: (() => Promise<void> | void)[] = []

/** The bench pages (bench/browser/page/<name>.html), each built on its own so one broken page spares the rest. */
export const BENCH_PAGES = [
  'indexedDb',
  'frames',
  'resultsPanels',
  'setupViewport',
  'dashboard',
] as const
export type BenchPageName = (typeof BENCH_PAGES)[number]

async function buildEntry(outDir: string, name: string, htmlPath: string): Promise<void> {
  const { build } = await import('vite')
  await build({
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    root: REPO_ROOT,
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: false,
      sourcemap: false,
      rollupOptions: { input: { [name]: join(REPO_ROOT, htmlPath) } },
    },
  })
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n').slice(0, 3).join(' ')
}

/** Builds the app and every bench page into outDir; returns why each page that failed did. */
async function buildUi(
  outDir: string,
  log: (message: string) => void,
): Promise<Map<BenchPageName, string>> {
  const failures = new Map<BenchPageName, string>()
  try {
    await buildEntry(outDir, 'app', 'index.html')
  } catch (error) {
    // The app may be mid-change in a working tree; the bench pages are built on their own.
    log(`the app does not build: ${firstLine(error)}`)
    writeFileSync(join(outDir, 'index.html'), '<!doctype html><title>Dive bench</title>')
  }
  for (const page of BENCH_PAGES) {
    try {
      await buildEntry(outDir, page, `bench/browser/page/${page}.html`)
    } catch (error) {
      failures.set(page, firstLine(error))
      log(`bench page ${page} does not build: ${firstLine(error)}`)
    }
  }
  return failures
}

async function startServer(distDir: string, dataDir: string): Promise<string> {
  const [{ buildApp }, { createClock }, { openDatabase }, { migrateToLatest }, { seedDatabase }] =
    await Promise.all([
      import('../../server/app.ts'),
      import('../../server/clock.ts'),
      import('../../server/db/connect.ts'),
      import('../../server/db/migrations.ts'),
      import('../../server/db/seed.ts'),
    ])
  mkdirSync(dataDir, { recursive: true })
  const handle = openDatabase({ sqlitePath: join(dataDir, 'dive.sqlite') })
  await migrateToLatest(handle)
  const clock = createClock()
  await seedDatabase(handle.db, clock)
  const app = await buildApp({ db: handle.db, dataDir, clock, distDir, logger: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  cleanups.push(async () => {
    await app.close()
    await handle.db.destroy()
  })
  const address = app.server.address()
  if (typeof address !== 'object' || address === null) throw new Error('The server has no port.')
  return `http://127.0.0.1:${address.port}`
}

async function startHarness(log: (message: string) => void): Promise<BenchHarness> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(executablePath)) throw new BenchSkip(`no chromium at ${executablePath}`)
  const workDir = mkdtempSync(join(tmpdir(), 'dive-bench-browser-'))
  cleanups.push(() => rmSync(workDir, { recursive: true, force: true }))
  const distDir = join(workDir, 'dist')
  mkdirSync(distDir, { recursive: true })
  const startMs = performance.now()
  const pageFailures = await buildUi(distDir, log)
  log(
    `production build with the bench pages in ${((performance.now() - startMs) / 1000).toFixed(1)} s`,
  )
  const baseUrl = await startServer(distDir, join(workDir, 'data'))
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, args: BENCH_CHROMIUM_ARGS })
  cleanups.push(() => browser.close())
  return {
    baseUrl,
    browser,
    writeStaticFile(path, bytes) {
      const target = join(distDir, 'bench-data', path)
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, bytes)
      return `${baseUrl}/bench-data/${path}`
    },
    async openBenchPage(name) {
      const failure = pageFailures.get(name)
      if (failure !== undefined)
        throw new BenchSkip(`bench page ${name} does not build: ${failure}`)
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto(`${baseUrl}/bench/browser/page/${name}.html`)
      await page.waitForFunction(() => 'diveBench' in globalThis)
      return { context, page }
    },
  }
}

/** The shared harness, started by the first browser case that asks. */
export function useHarness(log: (message: string) => void): Promise<BenchHarness> {
  harness ??= startHarness(log)
  return harness
}

/** Closes the browser and the server and removes the build (bench/run.ts calls it at the end). */
export async function disposeHarness(): Promise<void> {
  harness = null
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
}

/** Logs the demo manager in; returns what the app keeps in localStorage under AUTH_STORAGE_KEY. */
export async function demoAuthStorage(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'manager@dive.example', password: 'dive-demo' }),
  })
  if (!response.ok) throw new Error(`login: ${response.status}`)
  const tokens = (await response.json()) as {
    accessToken: string
    refreshToken: string
    expiresIn: number
  }
  return JSON.stringify({
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAtMs: Date.now() + tokens.expiresIn * 1000,
  })
}
