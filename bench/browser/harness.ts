/**
 * What every browser case shares, started once per run: a production build of the UI plus the bench
 * page (bench/browser/page/), the real server (buildApp with a fresh SQLite database) serving it,
 * and headless chromium with the flags of TOOLCHAIN.md.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
/** The bench page's path under the built UI. */
export const BENCH_PAGE_PATH = '/bench/browser/page/index.html'

export interface BenchHarness {
  baseUrl: string
  browser: Browser
  /** A fresh context (own IndexedDB) with the bench page loaded and `window.diveBench` ready. */
  openBenchPage(): Promise<{ context: BrowserContext; page: Page }>
}

let harness: Promise<BenchHarness> | null = null
const cleanups: (() => Promise<void> | void)[] = []

async function buildUi(outDir: string, withApp: boolean): Promise<void> {
  const { build } = await import('vite')
  const bench = join(REPO_ROOT, 'bench/browser/page/index.html')
  await build({
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    root: REPO_ROOT,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      rollupOptions: {
        input: withApp ? { app: join(REPO_ROOT, 'index.html'), bench } : { bench },
      },
    },
  })
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
  const startMs = performance.now()
  try {
    await buildUi(distDir, true)
  } catch (error) {
    // The app may be mid-change in a working tree; cases that only need the bench page still run.
    log(
      `the app does not build (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); bench page only`,
    )
    await buildUi(distDir, false)
    // The server serves a dist/ only when it has an index.html.
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>Dive bench</title>')
  }
  log(
    `production build with the bench page in ${((performance.now() - startMs) / 1000).toFixed(1)} s`,
  )
  const baseUrl = await startServer(distDir, join(workDir, 'data'))
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, args: BENCH_CHROMIUM_ARGS })
  cleanups.push(() => browser.close())
  return {
    baseUrl,
    browser,
    async openBenchPage() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto(`${baseUrl}${BENCH_PAGE_PATH}`)
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
