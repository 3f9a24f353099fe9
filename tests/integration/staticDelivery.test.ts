/**
 * Delivery of the built UI (issue 23 item 4): precompressed variants chosen by Accept-Encoding,
 * a year's cache for hashed assets, index.html revalidated (304), HEAD and ranges, on both dialects.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressDirectory } from '../../scripts/precompress.ts'
import {
  IMMUTABLE_CACHE_CONTROL,
  REVALIDATE_CACHE_CONTROL,
  cacheControlFor,
} from '../../server/static.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

// Big enough to be compressed (PRECOMPRESS_MIN_BYTES) and to compress well, like a real bundle.
const SCRIPT = Array.from(
  { length: 400 },
  (_, i) => `export function step${i}(x) { return x * ${i} + 1 }`,
).join('\n')
const INDEX_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dive</title>
<script type="module" src="/assets/index-a1b2c3d4.js"></script></head>
<body><div id="root"></div>${'<!-- padding to pass the 1 KiB floor -->'.repeat(40)}</body></html>`
const SMALL_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'

interface RawReply {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** A request that leaves the body as sent (fetch would decompress it and hide Content-Encoding). */
function rawRequest(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${baseUrl}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      )
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

function varyNames(headers: IncomingHttpHeaders): string[] {
  return (headers.vary ?? '').split(',').map((name) => name.trim().toLowerCase())
}

describe('precompressDirectory', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dive-precompress-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('writes .br and .gz that decompress to the file, and skips small files and source maps', async () => {
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'assets', 'app.js'), SCRIPT)
    writeFileSync(join(dir, 'assets', 'app.js.map'), SCRIPT)
    writeFileSync(join(dir, 'icon.svg'), SMALL_SVG)
    const result = await precompressDirectory(dir)
    expect(result.files).toEqual(['assets/app.js'])
    const br = readFileSync(join(dir, 'assets', 'app.js.br'))
    const gz = readFileSync(join(dir, 'assets', 'app.js.gz'))
    expect(brotliDecompressSync(br).toString()).toBe(SCRIPT)
    expect(gunzipSync(gz).toString()).toBe(SCRIPT)
    expect(br.byteLength).toBeLessThan(gz.byteLength)
    expect(result.brotliBytes).toBe(br.byteLength)
    expect(() => readFileSync(join(dir, 'assets', 'app.js.map.br'))).toThrow()
    expect(() => readFileSync(join(dir, 'icon.svg.br'))).toThrow()
    // A second run over the same folder finds the variants up to date.
    expect((await precompressDirectory(dir)).files).toEqual([])
  })
})

describe('cacheControlFor', () => {
  it('caches hashed assets for a year and revalidates everything else', () => {
    expect(cacheControlFor('assets/index-a1b2c3d4.js')).toBe(IMMUTABLE_CACHE_CONTROL)
    expect(cacheControlFor('assets/index-a1b2c3d4.js.br')).toBe(IMMUTABLE_CACHE_CONTROL)
    expect(cacheControlFor('index.html')).toBe(REVALIDATE_CACHE_CONTROL)
    expect(cacheControlFor('favicon.svg')).toBe(REVALIDATE_CACHE_CONTROL)
  })
})

