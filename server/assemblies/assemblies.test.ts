import { afterAll, beforeAll, expect, it } from 'vitest'
import { decodeMeshFile } from '../../domain/meshFile.ts'
import {
  NOTHING_TO_TESSELLATE_MESSAGE,
  TESSELLATION_ACTIVE_MESSAGE,
} from '../../domain/rest/assemblyRoutes.ts'
import type { AssemblyNode, AssemblyPart } from '../../domain/tessellation.ts'
import { describeEachDialect, type Json } from '../../tests/integration/harness.ts'
import { DEMO_USERS } from '../db/demoAccounts.ts'
import { countCadThreads } from './cadThread.ts'
import { UNREADABLE_STEP_MESSAGE } from './cadWork.ts'
import { DUPLICATE_COMPONENT_CODE } from './records.ts'
import {
  AS1_FIXTURE,
  CUBE_MM_FIXTURE,
  readStepFixture,
  startCadTestServer,
  type CadTestServer,
} from './testServer.ts'

/*
 * The CAD import end to end on a real server (both dialects) with the real occt-import-js threads:
 * a STEP fixture uploaded, its tree read, nodes grouped into parts, tessellated into setup parts
 * whose meshes download; re-tessellation, a canceled run, a file occt cannot read.
 */

function findNode(tree: AssemblyNode[], entryId: string): AssemblyNode | undefined {
  for (const node of tree) {
    if (node.entryId === entryId) return node
    const found = findNode(node.children, entryId)
    if (found) return found
  }
  return undefined
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (const until = Date.now() + 20_000; Date.now() < until;) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`${what} did not happen within 20 s.`)
}

/** What these tests read of a setup part (GET /simulations/{id}/parts). */
interface SetupPartView {
  id: number
  name: string
  meshUrl: string | null
  component: { type: string }
  warnings: { errorCode: string; message: string }[]
  shape: {
    type: string
    info: { nbrOfTriangles: number; boundingBox: { min: number[]; max: number[] } }
  }
}

