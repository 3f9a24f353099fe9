import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../server/securityHeaders.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

// Issue 13 item 8: no Content-Security-Policy or Referrer-Policy was sent.
describeEachDialect('security headers', (dialect) => {
  let server: TestServer
  let distDir: string
  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'dive-csp-dist-'))
    mkdirSync(join(distDir, 'assets'))
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>')
    writeFileSync(join(distDir, 'assets', 'render.worker-x.js'), 'self.onmessage = () => {}')
    server = await startTestServer(dialect, { distDir })
  })
  afterAll(async () => {
    await server?.close()
    rmSync(distDir, { recursive: true, force: true })
  })

  it('sends the CSP (with frame-ancestors), Referrer-Policy and isolation headers everywhere', async () => {
    const token = (await server.login('manager@dive.example')).accessToken
    const replies = [
      await server.request('GET', '/projects'),
      await server.request('GET', '/assets/render.worker-x.js'),
      await server.request('GET', '/api/users', { token }),
      await server.request('GET', '/api/nothing-here'),
    ]
    for (const reply of replies) {
      expect(reply.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
      expect(reply.headers.get('referrer-policy')).toBe('no-referrer')
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
      expect(reply.headers.get('cross-origin-opener-policy')).toBe('same-origin')
      expect(reply.headers.get('cross-origin-embedder-policy')).toBe('require-corp')
      expect(reply.headers.get('cross-origin-resource-policy')).toBe('same-origin')
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'")
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline')
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval')
  })
})