describeEachDialect('static delivery', (dialect) => {
  let server: TestServer
  let distDir: string

  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'dive-dist-'))
    mkdirSync(join(distDir, 'assets'))
    writeFileSync(join(distDir, 'index.html'), INDEX_HTML)
    writeFileSync(join(distDir, 'assets', 'index-a1b2c3d4.js'), SCRIPT)
    writeFileSync(join(distDir, 'favicon.svg'), SMALL_SVG)
    await precompressDirectory(distDir)
    server = await startTestServer(dialect, { distDir, seed: false })
  })
  afterAll(async () => {
    await server?.close()
    rmSync(distDir, { recursive: true, force: true })
  })

  const script = '/assets/index-a1b2c3d4.js'

  it('sends brotli to a browser that accepts it, with the script type, length and a year of cache', async () => {
    const reply = await rawRequest(server.baseUrl, script, {
      'accept-encoding': 'gzip, deflate, br, zstd',
    })
    expect(reply.status).toBe(200)
    expect(reply.headers['content-encoding']).toBe('br')
    expect(reply.headers['content-type']).toMatch(/^(text|application)\/javascript/)
    expect(varyNames(reply.headers)).toContain('accept-encoding')
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(Number(reply.headers['content-length'])).toBe(reply.body.byteLength)
    expect(reply.body.byteLength).toBeLessThan(SCRIPT.length / 4)
    expect(brotliDecompressSync(reply.body).toString()).toBe(SCRIPT)
    // The isolation and security headers are on compressed files as on every response.
    expect(reply.headers['cross-origin-embedder-policy']).toBe('require-corp')
    expect(reply.headers['x-content-type-options']).toBe('nosniff')
  })

  it('sends gzip to a client without brotli', async () => {
    const reply = await rawRequest(server.baseUrl, script, { 'accept-encoding': 'gzip, deflate' })
    expect(reply.status).toBe(200)
    expect(reply.headers['content-encoding']).toBe('gzip')
    expect(reply.headers['content-type']).toMatch(/javascript/)
    expect(varyNames(reply.headers)).toContain('accept-encoding')
    expect(Number(reply.headers['content-length'])).toBe(reply.body.byteLength)
    expect(gunzipSync(reply.body).toString()).toBe(SCRIPT)
  })

  it('sends the plain file to a client that accepts no compression, still varying on it', async () => {
    const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }]
    for (const headers of variants) {
      const reply = await rawRequest(server.baseUrl, script, headers)
      expect(reply.status).toBe(200)
      expect(reply.headers['content-encoding']).toBeUndefined()
      expect(varyNames(reply.headers)).toContain('accept-encoding')
      expect(Number(reply.headers['content-length'])).toBe(SCRIPT.length)
      expect(reply.body.toString()).toBe(SCRIPT)
    }
  })

  it('sends a file too small to have variants as it is', async () => {
    const reply = await rawRequest(server.baseUrl, '/favicon.svg', { 'accept-encoding': 'br' })
    expect(reply.status).toBe(200)
    expect(reply.headers['content-encoding']).toBeUndefined()
    expect(reply.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(reply.body.toString()).toBe(SMALL_SVG)
    expect(reply.headers['cache-control']).toBe('no-cache')
  })

  it('revalidates index.html: no-cache with an ETag, and a 304 when it has not changed', async () => {
    for (const path of ['/', '/projects']) {
      const headers = { accept: 'text/html', 'accept-encoding': 'gzip, br' }
      const first = await rawRequest(server.baseUrl, path, headers)
      expect(first.status).toBe(200)
      expect(first.headers['cache-control']).toBe('no-cache')
      expect(first.headers['content-type']).toMatch(/^text\/html/)
      expect(first.headers['content-encoding']).toBe('br')
      expect(brotliDecompressSync(first.body).toString()).toBe(INDEX_HTML)
      const etag = first.headers.etag
      expect(etag).toBeTruthy()
      expect(first.headers['last-modified']).toBeTruthy()
      const again = await rawRequest(server.baseUrl, path, {
        ...headers,
        'if-none-match': etag ?? '',
      })
      expect(again.status).toBe(304)
      expect(again.body.byteLength).toBe(0)
      const byDate = await rawRequest(server.baseUrl, path, {
        ...headers,
        'if-modified-since': first.headers['last-modified'] ?? '',
      })
      expect(byDate.status).toBe(304)
    }
  })

  it('answers a revalidation of a hashed asset with 304 too', async () => {
    const headers = { 'accept-encoding': 'br' }
    const first = await rawRequest(server.baseUrl, script, headers)
    const again = await rawRequest(server.baseUrl, script, {
      ...headers,
      'if-none-match': first.headers.etag ?? '',
    })
    expect(again.status).toBe(304)
  })

  it('answers HEAD with the headers of the variant and no body', async () => {
    const get = await rawRequest(server.baseUrl, script, { 'accept-encoding': 'br' })
    const head = await rawRequest(server.baseUrl, script, { 'accept-encoding': 'br' }, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-encoding']).toBe('br')
    expect(head.headers['content-length']).toBe(get.headers['content-length'])
    expect(head.body.byteLength).toBe(0)
  })

  it('serves a byte range of the plain file', async () => {
    const reply = await rawRequest(server.baseUrl, script, { range: 'bytes=0-9' })
    expect(reply.status).toBe(206)
    expect(reply.headers['content-range']).toBe(`bytes 0-9/${SCRIPT.length}`)
    expect(reply.body.toString()).toBe(SCRIPT.slice(0, 10))
  })

  it('keeps a missing asset a 404 and the API uncompressed and uncached', async () => {
    const missing = await rawRequest(server.baseUrl, '/assets/missing-0000.js', {
      'accept-encoding': 'br',
    })
    expect(missing.status).toBe(404)
    const api = await rawRequest(server.baseUrl, '/api/version', { 'accept-encoding': 'br' })
    expect(api.status).toBe(200)
    expect(api.headers['content-encoding']).toBeUndefined()
    expect(api.headers['cache-control']).toBe('no-store')
  })
})
