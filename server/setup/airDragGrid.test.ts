import { afterAll, beforeAll, expect, it } from 'vitest'
import { decodeAirDragGridFile } from '../../domain/airDragGridFile.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'
import { SETUP_FILE_CACHE_CONTROL } from './fileRoutes.ts'
import { startSetupTestServer, type SetupTestServer } from './testServer.ts'

/*
 * GET /simulations/{id}/air_drag_domain/grid: the air drag domain's grid as a binary (spec/
 * results.md 'fetch an air drag grid binary by URL as an array buffer'), with its ETag; 404
 * before a domain is defined and for a simulation out of reach (another organization).
 */
describeEachDialect('air drag grid download', (dialect) => {
  let server: SetupTestServer
  const api = (...args: Parameters<SetupTestServer['api']>) => server.api(...args)

  beforeAll(async () => {
    server = await startSetupTestServer(dialect)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('serves the grid of the defined domain, and 404 without one or out of reach', async () => {
    const simulation = await server.createSimulation('Air drag grid')
    const path = `/simulations/${simulation}/air_drag_domain/grid`
    expect((await api('GET', path)).status).toBe(404)
    const put = await api('PUT', `/simulations/${simulation}/air_drag_domain`, {
      body: {
        kind: 'constant',
        center: [1, 0, 0.5],
        size: [2, 1, 1],
        cellSize: 0.25,
        velocity: [10, 0, 0],
      },
    })
    expect(put.status).toBe(200)
    const reply = await api('GET', path)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('application/octet-stream')
    expect(reply.headers.get('cache-control')).toBe(SETUP_FILE_CACHE_CONTROL)
    expect(decodeAirDragGridFile(reply.bytes)).toEqual({
      dims: [8, 4, 4],
      kind: 'constant',
      min: [0, -0.5, 0],
      cellSize: 0.25,
      velocity: [10, 0, 0],
    })
    const tag = reply.headers.get('etag')!
    expect((await api('GET', path, { headers: { 'if-none-match': tag } })).status).toBe(304)
    // a finer grid is another file
    await api('PUT', `/simulations/${simulation}/air_drag_domain`, { body: { cellSize: 0.5 } })
    const coarser = await api('GET', path, { headers: { 'if-none-match': tag } })
    expect(coarser.status).toBe(200)
    expect(decodeAirDragGridFile(coarser.bytes).dims).toEqual([4, 2, 2])
    // kind simulation: the air varies over the cells, no single velocity
    await api('PUT', `/simulations/${simulation}/air_drag_domain`, { body: { kind: 'simulation' } })
    expect(decodeAirDragGridFile((await api('GET', path)).bytes).velocity).toBeNull()

    expect((await api('GET', path, { token: null })).status).toBe(401)
    expect((await api('GET', path, { token: server.other })).status).toBe(404)
    expect((await api('GET', '/simulations/abc/air_drag_domain/grid')).status).toBe(400)
  })
})
