/**
 * The production build's chunk graph (issue 23 item 4): the login page loads no chart.js, three.js,
 * results engine or dashboard grid; each heavy page is its own lazily loaded chunk; the render and
 * data workers are still built; every script has its brotli and gzip variants. One `vite build`
 * into a temp folder, then dist/.vite/manifest.json and the source maps are read.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
  assets?: string[]
}
type Manifest = Record<string, ManifestChunk>

/** Modules the login page must not load: charts, the 3D engine and its workers, the dashboard grid. */
const HEAVY_MODULES: { name: string; pattern: RegExp }[] = [
  { name: 'chart.js', pattern: /node_modules\/chart\.js\// },
  { name: 'three', pattern: /node_modules\/three\// },
  { name: 'react-grid-layout', pattern: /node_modules\/react-grid-layout\// },
  { name: 'apache-arrow', pattern: /node_modules\/apache-arrow\// },
  { name: 'engine/', pattern: /(^|\/)engine\// },
]

/** The chunks a page's entry pulls in before it runs: static imports, transitively. */
function staticClosure(manifest: Manifest, key: string): ManifestChunk[] {
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    for (const imported of manifest[name]?.imports ?? []) visit(imported)
  }
  visit(key)
  return [...seen].map((name) => {
    const chunk = manifest[name]
    if (!chunk) throw new Error(`The manifest has no chunk ${name}`)
    return chunk
  })
}

describe('the production build', () => {
  let outDir: string
  let manifest: Manifest

  /**
   * The modules bundled into a chunk, from its source map (the build writes maps). Rolldown's
   * runtime chunk (its module helpers, shared by other chunks) is generated code with no map.
   */
  const modulesOf = (file: string): string[] => {
    if (/(^|\/)rolldown-runtime-[\w-]+\.js$/.test(file) && !existsSync(join(outDir, `${file}.map`)))
      return []
    const map = JSON.parse(readFileSync(join(outDir, `${file}.map`), 'utf8')) as {
      sources: string[]
    }
    return map.sources.map((source) => source.replace(/\\/g, '/'))
  }

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'dive-route-split-'))
    const { build } = await import('vite')
    await build({
      configFile: join(REPO_ROOT, 'vite.config.ts'),
      root: REPO_ROOT,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    })
    manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest
  }, 240_000)
  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  it('loads no chart.js, three.js, Arrow, results engine or dashboard grid on the login page', () => {
    const closure = staticClosure(manifest, 'index.html')
    expect(closure[0]?.isEntry).toBe(true)
    const modules = closure.flatMap((chunk) => modulesOf(chunk.file))
    expect(modules.some((module) => module.endsWith('src/pages/LoginPage.tsx'))).toBe(true)
    for (const { name, pattern } of HEAVY_MODULES)
      expect(
        modules.filter((module) => pattern.test(module)),
        `${name} in the login page's chunks`,
      ).toEqual([])
  })

  it('builds each page behind the login as its own lazily loaded chunk', () => {
    const entry = manifest['index.html']
    for (const page of [
      'src/pages/projects/ProjectsPage.tsx',
      'src/pages/SettingsPage.tsx',
      'src/pages/simulation/PreprocessorPage.tsx',
      'src/pages/simulation/DashboardPage.tsx',
      'src/pages/simulation/PostprocessorPage.tsx',
    ]) {
      expect(manifest[page]?.isDynamicEntry, page).toBe(true)
      expect(entry?.dynamicImports, page).toContain(page)
    }
    // The results page brings chart.js with it; the login page did not (above).
    const results = staticClosure(manifest, 'src/pages/simulation/PostprocessorPage.tsx')
    const resultsModules = results.flatMap((chunk) => modulesOf(chunk.file))
    expect(resultsModules.some((module) => /node_modules\/chart\.js\//.test(module))).toBe(true)
  })

  it('still builds the render and data workers, started from a chunk the login page does not load', () => {
    const files = readdirSync(join(outDir, 'assets'))
    const render = files.find((file) => /^render\.worker-[\w-]+\.js$/.test(file))
    const data = files.find((file) => /^data\.worker-[\w-]+\.js$/.test(file))
    expect(render).toBeDefined()
    expect(data).toBeDefined()
    const renderModules = modulesOf(`assets/${render}`)
    expect(renderModules.some((module) => /node_modules\/three\//.test(module))).toBe(true)
    expect(renderModules.some((module) => module.endsWith('workers/render.worker.ts'))).toBe(true)
    const starters = Object.values(manifest).filter((chunk) =>
      chunk.assets?.includes(`assets/${render}`),
    )
    expect(starters.length).toBeGreaterThan(0)
    const login = new Set(staticClosure(manifest, 'index.html').map((chunk) => chunk.file))
    for (const starter of starters) expect(login.has(starter.file), starter.file).toBe(false)
  })

  it('writes a brotli and a gzip variant beside every script and stylesheet', () => {
    const files = readdirSync(join(outDir, 'assets')).filter((file) => /\.(js|css)$/.test(file))
    expect(files.length).toBeGreaterThan(5)
    for (const file of files) {
      const size = readFileSync(join(outDir, 'assets', file)).byteLength
      if (size < 1024) continue
      expect(existsSync(join(outDir, 'assets', `${file}.br`)), `${file}.br`).toBe(true)
      expect(existsSync(join(outDir, 'assets', `${file}.gz`)), `${file}.gz`).toBe(true)
    }
  })
})
