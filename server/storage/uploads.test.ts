import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SECURITY_RISK_MESSAGE } from '../../domain/errors.ts'
import type { Project, Simulation } from '../../domain/projects.ts'
import { buildBoxMesh, countTriangles, type TriangleMesh } from '../../solver/geometry/mesh.ts'
import { encodeAsciiStl, encodeBinaryStl } from '../../solver/geometry/stl.ts'
import {
  describeEachDialect,
  startTestServer,
  type Json,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { loadRunSetup } from '../setup/loadRunSetup.ts'

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
])
const ZIP = Uint8Array.from([
  0x50,
  0x4b,
  0x03,
  0x04,
  20,
  0,
  0,
  0,
  8,
  0,
  ...new Array<number>(90).fill(1),
])
const ELF = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array<number>(120).fill(0)])

describeEachDialect('uploads', (dialect) => {
  let server: TestServer
  let manager: string
  let other: string
  let simulation: Simulation

  const upload = async (
    fileName: string,
    content: Uint8Array | string,
    fields: Record<string, string> = {},
    token = manager,
    path = '/api/client-upload/uploads',
    method = 'POST',
  ): Promise<{ status: number; body: Json }> => {
    const form = new FormData()
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    form.append('file', new Blob([content]), fileName)
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    return { status: response.status, body: (await response.json()) as Json }
  }
  const countUploads = async () =>
    (await server.database.handle.db.selectFrom('uploads').select('id').execute()).length
  const storedFiles = () => {
    const dir = join(server.dataDir, 'uploads')
    return existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0
  }
  const box = (): TriangleMesh => buildBoxMesh([100, 200, 300])

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const project = (
      await server.request<Project>('POST', '/api/projects', {
        token: manager,
        body: { name: 'Uploads' },
      })
    ).body
    simulation = (
      await server.request<Simulation>('POST', `/api/projects/${project.id}/simulations`, {
        token: manager,
        body: { name: 'With files' },
      })
    ).body
  })
  afterAll(async () => {
    await server?.close()
  })

  it('stores a binary STL in mm as a mesh in metres that a part and loadRunSetup use', async () => {
    const reply = await upload('tank.STL', encodeBinaryStl(box()), { unit: 'mm' })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({
      kind: 'stl',
      fileName: 'tank.STL',
      unit: 'mm',
      nbrOfTriangles: 12,
      watertight: true,
    })
    const part = await server.request('POST', `/api/simulations/${simulation.id}/parts`, {
      token: manager,
      body: {
        name: 'Tank',
        component: { type: 'rigid' },
        shape: { type: 'stl', fileId: reply.body.id },
      },
    })
    expect(part.status).toBe(201)
    expect(part.body.shape).toMatchObject({
      fileId: reply.body.id,
      fileName: 'tank',
      fileExtension: 'stl',
    })
    const bbox = part.body.shape.info.boundingBox
    expect(bbox.min[0]).toBeCloseTo(-0.05, 6)
    expect(bbox.max[2]).toBeCloseTo(0.15, 6)
    const setup = await loadRunSetup(server.database.handle.db, server.dataDir, simulation.id)
    const mesh = setup.meshes[part.body.id as number]
    expect(mesh && countTriangles(mesh)).toBe(12)
    expect(mesh?.positions[0]).toBeCloseTo(-0.05, 6)
    expect(setup.parts.map((p) => p.name)).toContain('Tank')
    expect(setup.materials.map((m) => m.id)).toEqual([0])
  })

  it('reads an ASCII STL in inches and reports an open mesh', async () => {
    const open = box()
    const reply = await upload(
      'lid.stl',
      encodeAsciiStl({ positions: open.positions, indices: open.indices.slice(0, 30) }),
      {
        unit: 'in',
      },
    )
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({ unit: 'in', nbrOfTriangles: 10, watertight: false })
    const part = await server.request('POST', `/api/simulations/${simulation.id}/parts`, {
      token: manager,
      body: {
        name: 'Lid',
        component: { type: 'rigid' },
        shape: { type: 'stl', fileId: reply.body.id },
      },
    })
    expect(part.body).toMatchObject({
      hasWarnings: true,
      warnings: [
        { errorCode: 'mesh_holes', message: 'The mesh has 1 hole: it is not watertight.' },
      ],
    })
    expect(part.body.shape.info.boundingBox.max[0]).toBeCloseTo(50 * 0.0254, 5)
  })

  it('refuses a file that is not what it claims to be with 503 and the security-risk message', async () => {
    const before = [await countUploads(), storedFiles()]
    for (const [name, bytes] of [
      ['image.stl', PNG],
      ['archive.stl', ZIP],
      ['program.stl', ELF],
      [
        'notes.stl',
        'These are just some notes and certainly no triangles at all, not a single one, sorry.',
      ],
      ['table.csv', PNG],
      ['binary.csv', Uint8Array.from([1, 2, 3, 0, 0, 5, 6, 7])],
    ] as const) {
      const reply = await upload(name, bytes)
      expect(reply.status, name).toBe(503)
      expect(reply.body).toMatchObject({
        code: 'security_risk',
        description: SECURITY_RISK_MESSAGE,
      })
    }
    expect([await countUploads(), storedFiles()]).toEqual(before)
  })

  it('refuses broken STL files with a clear message and stores nothing', async () => {
    const before = [await countUploads(), storedFiles()]
    const whole = encodeBinaryStl(box())
    const truncated = await upload('cut.stl', whole.slice(0, whole.length - 60))
    expect(truncated.status).toBe(400)
    expect(truncated.body.description).toBe(
      'The STL file is truncated: its header announces 12 triangles but only 10 are present.',
    )
    const nan = await upload(
      'nan.stl',
      'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 NaN\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n',
    )
    expect(nan.status).toBe(400)
    expect(nan.body.description).toMatch(/invalid coordinate/)
    expect((await upload('empty.stl', '')).status).toBe(400)
    const unit = await upload('box.stl', encodeBinaryStl(box()), { unit: 'cm' })
    expect(unit.status).toBe(400)
    expect(unit.body.description).toBe('unit must be m, mm or in')
    expect((await upload('model.step', 'ISO-10303-21;')).status).toBe(400)
    expect([await countUploads(), storedFiles()]).toEqual(before)
  })

  it('refuses a file above its size limit with 413', async () => {
    const big = 'time,vel_x\n' + '0.1,0.2\n'.repeat(2.2 * 1024 * 1024)
    const reply = await upload('big.csv', big)
    expect(reply.status).toBe(413)
    expect(reply.body.description).toBe('The file is larger than 16 MiB.')
  })

  it('needs a token, a multipart body and a file', async () => {
    expect((await upload('box.stl', encodeBinaryStl(box()), {}, 'wrong')).status).toBe(401)
    const json = await server.request('POST', '/api/client-upload/uploads', {
      token: manager,
      body: { file: 'x' },
    })
    expect(json.status).toBe(400)
    const form = new FormData()
    form.append('unit', 'mm')
    const noFile = await fetch(`${server.baseUrl}/api/client-upload/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager}` },
      body: form,
    })
    expect(noFile.status).toBe(400)
  })

  it('turns a CSV into a datatable of its kind and refuses NaN cells and wrong columns', async () => {
    const ok = await upload('profile.csv', 'time,vel_x,vel_y\n0,1,0\n1,1.5,0\n2,2,0\n', {
      kind: 'openBoundary',
      simulationId: String(simulation.id),
    })
    expect(ok.status).toBe(201)
    expect(ok.body).toMatchObject({ kind: 'csv', unit: null, datatableId: expect.any(Number) })
    const table = await server.request('GET', `/api/datatables/${ok.body.datatableId}`, {
      token: manager,
    })
    expect(table.body).toMatchObject({
      headers: ['time', 'vel_x', 'vel_y'],
      resultCount: 3,
      table: { vel_x: [1, 1.5, 2] },
    })
    const before = [await countUploads(), storedFiles()]
    const nan = await upload('nan.csv', 'time,vel_x\n0,1\n1,NaN\n', { kind: 'openBoundary' })
    expect(nan.status).toBe(400)
    expect(nan.body.description).toBe('Validation failed')
    expect(nan.body.errors).toContainEqual({
      path: 'table.vel_x.1',
      message: 'This field requires a valid number.',
    })
    const columns = await upload('cols.csv', 'time,speed\n0,1\n1,2\n', { kind: 'openBoundary' })
    expect(columns.status).toBe(400)
    expect(columns.body.errors).toContainEqual({
      path: 'table',
      message: 'speed is not a known attribute name',
    })
    const ragged = await upload('ragged.csv', 'time,acc_x\n0,1\n1,2,3\n')
    expect(ragged.body.errors).toContainEqual({
      path: 'table',
      message: 'Row 2 has 3 values where the header has 2.',
    })
    expect((await upload('kind.csv', 'a,b\n1,2\n3,4\n', { kind: 'nonsense' })).status).toBe(400)
    expect([await countUploads(), storedFiles()]).toEqual(before)
  })

  it('replaces a datatable from a CSV and keeps it when the CSV is broken', async () => {
    const created = await upload('init.csv', 'pos_x,pos_y,pos_z\n0,0,0\n1,1,1\n', {
      kind: 'initialDistribution',
      simulationId: String(simulation.id),
    })
    const path = `/api/datatables/${created.body.datatableId}/csv`
    const broken = await upload('bad.csv', 'pos_x,pos_y\n0,0\n1,1\n', {}, manager, path, 'PUT')
    expect(broken.status).toBe(400)
    expect(broken.body.errors).toContainEqual({
      path: 'table',
      message: 'pos_z column is required',
    })
    const replaced = await upload(
      'new.csv',
      'pos_x,pos_y,pos_z,temperature\n0,0,0,300\n1,1,1,310\n2,2,2,320\n',
      {},
      manager,
      path,
      'PUT',
    )
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({
      resultCount: 3,
      headers: ['pos_x', 'pos_y', 'pos_z', 'temperature'],
    })
    expect(
      (await upload('x.csv', 'pos_x,pos_y,pos_z\n0,0,0\n1,1,1\n', {}, other, path, 'PUT')).status,
    ).toBe(404)
  })

  it('links a CSV upload as the acceleration file of the settings', async () => {
    const csv = await upload('shake.csv', 'time,acc_x,acc_y,acc_z\n0,0,0,0\n0.5,1,0,0\n1,0,0,0\n')
    expect(csv.status).toBe(201)
    const reply = await server.request('PUT', `/api/simulations/${simulation.id}/settings`, {
      token: manager,
      body: { accelerationFileId: csv.body.id },
    })
    expect(reply.status).toBe(200)
    expect(reply.body.settings.accelerationFile).toEqual({ id: csv.body.id, name: 'shake.csv' })
    const stl = await upload('part.stl', encodeBinaryStl(box()))
    const refused = await server.request('PUT', `/api/simulations/${simulation.id}/settings`, {
      token: manager,
      body: { accelerationFileId: stl.body.id },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.description).toBe('Acceleration file must be a .csv file.')
  })

  it('keeps uploads within the organization', async () => {
    const mine = await upload('mine.stl', encodeBinaryStl(box()))
    const project = (
      await server.request('POST', '/api/projects', { token: other, body: { name: 'Elsewhere' } })
    ).body
    const otherSimulation = (
      await server.request('POST', `/api/projects/${project.id}/simulations`, {
        token: other,
        body: { name: 'Theirs' },
      })
    ).body
    const part = await server.request('POST', `/api/simulations/${otherSimulation.id}/parts`, {
      token: other,
      body: {
        name: 'Stolen',
        component: { type: 'rigid' },
        shape: { type: 'stl', fileId: mine.body.id },
      },
    })
    expect(part.status).toBe(400)
    expect(part.body.description).toBe('The STL file was not found.')
  })
})
