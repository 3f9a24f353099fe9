import { existsSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { API_PREFIX } from '../domain/rest.ts'

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dive</title></head>
<body><h1>Dive</h1><p>The user interface is not built yet. Run <code>npx vite build</code> (or <code>npm start</code>) and reload.</p>
<p>The API is available under <code>${API_PREFIX}</code>.</p></body></html>`

/** Where the UI lives: dist/ of a `vite build`, if it holds an index.html. */
export function hasBuiltUi(distDir: string): boolean {
  return existsSync(join(distDir, 'index.html'))
}

/** Hashed build output (vite's assets/): a file's name changes whenever its bytes do. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable'

/** Everything else (index.html, public/ files): kept, but revalidated on every use (ETag → 304). */
export const REVALIDATE_CACHE_CONTROL = 'no-cache'

/** The Cache-Control of a file under distDir, by its path relative to it ('/'-separated). */
export function cacheControlFor(relativePath: string): string {
  return relativePath.startsWith('assets/') ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL
}

/**
 * Serves the built UI from distDir (when present). The build writes a .br and a .gz beside each
 * compressible file (scripts/precompress.ts): a browser that accepts brotli gets the .br, else
 * one that accepts gzip the .gz, else the plain file, with Content-Encoding, Vary: Accept-Encoding
 * and the plain file's Content-Type. ETag and Last-Modified come from the file sent, so a
 * revalidation answers 304.
 */
export async function registerStatic(app: FastifyInstance, distDir: string): Promise<boolean> {
  if (!hasBuiltUi(distDir)) return false
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    preCompressed: true,
    setHeaders: (reply, path) => {
      const relativePath = relative(distDir, path).split(sep).join('/')
      reply.header('Cache-Control', cacheControlFor(relativePath))
    },
  })
  return true
}

/**
 * A browser navigation (GET that accepts HTML, or the root) outside /api and /ws: the SPA answers
 * it. A missing script or image (no text/html in Accept) stays a 404 rather than getting HTML.
 */
export function isPageRequest(request: FastifyRequest, urlPath: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  if (urlPath === API_PREFIX || urlPath.startsWith(`${API_PREFIX}/`)) return false
  if (urlPath === '/ws' || urlPath.startsWith('/ws/')) return false
  return urlPath === '/' || (request.headers.accept ?? '').includes('text/html')
}

/** index.html for any SPA route, or a page that says how to build the UI. */
export async function sendIndexPage(reply: FastifyReply, uiBuilt: boolean): Promise<FastifyReply> {
  if (!uiBuilt) return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE)
  return reply.header('Cache-Control', REVALIDATE_CACHE_CONTROL).sendFile('index.html')
}
