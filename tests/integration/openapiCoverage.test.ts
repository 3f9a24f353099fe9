import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEachDialect, startTestServer, type Json, type TestServer } from './harness.ts'

/*
 * GET /api/openapi.json describes every call the server answers under /api: the JSON routes of
 * ROUTES and the binary ones registered beside them (server/api/binaryOperations.ts: downloads,
 * multipart uploads, the VM ticket and storage, the organization storage). The server's own route
 * table is read back from Fastify, so a route added without its operation fails here.
 */

/** Methods Fastify adds by itself, or no client calls on their own. */
const IMPLIED_METHODS = new Set(['HEAD', 'OPTIONS'])

/** A route of the server: its method and the path it may be written as in the document. */
interface ServerRoute {
  method: string
  /** Fastify keeps routes whose parameters differ in name only at one node ('{id}|{projectId}'). */
  paths: string[]
}

/**
 * The server's routes with OpenAPI's `{param}`, read from Fastify's route tree (printRoutes: one
 * line per node, four columns per level, the names of one parameter node joined by '|', its
 * methods in brackets).
 */
function serverRoutes(app: FastifyInstance): ServerRoute[] {
  const routes: ServerRoute[] = []
  const stack: string[][] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) continue
    stack.length = match[1]!.length / 4
    // '/:id|:projectId': the names after the first share its text before the parameter
    const [first = '', ...others] = match[2]!.split('|')
    const before = first.slice(0, Math.max(0, first.indexOf(':')))
    stack.push(
      [first, ...others.map((name) => before + name)].map((part) =>
        part.replace(/:(\w+)/g, '{$1}'),
      ),
    )
    const paths = stack.reduce<string[]>(
      (prefixes, parts) => prefixes.flatMap((prefix) => parts.map((part) => prefix + part)),
      [''],
    )
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim()))
      if (method && !IMPLIED_METHODS.has(method)) routes.push({ method, paths })
  }
  return routes
}

describeEachDialect('the OpenAPI document lists every /api route', (dialect) => {
  let server: TestServer
  let document: Json

  beforeAll(async () => {
    server = await startTestServer(dialect)
    document = (await server.request('GET', '/api/openapi.json')).body
  })
  afterAll(async () => {
    await server?.close()
  })

  const documented = () =>
    Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`),
    )

  it('has an operation for each route the server registered under /api', () => {
    const routes = serverRoutes(server.app).filter((route) =>
      route.paths.some((path) => path.startsWith('/api/')),
    )
    const written = routes.flatMap((route) => route.paths.map((path) => `${route.method} ${path}`))
    // the reading of Fastify's table found the routes (JSON and binary alike)
    expect(written).toEqual(
      expect.arrayContaining(['GET /api/projects/{id}', 'POST /api/client-upload/uploads']),
    )
    const listed = new Set(documented())
    const missing = routes.filter(
      (route) => !route.paths.some((path) => listed.has(`${route.method} ${path}`)),
    )
    expect(missing).toEqual([])
  })

  it('describes the VM ticket, the VM and organization storage transfers', () => {
    const paths = document.paths as Record<string, Record<string, Json>>
    const ticket = paths['/api/remote_vms/{id}/ticket']?.post
    expect(ticket?.responses['201'].content['application/json'].schema.required).toEqual([
      'ticket',
      'expiresInS',
    ])
    const vmUpload = paths['/api/remote_vms/{id}/storage']?.post
    expect(vmUpload?.requestBody.content['multipart/form-data'].schema.required).toEqual(['file'])
    const upload = paths['/api/client-upload/organization_storage_upload']?.post
    expect(upload?.requestBody.content['multipart/form-data'].schema.required).toEqual(['file'])
    const download = paths['/api/organization_storage/download']?.get
    expect(download?.parameters).toEqual([
      expect.objectContaining({ name: 'name', in: 'query', required: true }),
    ])
    expect(download?.responses['200'].content['application/octet-stream']).toBeDefined()
    // each with the errors the server gives (tests of server/vms/ check them)
    const statuses = (operation: Json): string[] => Object.keys(operation?.responses as object)
    expect(statuses(ticket)).toEqual(['201', '400', '401', '404', '409'])
    expect(statuses(download)).toEqual(['200', '400', '401', '404'])
  })

  it('lists no operation the server does not answer', () => {
    for (const operation of documented()) {
      const [method, path] = operation.split(' ')
      const url = path!.replace(/\{(\w+)\}/g, (_all, name: string) => `:${name}`)
      expect(server.app.hasRoute({ method: method!, url }), operation).toBe(true)
    }
  })
})
