import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { API_PREFIX, ROUTES } from '../../domain/rest.ts'
import { DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

const INDEX_HTML = '<!doctype html><html><body><div id="root">Dive UI</div></body></html>'

function expectIsolationHeaders(headers: Headers): void {
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin')
  expect(headers.get('cross-origin-embedder-policy')).toBe('require-corp')
  expect(headers.get('cross-origin-resource-policy')).toBe('same-origin')
}

describeEachDialect('http surface', (dialect) => {
  let server: TestServer
  let bare: TestServer
  let distDir: string
  let token: string

  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'dive-dist-'))
    writeFileSync(join(distDir, 'index.html'), INDEX_HTML)
    mkdirSync(join(distDir, 'assets'))
    writeFileSync(join(distDir, 'assets', 'app.js'), 'console.log("dive")')
    server = await startTestServer(dialect, { distDir })
    bare = await startTestServer(dialect, { seed: false })
    token = (await server.login(DEMO_USERS.manager.email)).accessToken
  })
  afterAll(async () => {
    await server?.close()
    await bare?.close()
    rmSync(distDir, { recursive: true, force: true })
  })

  it('serves the release version as text', async () => {
    const reply = await server.request('GET', '/api/version')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(reply.text).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('publishes an OpenAPI 3.1 document with every route, bearer auth and the error body', async () => {
    const reply = await server.request('GET', '/api/openapi.json')
    expect(reply.status).toBe(200)
    const doc = reply.body
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    )
    expect(doc.components.schemas.ApiErrorBody.properties.code.enum).toContain('validation_error')
    for (const [name, def] of Object.entries(ROUTES)) {
      const operation = doc.paths[`${API_PREFIX}${def.path}`]?.[def.method.toLowerCase()]
      expect(operation, name).toBeDefined()
      expect(operation.operationId).toBe(name)
      expect(operation.responses[String(def.status)]).toBeDefined()
      expect(operation.security).toEqual(def.auth ? [{ bearerAuth: [] }] : [])
    }
    expect(doc.paths['/api/simulations/{id}/download'].get.operationId).toBe('downloadSimulation')
    expect(
      doc.paths['/api/simulations/{id}/runs/{runId}/outputs/{outputNo}/bundle'].get.operationId,
    ).toBe('getOutputBundle')
    expect(
      doc.paths['/api/client-upload/simulations/{id}'].put.requestBody.content[
        'multipart/form-data'
      ],
    ).toBeDefined()
    const create = doc.paths['/api/projects'].post
    expect(create.requestBody.content['application/json'].schema.properties.name.maxLength).toBe(
      100,
    )
    expect(create.responses['400']).toEqual({ $ref: '#/components/responses/Error' })
    const list = doc.paths['/api/projects'].get
    expect((list.parameters as { name: string }[]).map((p) => p.name)).toEqual(
      expect.arrayContaining(['q', 'pageLimit', 'pageNumber', 'slim', 'orderBy']),
    )
    const get = doc.paths['/api/projects/{id}'].get
    expect(get.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ])
  })

  it('puts the isolation headers on API answers, errors and static files', async () => {
    const replies = [
      await server.request('GET', '/api/version'),
      await server.request('GET', '/api/projects', { token }),
      await server.request('GET', '/api/projects'),
      await server.request('GET', '/api/none'),
      await server.request('POST', '/api/projects', {
        token,
        rawBody: '{',
        contentType: 'application/json',
      }),
      await server.request('GET', '/'),
      await server.request('GET', '/assets/app.js'),
      await server.request('GET', '/projects', { headers: { accept: 'text/html' } }),
      await server.request('GET', '/assets/missing.js'),
      await bare.request('GET', '/'),
    ]
    for (const reply of replies) expectIsolationHeaders(reply.headers)
  })

  it('serves the built UI and falls back to index.html for page routes', async () => {
    const root = await server.request('GET', '/')
    expect(root.status).toBe(200)
    expect(root.text).toBe(INDEX_HTML)
    const asset = await server.request('GET', '/assets/app.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toMatch(/javascript/)
    const page = await server.request('GET', '/simulation/4/preprocessor', {
      headers: { accept: 'text/html,application/xhtml+xml' },
    })
    expect(page.status).toBe(200)
    expect(page.text).toBe(INDEX_HTML)
    // A missing script is a 404, not HTML; /api and /ws never fall back.
    expect((await server.request('GET', '/assets/missing.js')).status).toBe(404)
    const api = await server.request('GET', '/api/nothing', { headers: { accept: 'text/html' } })
    expect(api.status).toBe(404)
    expect(api.body.code).toBe('resource_not_found')
    const ws = await server.request('GET', '/ws/nothing', { headers: { accept: 'text/html' } })
    expect(ws.status).toBe(404)
  })

  it('says how to build the UI when dist/ is missing, while the API works', async () => {
    const root = await bare.request('GET', '/')
    expect(root.status).toBe(503)
    expect(root.text).toContain('vite build')
    expect((await bare.request('GET', '/api/version')).status).toBe(200)
  })

  it('answers an unexpected failure with 500 unknown_error and no stack', async () => {
    const broken = await startTestServer(dialect)
    const brokenToken = (await broken.login(DEMO_USERS.manager.email)).accessToken
    // Lose the simulations table under the running server.
    const drop = broken.database.handle.db.schema.dropTable('simulations')
    await (dialect === 'postgres' ? drop.cascade() : drop).execute()
    const reply = await broken.request('GET', '/api/projects', { token: brokenToken })
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({
      code: 'unknown_error',
      title: 'Unknown error',
      description: expect.any(String),
    })
    expect(reply.text).not.toMatch(/simulations|stack|\.ts/)
    expectIsolationHeaders(reply.headers)
    await broken.close()
  })
})
