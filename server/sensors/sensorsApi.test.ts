import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Mesh, Sensor, VolumeClip } from '../../domain/meshes.ts'
import type { Project, Simulation } from '../../domain/projects.ts'
import {
  MESH_IN_USE_MESSAGE,
  SENSORS_LOCKED_MESSAGE,
  SURFACE_SENSOR_MESH_MESSAGE,
  VOLUME_CLIP_MESH_MESSAGE,
} from '../../domain/rest/sensorRoutes.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type Json,
  type TestServer,
} from '../../tests/integration/harness.ts'

/*
 * The meshes, sensors and volume clips calls over HTTP on both dialects: defaults, computed
 * triangle counts, unique names, refusals (bad input, wrong mesh kinds, edits while running),
 * unknown ids and other organizations' objects.
 */

describeEachDialect('meshes, sensors and volume clips API', (dialect) => {
  let server: TestServer
  let manager: string
  let other: string
  let simulation: Simulation

  const api = (method: string, path: string, body?: unknown, token = manager) =>
    server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) })
  const setState = (state: string) =>
    server.database.handle.db
      .updateTable('simulations')
      .set({ state })
      .where('id', '=', simulation.id)
      .execute()
  const createMesh = async (body: Json) => {
    const reply = await api('POST', `/simulations/${simulation.id}/meshes`, body)
    expect(reply.status, reply.text).toBe(201)
    return reply.body as Mesh
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const project = (await api('POST', '/projects', { name: 'Sensors' })).body as Project
    const created = await api('POST', `/projects/${project.id}/simulations`, { name: 'Tank' })
    expect(created.status, created.text).toBe(201)
    simulation = created.body as Simulation
  })
  afterAll(async () => {
    await server?.close()
  })

  it('creates meshes from defaults with their triangle counts, and changes them', async () => {
    const cube = await createMesh({ kind: 'cube', center: [1, 2, 3] })
    expect(cube).toMatchObject({
      kind: 'cube',
      center: [1, 2, 3],
      dimensions: [1, 1, 1],
      scale: [1, 1, 1],
      nbrOfTriangles: 12,
    })
    const sphere = await createMesh({ kind: 'sphere', sphereResolution: 4 })
    // 4 rings of 8 sectors: the pole rings have one triangle per sector, the others two
    expect(sphere).toMatchObject({ radius: 0.5, nbrOfTriangles: 2 * 8 * 3 })
    expect((await createMesh({ kind: 'cylinder' })).nbrOfTriangles).toBe(400)
    expect((await createMesh({ kind: 'point' })).nbrOfTriangles).toBe(0)
    expect((await createMesh({ kind: 'complex' })).nbrOfTriangles).toBeNull()

    const read = await api('GET', `/meshes/${cube.id}`)
    expect(read.body).toEqual(cube)
    const wider = await api('PUT', `/meshes/${cube.id}`, { kind: 'cube', dimensions: [2, 1, 1] })
    expect(wider.body).toMatchObject({ center: [1, 2, 3], dimensions: [2, 1, 1] })
    const circle = await api('PUT', `/meshes/${cube.id}`, { kind: 'circle', circleResolution: 7 })
    expect(circle.body).toMatchObject({ kind: 'circle', radius: 0.5, nbrOfTriangles: 7 })
    expect(circle.body.center).toEqual([0, 0, 0])
  })

  it('refuses a mesh of an unknown kind, with an unknown field, or breaking a geometry rule', async () => {
    const path = `/simulations/${simulation.id}/meshes`
    expect((await api('POST', path, { kind: 'line' })).status).toBe(400)
    expect((await api('POST', path, { kind: 'cube', radius: 1 })).status).toBe(400)
    const negative = await api('POST', path, { kind: 'sphere', radius: -1 })
    expect(negative.status).toBe(400)
    expect(negative.body.errors[0].path).toBe('mesh.radius')
    const flat = await api('POST', path, { kind: 'circle', normal: [0, 0, 0] })
    expect(flat.status).toBe(400)
    expect(flat.body.description).toBe('Normal length cannot be equal to 0')
  })

  it('answers 404 for unknown meshes, sensors, clips and simulations, and for another organization', async () => {
    const mesh = await createMesh({ kind: 'cube' })
    expect((await api('GET', '/meshes/999999')).status).toBe(404)
    expect((await api('GET', `/meshes/${mesh.id}`, undefined, other)).status).toBe(404)
    expect((await api('PUT', '/custom_sensors/999999', { name: 'x' })).status).toBe(404)
    expect((await api('DELETE', '/custom_sensors/999999')).status).toBe(404)
    expect((await api('DELETE', '/volume_clips/999999')).status).toBe(404)
    expect((await api('GET', '/simulations/999999/custom_sensors')).status).toBe(404)
    expect(
      (await api('GET', `/simulations/${simulation.id}/volume_clips`, undefined, other)).status,
    ).toBe(404)
    const sensor = await api('POST', `/simulations/${simulation.id}/custom_sensors`, {
      name: 'Elsewhere',
      kind: 'surface',
      meshId: 999999,
    })
    expect(sensor.status).toBe(404)
  })

  it('adds point and surface sensors with unique names, and lists them with their outputs', async () => {
    const path = `/simulations/${simulation.id}/custom_sensors`
    const first = await api('POST', path, { name: 'Probe', kind: 'point', position: [0.1, 0, 0] })
    expect(first.status, first.text).toBe(201)
    expect(first.body).toEqual({
      id: expect.any(Number),
      name: 'Probe',
      kind: 'point',
      appearance: { visibility: true },
      outputs: [],
      sampleRate: null,
      position: [0.1, 0, 0],
    })
    const second = await api('POST', path, { name: 'Probe', kind: 'point', position: [0, 0, 0] })
    expect(second.body.name).toBe('Probe (1)')
    const plate = await createMesh({ kind: 'rectangle', width: 0.2, height: 0.1 })
    const surface = await api('POST', path, { name: 'Plate', kind: 'surface', meshId: plate.id })
    expect(surface.status, surface.text).toBe(201)
    expect(surface.body).toMatchObject({
      kind: 'surface',
      mesh: { id: plate.id, nbrOfTriangles: 2 },
    })
    const clipMesh = await createMesh({ kind: 'cube' })
    const clip = await api('POST', `/simulations/${simulation.id}/volume_clips`, {
      name: 'Probe',
      meshId: clipMesh.id,
    })
    expect(clip.body.name).toBe('Probe (2)')

    // parts are named against sensors and clips too
    const part = await api('POST', `/simulations/${simulation.id}/parts`, {
      name: 'Probe',
      component: { type: 'rigid' },
      shape: { type: 'plane' },
    })
    expect(part.status, part.text).toBe(201)
    expect(part.body.name).toBe('Probe (3)')
    const renamed = await api('PUT', `/simulations/${simulation.id}/parts`, [
      { id: part.body.id, name: 'Plate' },
    ])
    expect(renamed.status, renamed.text).toBe(200)
    expect(renamed.body[0].name).toBe('Plate (1)')
    const named = await api('POST', path, { name: 'Plate', kind: 'point', position: [0, 0, 0] })
    expect(named.body.name).toBe('Plate (2)')

    const listed = await api('GET', path)
    expect(listed.status).toBe(200)
    expect((listed.body as Sensor[]).map((s) => s.name)).toEqual(
      expect.arrayContaining(['Probe', 'Probe (1)', 'Plate']),
    )
  })

  it('refuses a sensor of a wrong kind, without its position, or on a mesh without a surface', async () => {
    const path = `/simulations/${simulation.id}/custom_sensors`
    expect((await api('POST', path, { name: 'A', kind: 'line', position: [0, 0, 0] })).status).toBe(
      400,
    )
    expect((await api('POST', path, { name: 'A', kind: 'point' })).status).toBe(400)
    expect((await api('POST', path, { name: '', kind: 'point', position: [0, 0, 0] })).status).toBe(
      400,
    )
    const point = await createMesh({ kind: 'point' })
    const refused = await api('POST', path, { name: 'A', kind: 'surface', meshId: point.id })
    expect(refused.status).toBe(400)
    expect(refused.body.description).toBe(SURFACE_SENSOR_MESH_MESSAGE)
  })

  it('refuses adding and editing sensors while the simulation is running or scheduled, but lets visibility change', async () => {
    const path = `/simulations/${simulation.id}/custom_sensors`
    const sensor = (await api('POST', path, { name: 'Gauge', kind: 'point', position: [0, 0, 1] }))
      .body
    for (const state of ['running', 'scheduled']) {
      await setState(state)
      const added = await api('POST', path, { name: 'Late', kind: 'point', position: [0, 0, 0] })
      expect(added.status).toBe(409)
      expect(added.body.description).toBe(SENSORS_LOCKED_MESSAGE)
      const moved = await api('PUT', `/custom_sensors/${sensor.id}`, { position: [1, 1, 1] })
      expect(moved.status).toBe(409)
      expect(moved.body.description).toBe(SENSORS_LOCKED_MESSAGE)
      expect((await api('DELETE', `/custom_sensors/${sensor.id}`)).status).toBe(409)
      const hidden = await api('PUT', `/custom_sensors/${sensor.id}`, {
        appearance: { visibility: false },
      })
      expect(hidden.status, hidden.text).toBe(200)
      expect(hidden.body.appearance).toEqual({ visibility: false })
    }
    await setState('stopped')
    const moved = await api('PUT', `/custom_sensors/${sensor.id}`, { position: [1, 1, 1] })
    expect(moved.body).toMatchObject({ position: [1, 1, 1], appearance: { visibility: false } })
  })

  it('updates sensors one by one and in bulk (all or nothing), and deletes them', async () => {
    const path = `/simulations/${simulation.id}/custom_sensors`
    const a = (await api('POST', path, { name: 'Left', kind: 'point', position: [0, 0, 0] })).body
    const b = (await api('POST', path, { name: 'Right', kind: 'point', position: [1, 0, 0] })).body
    const renamed = await api('PUT', `/custom_sensors/${a.id}`, { name: 'Right' })
    expect(renamed.body.name).toBe('Right (1)')
    const pointMesh = await api('PUT', `/custom_sensors/${a.id}`, { meshId: 1 })
    expect(pointMesh.status).toBe(400)

    const bulk = await api('PUT', path, [
      { id: a.id, name: 'West' },
      { id: b.id, position: [2, 0, 0] },
    ])
    expect(bulk.status, bulk.text).toBe(200)
    expect(bulk.body).toMatchObject([
      { id: a.id, name: 'West' },
      { id: b.id, position: [2, 0, 0] },
    ])
    const partial = await api('PUT', path, [
      { id: a.id, name: 'East' },
      { id: 999999, name: 'Nobody' },
    ])
    expect(partial.status).toBe(404)
    expect(((await api('GET', path)).body as Sensor[]).find((s) => s.id === a.id)?.name).toBe(
      'West',
    )

    expect((await api('DELETE', `/custom_sensors/${a.id}`)).body).toEqual({ id: a.id })
    expect(((await api('GET', path)).body as Sensor[]).some((s) => s.id === a.id)).toBe(false)
  })

  it('deletes an unused mesh; a mesh in use keeps the kinds its users need and the sensor lock', async () => {
    const spare = await createMesh({ kind: 'plane' })
    expect((await api('DELETE', `/meshes/${spare.id}`)).body).toEqual({ id: spare.id })
    expect((await api('GET', `/meshes/${spare.id}`)).status).toBe(404)
    expect((await api('DELETE', `/meshes/${spare.id}`)).status).toBe(404)

    const disc = await createMesh({ kind: 'circle' })
    await api('POST', `/simulations/${simulation.id}/custom_sensors`, {
      name: 'Disc',
      kind: 'surface',
      meshId: disc.id,
    })
    const toPoint = await api('PUT', `/meshes/${disc.id}`, { kind: 'point' })
    expect(toPoint.status).toBe(400)
    expect(toPoint.body.description).toBe(SURFACE_SENSOR_MESH_MESSAGE)
    await setState('running')
    const whileRunning = await api('PUT', `/meshes/${disc.id}`, { kind: 'circle', radius: 1 })
    expect(whileRunning.status).toBe(409)
    expect(whileRunning.body.description).toBe(SENSORS_LOCKED_MESSAGE)
    await setState('stopped')
    expect((await api('PUT', `/meshes/${disc.id}`, { kind: 'circle', radius: 1 })).status).toBe(200)

    const box = await createMesh({ kind: 'cube' })
    await api('POST', `/simulations/${simulation.id}/volume_clips`, { name: 'Box', meshId: box.id })
    const toDisc = await api('PUT', `/meshes/${box.id}`, { kind: 'circle' })
    expect(toDisc.status).toBe(400)
    expect(toDisc.body.description).toBe(VOLUME_CLIP_MESH_MESSAGE)
  })

  it('copies meshes, sensors and volume clips into a clone, each pointing at its own mesh copy', async () => {
    const plate = await createMesh({ kind: 'plane', width: 3 })
    const sensor = await api('POST', `/simulations/${simulation.id}/custom_sensors`, {
      name: 'Cloned plate',
      kind: 'surface',
      meshId: plate.id,
    })
    const box = await createMesh({ kind: 'cube', dimensions: [2, 2, 2] })
    await api('POST', `/simulations/${simulation.id}/volume_clips`, {
      name: 'Cloned box',
      meshId: box.id,
      inverted: true,
    })
    const clone = await api('POST', `/simulations/${simulation.id}`)
    expect(clone.status, clone.text).toBe(201)
    const sensors = (await api('GET', `/simulations/${clone.body.id}/custom_sensors`))
      .body as Sensor[]
    const copied = sensors.find((s) => s.name === 'Cloned plate')
    expect(copied).toMatchObject({
      kind: 'surface',
      outputs: [],
      mesh: { kind: 'plane', width: 3 },
    })
    expect(copied?.id).not.toBe(sensor.body.id)
    expect(copied?.kind === 'surface' && copied.mesh.id).not.toBe(plate.id)
    const clips = (await api('GET', `/simulations/${clone.body.id}/volume_clips`))
      .body as VolumeClip[]
    const clip = clips.find((c) => c.name === 'Cloned box')
    expect(clip).toMatchObject({ inverted: true, mesh: { kind: 'cube', dimensions: [2, 2, 2] } })
    expect(clip?.mesh.id).not.toBe(box.id)
  })

  it('answers the recomputation record: unknown before any, unchanged by a stop with nothing running', async () => {
    const path = `/simulations/${simulation.id}/sensor_outputs/recomputation`
    const empty = { id: null, simulationId: simulation.id, state: 'unknown', progress: 0 }
    expect((await api('GET', path)).body).toMatchObject(empty)
    const stopped = await api('DELETE', path)
    expect(stopped.status).toBe(200)
    expect(stopped.body).toMatchObject(empty)
    expect((await api('GET', path, undefined, other)).status).toBe(404)
  })

  it('adds, bulk-updates and deletes volume clips; only cube, cylinder, sphere and plane meshes clip', async () => {
    const path = `/simulations/${simulation.id}/volume_clips`
    const sphere = await createMesh({ kind: 'sphere', radius: 0.2 })
    const created = await api('POST', path, { name: 'Core', meshId: sphere.id })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      name: 'Core',
      kind: 'volumeClip',
      materialId: null,
      inverted: false,
      mesh: { kind: 'sphere', radius: 0.2 },
      appearance: { visibility: true, opacity: 1 },
    })
    const circle = await createMesh({ kind: 'circle' })
    const refused = await api('POST', path, { name: 'Disc', meshId: circle.id })
    expect(refused.status).toBe(400)
    expect(refused.body.description).toBe(VOLUME_CLIP_MESH_MESSAGE)
    expect((await api('POST', path, { name: 'X', meshId: sphere.id, materialId: 99 })).status).toBe(
      400,
    )
    expect((await api('POST', path, { meshId: sphere.id })).status).toBe(400)

    const updated = await api('PUT', path, [
      { id: created.body.id, inverted: true, appearance: { visibility: false } },
    ])
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject([{ inverted: true, appearance: { visibility: false } }])
    const badColour = await api('PUT', path, [
      { id: created.body.id, appearance: { color: 'red' } },
    ])
    expect(badColour.status).toBe(400)

    const inUse = await api('DELETE', `/meshes/${sphere.id}`)
    expect(inUse.status).toBe(409)
    expect(inUse.body.description).toBe(MESH_IN_USE_MESSAGE('Core'))
    expect((await api('DELETE', `/volume_clips/${created.body.id}`)).status).toBe(200)
    expect(
      ((await api('GET', path)).body as VolumeClip[]).some((c) => c.id === created.body.id),
    ).toBe(false)
    // the clip's own mesh goes with it
    expect((await api('GET', `/meshes/${sphere.id}`)).status).toBe(404)
  })
})