describeEachDialect('CAD import: STEP assemblies and tessellation', (dialect) => {
  let t: CadTestServer
  beforeAll(async () => {
    t = await startCadTestServer(dialect)
  })
  afterAll(async () => {
    await t.close()
  })

  const uploadAndRead = async (simulationId: number, fixture: string, name: string) => {
    const upload = await t.upload(simulationId, name, readStepFixture(fixture))
    expect(upload.status, JSON.stringify(upload.body)).toBe(201)
    expect(upload.body).toMatchObject({ filename: name, assemblyMetadata: null })
    expect(['scheduled', 'running']).toContain(upload.body.state)
    return {
      id: upload.body.id as number,
      read: await t.waitForEnd(`/assemblies/${upload.body.id}`),
    }
  }

  const setupParts = async (simulationId: number): Promise<SetupPartView[]> =>
    (await t.api('GET', `/simulations/${simulationId}/parts`)).body as SetupPartView[]

  it('reads the CAx-IF assembly, tessellates grouped nodes into setup parts with meshes in metres', async () => {
    const simulationId = await t.createSimulation('AS1')
    const { id, read } = await uploadAndRead(simulationId, AS1_FIXTURE, 'as1-oc-214.stp')
    expect(read.state, JSON.stringify(read)).toBe('done')
    expect(read.assemblyMetadata, JSON.stringify(read)).not.toBeNull()
    const tree = read.assemblyMetadata as AssemblyNode[]
    expect(tree.map((n) => n.labelName)).toEqual(['as1'])
    expect(tree[0]!.children.map((n) => [n.entryId, n.labelName])).toEqual([
      ['0:0', 'rod-assembly'],
      ['0:1', 'l-bracket-assembly'],
      ['0:2', 'plate'],
      ['0:3', 'l-bracket-assembly'],
    ])
    expect(findNode(tree, '0:1')!.children.map((n) => n.labelName)).toEqual([
      'bolt',
      'nut',
      'bolt',
      'nut',
      'bolt',
      'nut',
      'l-bracket',
    ])
    const listed = await t.api('GET', `/simulations/${simulationId}/assemblies`)
    expect((listed.body as { id: number }[]).map((a) => a.id)).toEqual([id])

    // Group: the plate alone, both bracket assemblies merged into one part.
    const plate = await t.api('POST', `/assemblies/${id}/parts`, {
      name: 'Plate',
      assemblyNodeIds: ['0:2'],
    })
    expect(plate.status, JSON.stringify(plate.body)).toBe(201)
    expect(plate.body).toMatchObject({
      name: 'Plate',
      assemblyNodeNames: ['plate'],
      componentType: 'rigid',
      meshingParameters: { linearDeflectionFactor: 1, angularDeflection: 15 },
      needsTessellation: true,
      warnings: [],
    })
    const brackets = await t.api('POST', `/assemblies/${id}/parts`, {
      name: 'Brackets',
      assemblyNodeIds: ['0:1', '0:3'],
      componentType: 'refinement',
    })
    expect(brackets.status, JSON.stringify(brackets.body)).toBe(201)

    const run = await t.api('POST', `/assemblies/${id}`, {})
    expect(run.status, JSON.stringify(run.body)).toBe(201)
    expect(run.body).toMatchObject({ assemblyId: id })
    const again = await t.api('POST', `/assemblies/${id}`, {})
    expect(again.status).toBe(409)
    expect(again.body.description).toBe(TESSELLATION_ACTIVE_MESSAGE)
    await waitForRun(simulationId, run.body.id as number)

    const parts = (await t.api('GET', `/assemblies/${id}/parts`)).body as AssemblyPart[]
    expect(parts.map((p) => [p.name, p.needsTessellation])).toEqual([
      ['Plate', false],
      ['Brackets', false],
    ])
    const made = await setupParts(simulationId)
    expect(parts.map((p) => p.setupPartId)).toEqual(made.map((p) => p.id))
    expect(made.map((p) => [p.name, p.component.type, p.shape.type])).toEqual([
      ['Plate', 'rigid', 'stl'],
      ['Brackets', 'refinement', 'stl'],
    ])
    const plateMesh = await t.api('GET', (made[0]!.meshUrl ?? '').replace(/^\/api/, ''))
    expect(plateMesh.status).toBe(200)
    const mesh = decodeMeshFile(plateMesh.bytes)
    expect(mesh.indices.length / 3).toBe(made[0]!.shape.info.nbrOfTriangles)
    expect(made[0]!.shape.info.nbrOfTriangles).toBeGreaterThan(12)
    // The plate is 180 × 150 mm in the file (millimetres): metres here.
    const box = made[0]!.shape.info.boundingBox
    expect(box.max[0]! - box.min[0]!).toBeCloseTo(0.18, 3)
    expect(box.max[1]! - box.min[1]!).toBeCloseTo(0.15, 3)
    // Two bracket assemblies of 4 solids each, welded per solid: more triangles than the plate.
    expect(made[1]!.shape.info.nbrOfTriangles).toBeGreaterThan(made[0]!.shape.info.nbrOfTriangles)

    expect((await t.api('POST', `/assemblies/${id}`, {})).body.description).toBe(
      NOTHING_TO_TESSELLATE_MESSAGE,
    )

    // Finer meshing and a rename: the same setup part gets the new mesh and name.
    const finer = await t.api('PUT', `/assemblies/${id}/parts`, {
      id: plate.body.id,
      name: 'Base plate',
      meshingParameters: {
        linearDeflectionFactor: 0.1,
        angularDeflection: 5,
        useDelabellaAlgorithm: true,
      },
    })
    expect(finer.body).toMatchObject({ name: 'Base plate', needsTessellation: true })
    expect((await setupParts(simulationId))[0]?.name).toBe('Base plate')
    const rerun = await t.api('POST', `/assemblies/${id}`, {})
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(201)
    await waitForRun(simulationId, rerun.body.id as number)
    const remade = await setupParts(simulationId)
    expect(remade.map((p) => p.id)).toEqual(made.map((p) => p.id))
    expect(remade[0]!.shape.info.nbrOfTriangles).toBeGreaterThan(made[0]!.shape.info.nbrOfTriangles)
    expect(remade[0]!.meshUrl).not.toBe(made[0]!.meshUrl)
    expect(remade[1]!.meshUrl).toBe(made[1]!.meshUrl)
    // The part's tessellation warning (no Delabella mesher here) shows on its setup part too.
    const [plateAfter] = (await t.api('GET', `/assemblies/${id}/parts`)).body as AssemblyPart[]
    const delabella = plateAfter!.warnings.find((w) => w.errorCode.includes('delabella'))
    expect(delabella).toBeDefined()
    expect(remade[0]!.warnings.map((w) => w.errorCode)).toContain(delabella!.errorCode)
    expect(remade[1]!.warnings.some((w) => w.errorCode.includes('delabella'))).toBe(false)
  })

  async function waitForRun(simulationId: number, runId: number): Promise<Json> {
    for (const until = Date.now() + 60_000; Date.now() < until;) {
      const runs = (await t.api('GET', `/simulations/${simulationId}/tessellation_runs`))
        .body as Json[]
      const run = runs.find((r) => r.id === runId)
      expect(run).toBeDefined()
      if (run.state !== 'scheduled' && run.state !== 'running') {
        const assembly = await t.api('GET', `/assemblies/${run.assemblyId}`)
        expect(run, JSON.stringify(assembly.body)).toMatchObject({ state: 'done', progress: 1 })
        return run
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`Tessellation run ${runId} did not end within 60 s.`)
  }

  it('honours the file units: a 1 m cube written in millimetres becomes a 1 m setup part', async () => {
    const simulationId = await t.createSimulation('Cube')
    const { id, read } = await uploadAndRead(simulationId, CUBE_MM_FIXTURE, 'cube-mm.step')
    expect(read.state, JSON.stringify(read)).toBe('done')
    const tree = read.assemblyMetadata as AssemblyNode[]
    const part = await t.api('POST', `/assemblies/${id}/parts`, {
      name: 'Cube',
      assemblyNodeIds: [tree[0]!.entryId],
    })
    const run = await t.api('POST', `/assemblies/${id}`, { partIds: [part.body.id] })
    await waitForRun(simulationId, run.body.id as number)
    const [cube] = await setupParts(simulationId)
    expect(cube?.shape.info).toMatchObject({
      nbrOfTriangles: 12,
      boundingBox: { min: [0, 0, 0], max: [1, 1, 1] },
    })
  })

  it('warns about components used in several parts with the spec wording', async () => {
    const simulationId = await t.createSimulation('Duplicates')
    const { id } = await uploadAndRead(simulationId, AS1_FIXTURE, 'as1.step')
    await t.api('POST', `/assemblies/${id}/parts`, { name: 'A', assemblyNodeIds: ['0:2', '0:0'] })
    const b = await t.api('POST', `/assemblies/${id}/parts`, {
      name: 'B',
      assemblyNodeIds: ['0:2'],
    })
    const message = 'Component "plate" appears in 2 part(s) (2 occurrence(s) in total).'
    expect(b.body.warnings).toEqual([{ message, errorCode: DUPLICATE_COMPONENT_CODE }])
    const assembly = await t.api('GET', `/assemblies/${id}`)
    expect(assembly.body.tessellationWarnings).toEqual([
      { message, errorCode: DUPLICATE_COMPONENT_CODE, parts: ['A', 'B'] },
    ])
    const deleted = await t.api('DELETE', `/assemblies/${id}/parts`, { partIds: [b.body.id] })
    expect(deleted.body).toEqual({ ids: [b.body.id] })
    expect((await t.api('GET', `/assemblies/${id}`)).body.tessellationWarnings).toEqual([])
  })

  it('tessellates for a provider member acting in another organization through an access grant', async () => {
    const admin = await t.login(DEMO_USERS.admin.email)
    const otherOrganizationId = (await t.api('GET', '/users', undefined, t.other)).body.organization
      .id as number
    const grant = await t.api(
      'POST',
      '/admin/access_grants',
      { organizationId: otherOrganizationId, reason: 'support' },
      admin,
    )
    expect(grant.status, JSON.stringify(grant.body)).toBe(201)
    const acting = await t.api('PUT', '/users', { activeAccessGrantId: grant.body.id }, admin)
    expect(acting.body.organization.id).toBe(otherOrganizationId)

    const simulationId = await t.createSimulation('Granted cube', t.other)
    const upload = await t.upload(
      simulationId,
      'cube-mm.step',
      readStepFixture(CUBE_MM_FIXTURE),
      admin,
    )
    expect(upload.status, JSON.stringify(upload.body)).toBe(201)
    const read = await t.waitForEnd(`/assemblies/${upload.body.id}`, admin)
    const tree = read.assemblyMetadata as AssemblyNode[]
    const part = await t.api(
      'POST',
      `/assemblies/${upload.body.id}/parts`,
      { name: 'Cube', assemblyNodeIds: [tree[0]!.entryId] },
      admin,
    )
    const run = await t.api(
      'POST',
      `/assemblies/${upload.body.id}`,
      { partIds: [part.body.id] },
      admin,
    )
    expect(run.status, JSON.stringify(run.body)).toBe(201)
    // The part lands in the granted organization's simulation, seen by its own member.
    await t.waitForEnd(`/assemblies/${upload.body.id}`, admin)
    for (const until = Date.now() + 60_000; Date.now() < until;) {
      const runs = (
        await t.api('GET', `/simulations/${simulationId}/tessellation_runs`, undefined, t.other)
      ).body as Json[]
      if (runs[0] && runs[0].state !== 'scheduled' && runs[0].state !== 'running') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const parts = (await t.api('GET', `/simulations/${simulationId}/parts`, undefined, t.other))
      .body as SetupPartView[]
    expect(parts.map((p) => [p.name, p.warnings])).toEqual([['Cube', []]])
    expect(parts[0]?.shape.info.nbrOfTriangles).toBe(12)
  })

  it('cancels a running tessellation: its thread ends and no setup part is made', async () => {
    const simulationId = await t.createSimulation('Canceled')
    const { id } = await uploadAndRead(simulationId, AS1_FIXTURE, 'as1.step')
    await waitFor(() => countCadThreads() === 0, 'the reading thread ending')
    await t.api('POST', `/assemblies/${id}/parts`, {
      name: 'Everything',
      assemblyNodeIds: ['0'],
      meshingParameters: {
        linearDeflectionFactor: 0.1,
        angularDeflection: 1,
        useDelabellaAlgorithm: false,
      },
    })
    const run = await t.api('POST', `/assemblies/${id}`, {})
    expect(run.status).toBe(201)
    await waitFor(() => countCadThreads() === 1, 'the tessellation thread starting')
    const canceled = await t.api('DELETE', `/tessellation_runs/${run.body.id}`)
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200)
    expect(canceled.body).toMatchObject({ id: run.body.id, state: 'canceled' })
    await waitFor(() => countCadThreads() === 0, 'the tessellation thread ending')
    const runs = (await t.api('GET', `/simulations/${simulationId}/tessellation_runs`)).body
    expect(runs).toMatchObject([{ id: run.body.id, state: 'canceled' }])
    expect(await setupParts(simulationId)).toEqual([])
    const [part] = (await t.api('GET', `/assemblies/${id}/parts`)).body as AssemblyPart[]
    expect(part?.needsTessellation).toBe(true)
    expect((await t.api('DELETE', `/tessellation_runs/${run.body.id}`)).status).toBe(409)
  })

  it('fails the reading of a file occt cannot read, with the reason', async () => {
    const simulationId = await t.createSimulation('Broken')
    const broken = new TextEncoder().encode('ISO-10303-21;\nnot a step body\n#1=FOO(;\n')
    const upload = await t.upload(simulationId, 'broken.step', broken)
    expect(upload.status).toBe(201)
    const read = await t.waitForEnd(`/assemblies/${upload.body.id}`)
    expect(read).toMatchObject({
      state: 'failed',
      assemblyMetadata: null,
      tessellationErrors: [{ message: UNREADABLE_STEP_MESSAGE }],
    })
  })
})
