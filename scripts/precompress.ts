/**
 * Precompressed static assets (issue 23 item 4): after `vite build`, a .br (brotli, quality 11) and
 * a .gz (gzip, level 9) beside every compressible file of the output folder, which the server sends
 * to browsers that accept them (server/static.ts). Compressing once at build time lets us use the
 * slowest, smallest settings: brotli 11 on the 1.2 MB main script is about 1 s here, far too slow
 * per request.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { extname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Logger, Plugin } from 'vite'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Text formats worth compressing; images other than SVG, fonts and archives are compressed already. */
export const COMPRESSIBLE_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.xml',
  '.wasm',
  '.webmanifest',
  '.ico',
])

/** Files smaller than this fit in one packet either way: no variants. */
export const PRECOMPRESS_MIN_BYTES = 1024

/** A variant is written only when it saves at least this share of the bytes. */
const MIN_SAVING = 0.1

export interface PrecompressResult {
  /** Paths relative to the folder. */
  files: string[]
  rawBytes: number
  brotliBytes: number
  gzipBytes: number
}

function walk(dir: string, base = ''): string[] {
  const paths: string[] = []
  for (const entry of readdirSync(join(dir, base), { withFileTypes: true })) {
    const relative = base === '' ? entry.name : `${base}/${entry.name}`
    if (entry.isDirectory()) paths.push(...walk(dir, relative))
    else if (entry.isFile()) paths.push(relative)
  }
  return paths
}

/** Whether a variant exists that is at least as new as its source (a rebuild into the same folder). */
function isFresh(sourcePath: string, variantPath: string): boolean {
  try {
    return statSync(variantPath).mtimeMs >= statSync(sourcePath).mtimeMs
  } catch {
    return false
  }
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of dir (source maps are left
 * out: only developer tools fetch them). Variants that save under 10 % are not written, so the
 * server sends the plain file.
 */
export async function precompressDirectory(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: [], rawBytes: 0, brotliBytes: 0, gzipBytes: 0 }
  const candidates = walk(dir).filter((path) => COMPRESSIBLE_EXTENSIONS.has(extname(path)))
  await Promise.all(
    candidates.map(async (path) => {
      const source = join(dir, path)
      const bytes = readFileSync(source)
      if (bytes.byteLength < PRECOMPRESS_MIN_BYTES) return
      if (isFresh(source, `${source}.br`) && isFresh(source, `${source}.gz`)) return
      const [brotli, gzipped] = await Promise.all([
        brotliAsync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        }),
        gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ])
      const limit = bytes.byteLength * (1 - MIN_SAVING)
      if (brotli.byteLength <= limit) writeFileSync(`${source}.br`, brotli)
      if (gzipped.byteLength <= limit) writeFileSync(`${source}.gz`, gzipped)
      result.files.push(path)
      result.rawBytes += bytes.byteLength
      result.brotliBytes += Math.min(brotli.byteLength, bytes.byteLength)
      result.gzipBytes += Math.min(gzipped.byteLength, bytes.byteLength)
    }),
  )
  result.files.sort()
  return result
}

/** The vite plugin: precompresses the build's output folder once the bundle is written. */
export function precompress(): Plugin {
  let outDir = ''
  let logger: Logger | undefined
  return {
    name: 'dive:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
      logger = config.logger
    },
    async closeBundle() {
      if (!existsSync(outDir)) return
      const result = await precompressDirectory(outDir)
      if (result.files.length === 0) return
      const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
      logger?.info(
        `precompressed ${result.files.length} files: ${kB(result.rawBytes)} → brotli ` +
          `${kB(result.brotliBytes)}, gzip ${kB(result.gzipBytes)}`,
      )
    },
  }
}
