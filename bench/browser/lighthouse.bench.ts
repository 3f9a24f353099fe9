/**
 * Lighthouse 12, desktop (issue 23 item 5): accessibility, best practices and performance of every
 * page (login, projects, setup, results, dashboard, settings/profile, not-found), the built app
 * served by the real server (bench harness), in headless /usr/bin/chromium started by
 * chrome-launcher; no network beyond loopback. Targets: accessibility >= 0.95, best practices 1.
 * Each page runs with an empty HTTP cache; the pages behind the login get the demo manager's
 * tokens in localStorage first (Lighthouse's own storage reset is off, or it would log them out).
 * The audits that cost points are listed on stderr.
 */
import type { Browser } from 'playwright-core'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { BenchSkip } from '../lib/types.ts'
import { BENCH_CHROMIUM_ARGS, demoAuthStorage, disposeHarness, useHarness } from './harness.ts'

const PAGES = [
  { name: 'login', path: '/login', auth: false },
  { name: 'projects', path: '/projects', auth: true },
  { name: 'setup', path: '/simulation/1/preprocessor', auth: true },
  { name: 'results', path: '/simulation/1/postprocessor', auth: true },
  { name: 'dashboard', path: '/simulation/1/dashboard', auth: true },
  { name: 'profile', path: '/settings/profile', auth: true },
  { name: 'notFound', path: '/no-such-page', auth: true },
] as const

const CATEGORIES = [
  { id: 'accessibility', key: 'accessibility', min: 0.95, target: '>= 0.95' },
  { id: 'best-practices', key: 'bestPractices', min: 1, target: '== 1' },
  { id: 'performance', key: 'performance', min: null, target: null },
] as const

interface CategoryResult {
  score: number | null
  auditRefs: { id: string; weight: number }[]
}

/** Sets (or clears) the app's tokens in the profile Lighthouse uses, and empties the HTTP cache. */
async function preparePage(browser: Browser, baseUrl: string, tokens: string | null) {
  const context = browser.contexts()[0]
  if (!context) throw new Error('chromium has no default context')
  const page = await context.newPage()
  await page.goto(`${baseUrl}/api/version`)
  await page.evaluate((value) => {
    if (value === null) localStorage.removeItem('dive.auth')
    else localStorage.setItem('dive.auth', value)
  }, tokens)
  const session = await context.newCDPSession(page)
  await session.send('Network.clearBrowserCache')
  await session.detach()
  await page.close()
}

export const cases: BenchCase[] = [
  {
    name: 'browser/lighthouse',
    description:
      'Lighthouse 12 desktop on every page: accessibility (>= 0.95), best practices (== 1) and performance (reports), with the audits that cost points on stderr',
    async run(context: BenchContext) {
      const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
      let lighthouse: typeof import('lighthouse').default
      let desktopConfig: typeof import('lighthouse').desktopConfig
      let launch: typeof import('chrome-launcher').launch
      try {
        ;({ default: lighthouse, desktopConfig } = await import('lighthouse'))
        ;({ launch } = await import('chrome-launcher'))
      } catch (error) {
        throw new BenchSkip(`lighthouse or chrome-launcher is not installed: ${String(error)}`)
      }
      const harness = await useHarness(context.log)
      const chrome = await launch({
        chromePath,
        chromeFlags: ['--headless=new', ...BENCH_CHROMIUM_ARGS],
        logLevel: 'silent',
      })
      const { chromium } = await import('playwright-core')
      const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`)
      try {
        const tokens = await demoAuthStorage(harness.baseUrl)
        const failures: string[] = []
        // One page's audit; a failed trace (NO_NAVSTART under load) is tried once more.
        const auditPage = async (path: string, pageTokens: string | null) => {
          let message = ''
          for (let attempt = 0; attempt < 2; attempt += 1) {
            await preparePage(cdp, harness.baseUrl, pageTokens)
            const result = await lighthouse(
              `${harness.baseUrl}${path}`,
              {
                port: chrome.port,
                logLevel: 'error',
                output: 'json',
                disableStorageReset: true,
                onlyCategories: CATEGORIES.map((category) => category.id),
              },
              desktopConfig,
            )
            if (result && !result.lhr.runtimeError) return result.lhr
            message = result?.lhr.runtimeError?.message ?? 'Lighthouse returned nothing'
            context.log(`${path}: ${message}${attempt === 0 ? '; once more' : ''}`)
          }
          return { error: message }
        }
        // LIGHTHOUSE_PAGES=results,dashboard audits only those pages (names as in PAGES).
        const only = process.env.LIGHTHOUSE_PAGES?.split(',')
        const pages = PAGES.filter((page) => only?.includes(page.name) ?? true).slice(
          0,
          context.quick ? 2 : PAGES.length,
        )
        for (const page of pages) {
          const lhr = await auditPage(page.path, page.auth ? tokens : null)
          if ('error' in lhr) {
            failures.push(`${page.path}: ${lhr.error}`)
            continue
          }
          const landed = new URL(lhr.finalDisplayedUrl).pathname
          if (landed !== page.path) context.log(`${page.name}: landed on ${landed}`)
          const metrics = [
            'first-contentful-paint',
            'largest-contentful-paint',
            'total-blocking-time',
          ]
            .map((id) => `${id} ${lhr.audits[id]?.displayValue ?? '?'}`)
            .join(', ')
          context.log(`${page.name}: ${metrics}`)
          for (const category of CATEGORIES) {
            const scored = lhr.categories[category.id] as CategoryResult | undefined
            const score = scored?.score ?? null
            if (score === null) throw new Error(`${page.path}: no ${category.id} score`)
            context.report({
              case: `browser/lighthouse.${page.name}.${category.key}`,
              value: score,
              unit: 'score',
              ratio: null,
              target: category.target,
              ok: category.min === null ? null : score >= category.min,
            })
            if (category.min === null) continue
            const lost = (scored?.auditRefs ?? [])
              .filter((ref) => ref.weight > 0)
              .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
              .filter(({ audit }) =>
                audit?.scoreDisplayMode === 'binary' || audit?.scoreDisplayMode === 'numeric'
                  ? (audit.score ?? 1) < 1
                  : false,
              )
              .map(({ ref, audit }) => `${ref.id} (${audit?.title ?? ''})`)
            if (lost.length > 0)
              context.log(`${page.name} ${category.id} loses on: ${lost.join('; ')}`)
          }
        }
        if (failures.length > 0) throw new Error(`Lighthouse failed on ${failures.join('; ')}`)
      } finally {
        await cdp.close()
        chrome.kill()
      }
    },
  },
]

export async function disposeBench(): Promise<void> {
  await disposeHarness()
}
