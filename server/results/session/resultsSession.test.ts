import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeClipMask } from '../../../domain/clipMask.ts'
import { createDefaultMaterial } from '../../../domain/materials.ts'
import { defaultMesh, type Mesh, type VolumeClip } from '../../../domain/meshes.ts'
import {
  objectFile,
  OUTPUT_MANIFEST_FILE,
  outputDirectory,
  type OutputManifest,
} from '../../../domain/output/layout.ts'
import { readBundle, readObjectStream } from '../../../domain/output/reader.ts'
import { encodeMaskId, encodeObjectId } from '../../../domain/resultsObjects.ts'
import { defaultSettings } from '../../../domain/settings.ts'
import { runSimulation } from '../../../solver/run/runSimulation.ts'
import { buildTankParticles, WATER_ID } from '../../../solver/sph/scenarios.ts'
import { createClock } from '../../clock.ts'
import { DEMO_PROJECT_NAME, DEMO_SIMULATION_NAME, DEMO_USERS } from '../../db/demoAccounts.ts'
import { startTestServer, type Json, type TestServer } from '../../../tests/integration/harness.ts'
import { sensorSampleFile, type SensorSampleFile } from '../../sensors/layout.ts'
import { registerResultsChannel, RESULTS_PATH } from './resultsChannel.ts'
import { ResultsTestClient, type ReceivedFrame } from './testClient.ts'
import type { ResultsServerFrame } from '../../../domain/resultsProtocol.ts'

/*
 * Every /ws/results command against real solver outputs: a small dam break (96 fluid particles in
 * an open tank) run through solver/run into the test server's data directory, 4 outputs. The
 * channel is mounted on its own Fastify instance over the test server's database so the volume
 * clips can be injected; one test goes through the app's own registration.
 */

const RUN_ID = 1
const DP = 0.025

let server: TestServer
let channel: FastifyInstance
let url: string
let token: string
let simulationId: number
const clips: VolumeClip[] = []
/** Sensor 5 has samples for outputs 0 and 1; states change as a recomputation would move them. */
const SENSOR_ID = 5
const sensorStates: { outputNo: number; state: 'pending' | 'ready' | 'failed' }[] = []
/** Sample files as server/sensors writes them (NaN as null), for outputs 0 and 1. */
async function writeSensorSamples(): Promise<void> {
  for (const outputNo of [0, 1]) {
    const path = join(server.dataDir, sensorSampleFile(simulationId, RUN_ID, SENSOR_ID, outputNo))
    await mkdir(dirname(path), { recursive: true })
    const file: SensorSampleFile = {
      sensorId: SENSOR_ID,
      outputNo,
      timeS: outputNo * 0.02,
      count: 3,
      columns: {
        x: [0, 0, 0],
        y: [0, 0, 0],
        z: [0.01, 0.02, 0.03],
        pressure: [100 + outputNo, 200, null],
      },
    }
    await writeFile(path, JSON.stringify(file))
  }
}

function clip(id: number, mesh: Mesh, materialId: number | null = null, inverted = false) {
  return {
    id,
    name: `Clip ${id}`,
    mesh,
    appearance: {
      color: '#ff0000',
      opacity: 1,
      wireframe: false,
      translucent: false,
      visibility: true,
      showPointcloud: false,
    },
    materialId,
    inverted,
    kind: 'volumeClip' as const,
  }
}

/** The downstream half of the tank (x ≥ 0.05 m), the part the water column covers. */
const HALF_CUBE: Mesh = {
  ...(defaultMesh('cube', 1) as Extract<Mesh, { kind: 'cube' }>),
  center: [0.2, 0.05, 0.1],
  dimensions: [0.3, 1, 1],
}
const FAR_SPHERE: Mesh = {
  ...(defaultMesh('sphere', 2) as Extract<Mesh, { kind: 'sphere' }>),
  center: [9, 9, 9],
  radius: 0.1,
}

async function readManifest(outputNo: number): Promise<OutputManifest> {
  const path = join(
    server.dataDir,
    outputDirectory(simulationId, RUN_ID, outputNo),
    OUTPUT_MANIFEST_FILE,
  )
  return JSON.parse(await readFile(path, 'utf8')) as OutputManifest
}

async function readFluid(outputNo: number, dataset: 'full' | 'fast' = 'full') {
  const bytes = await readFile(
    join(server.dataDir, objectFile(simulationId, RUN_ID, outputNo, `fluid-${WATER_ID}`, dataset)),
  )
  return readObjectStream(new Uint8Array(bytes))
}

function sortedPercentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const position = fraction * (sorted.length - 1)
  const low = Math.floor(position)
  return sorted[low]! + (sorted[Math.ceil(position)]! - sorted[low]!) * (position - low)
}

function ofType<T extends ResultsServerFrame['type']>(
  frames: ReceivedFrame[],
  type: T,
): Extract<ResultsServerFrame, { type: T }>[] {
  return frames
    .map((f) => f.frame)
    .filter((frame): frame is Extract<ResultsServerFrame, { type: T }> => frame.type === type)
}

beforeAll(async () => {
  server = await startTestServer('sqlite')
  token = (await server.login(DEMO_USERS.manager.email)).accessToken
  const projects = await server.request('GET', '/api/projects?pageLimit=30', { token })
  const project = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
  simulationId = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME).id
  const water = {
    ...createDefaultMaterial(WATER_ID, simulationId, '2026-01-01T00:00:00Z'),
    speedOfSound: 1,
  }
  const result = await runSimulation({
    setup: {
      simulationId,
      settings: {
        ...defaultSettings(),
        particleDiameter: DP,
        endTime: 0.06,
        outputTimeInterval: 0.02,
      },
      materials: [water],
      parts: [],
      movements: [],
      meshes: {},
    },
    particles: buildTankParticles({
      dp: DP,
      tank: [0.3, 0.1, 0.2],
      fluidMin: [0, 0, 0],
      fluidMax: [0.1, 0.1, 0.15],
      closed: false,
      wallLayers: 3,
    }),
    dataDir: server.dataDir,
    simulationId,
    runId: RUN_ID,
    threads: 1,
    signal: new AbortController().signal,
  })
  expect(result.lastOutputNo).toBe(3)
  await writeSensorSamples()
  clips.push(clip(1, HALF_CUBE), clip(2, FAR_SPHERE, WATER_ID), clip(3, defaultMesh('complex', 3)))
  channel = Fastify()
  await registerResultsChannel(channel, {
    db: server.database.handle.db,
    clock: createClock(),
    dataDir: server.dataDir,
    listVolumeClips: () => Promise.resolve(clips),
    listSensors: () =>
      Promise.resolve([
        {
          id: SENSOR_ID,
          name: 'Probe',
          kind: 'point' as const,
          appearance: { visibility: true },
          outputs: [0, 1],
          position: [0, 0, 0.02] as [number, number, number],
        },
      ]),
    listSensorOutputStates: () => Promise.resolve([...sensorStates]),
  })
  await channel.listen({ port: 0, host: '127.0.0.1' })
  url = `ws://127.0.0.1:${(channel.server.address() as AddressInfo).port}${RESULTS_PATH}`
}, 120_000)

afterAll(async () => {
  await channel?.close()
  await server?.close()
})

describe('/ws/results session', () => {
  it('refuses a wrong access token with an error frame and close code 4401', async () => {
    const client = await ResultsTestClient.connect(url)
    client.send({ type: 'sys.hello', protocolVersion: 1, accessToken: 'not-a-token' })
    const error = await client.waitFor((f) => f.frame.type === 'error')
    expect(error.frame).toMatchObject({ type: 'error', requestId: 1 })
    expect((await client.closed).code).toBe(4401)
  })

  it('closes a session that sends a command before sys.hello', async () => {
    const client = await ResultsTestClient.connect(url)
    client.send({ type: 'fetch.available_outputs', simId: simulationId })
    expect((await client.waitFor((f) => f.frame.type === 'error')).frame).toMatchObject({
      message: 'Send sys.hello with an access token first.',
    })
    expect((await client.closed).code).toBe(4401)
  })

  it('lists the available outputs with their states', async () => {
    const client = await ResultsTestClient.open(url, token)
    const [reply] = await client.request(
      { type: 'fetch.available_outputs', simId: simulationId },
      'fetch.available_outputs.resp',
    )
    expect((reply!.frame as Json).outputs).toEqual(
      [0, 1, 2, 3].map((outputNo) => ({
        outputNo,
        states: { visualization: 'ready', sensor: 'pending' },
        wallSensorState: 'unknown',
      })),
    )
    client.close()
  })

  it('describes outputs (objects with numeric ids and manifest keys, masks per clip and material) and names missing ones', async () => {
    const client = await ResultsTestClient.open(url, token)
    const frames = await client.request(
      { type: 'fetch.info', simId: simulationId, outputs: [2, 99] },
      'fetch.info.missing_output',
    )
    const manifest = await readManifest(2)
    const info = ofType(frames, 'fetch.info.resp')[0]!
    expect(info).toMatchObject({ outputNo: 2, timeS: manifest.timeS })
    expect(info.objects.slice(0, 2)).toEqual([
      {
        id: encodeObjectId('fluid', WATER_ID),
        kind: 'fluid',
        name: manifest.objects[0]!.name,
        objectKey: `fluid-${WATER_ID}`,
        materialIndex: 0,
        material: { id: WATER_ID, name: manifest.objects[0]!.name },
      },
      {
        id: encodeObjectId('wall_boundary', manifest.objects[1]!.sourceId),
        kind: 'wall_boundary',
        name: manifest.objects[1]!.name,
        objectKey: manifest.objects[1]!.objectId,
      },
    ])
    expect(info.masks.map((m) => [m.id, m.volumeClipId, m.materialId])).toEqual([
      [encodeMaskId(1, WATER_ID), 1, WATER_ID],
      [encodeMaskId(2, WATER_ID), 2, WATER_ID],
      [encodeMaskId(3, WATER_ID), 3, WATER_ID],
    ])
    const fullCount = manifest.objects.reduce((sum, o) => sum + o.particleCount.full, 0)
    expect(info.stats.full.particleCount).toBe(fullCount)
    expect(ofType(frames, 'fetch.info.missing_output')).toEqual([
      { type: 'fetch.info.missing_output', requestId: frames[0]!.frame.requestId, outputNo: 99 },
    ])
    client.close()
  })

  it('sends one bundle per output with the files on disk, masks computed from the clips, and the missing and masking-error variants', async () => {
    const client = await ResultsTestClient.open(url, token)
    const fluidId = encodeObjectId('fluid', WATER_ID)
    const frames = await client.request(
      {
        type: 'fetch.data',
        simId: simulationId,
        outputs: [1, 42],
        bundle: true,
        requests: [
          {
            objIds: [fluidId, 12345],
            attributes: ['pressure', 'temperature'],
            geometry: true,
            dataset: 'full',
            masks: [
              encodeMaskId(1, WATER_ID),
              encodeMaskId(2, WATER_ID),
              encodeMaskId(3, WATER_ID),
              77,
            ],
          },
        ],
      },
      'fetch.data.done',
    )
    const requestId = frames[0]!.frame.requestId
    const bundle = frames.find((f) => f.frame.type === 'fetch.data.bundle')!
    expect(bundle.frame).toMatchObject({ outputNo: 1, dataset: 'full', objIds: [fluidId] })
    const entries = readBundle(bundle.payload!)
    expect(entries.map((e) => e.objectId)).toEqual([`fluid-${WATER_ID}`])
    const onDisk = await readFile(
      join(server.dataDir, objectFile(simulationId, RUN_ID, 1, `fluid-${WATER_ID}`, 'full')),
    )
    expect(Buffer.from(entries[0]!.bytes).equals(onDisk)).toBe(true)

    const fluid = await readFluid(1)
    const expected = new Uint8Array(fluid.rowCount)
    const insideCount = computeClipMask(
      HALF_CUBE,
      false,
      fluid.columns.x!,
      fluid.columns.y!,
      fluid.columns.z!,
      expected,
    )
    expect(insideCount).toBeGreaterThan(0)
    expect(insideCount).toBeLessThan(fluid.rowCount)
    const masks = frames.filter((f) => f.frame.type === 'fetch.data.mask')
    expect(ofType(masks, 'fetch.data.mask').map((m) => [m.maskId, m.insideCount])).toEqual([
      [encodeMaskId(1, WATER_ID), insideCount],
      [encodeMaskId(2, WATER_ID), 0],
    ])
    const mask = readObjectStream(masks[0]!.payload!)
    expect(mask.meta).toMatchObject({
      objectKind: 'volume_clip',
      targetObjectId: `fluid-${WATER_ID}`,
    })
    expect([...mask.mask!]).toEqual([...expected])
    expect([...readObjectStream(masks[1]!.payload!).mask!].every((v) => v === 0)).toBe(true)

    expect(ofType(frames, 'fetch.data.missing_object')).toEqual([
      { type: 'fetch.data.missing_object', requestId, outputNo: 1, objId: 12345 },
    ])
    expect(ofType(frames, 'fetch.data.missing_attribute')).toEqual([
      {
        type: 'fetch.data.missing_attribute',
        requestId,
        outputNo: 1,
        objId: fluidId,
        attribute: 'temperature',
      },
    ])
    expect(ofType(frames, 'fetch.data.masking_error')).toEqual([
      {
        type: 'fetch.data.masking_error',
        requestId,
        outputNo: 1,
        maskId: encodeMaskId(3, WATER_ID),
        message:
          'A volume clip of kind complex cannot be computed; use cube, sphere, cylinder, plane.',
      },
    ])
    expect(ofType(frames, 'fetch.data.missing_mask')).toEqual([
      { type: 'fetch.data.missing_mask', requestId, outputNo: 1, maskId: 77 },
    ])
    expect(ofType(frames, 'fetch.data.missing_output')).toEqual([
      { type: 'fetch.data.missing_output', requestId, outputNo: 42 },
    ])
    expect(frames.at(-1)!.frame.type).toBe('fetch.data.done')
    client.close()
  })

  it('reports outputs that became ready since the last sync', async () => {
    const client = await ResultsTestClient.open(url, token)
    await client.request(
      { type: 'fetch.available_outputs', simId: simulationId },
      'fetch.available_outputs.resp',
    )
    const [quiet] = await client.request({ type: 'sys.sync', simId: simulationId }, 'sys.sync.resp')
    expect(quiet!.frame).toMatchObject({ vizUpdates: [], sensorUpdates: [] })

    // The run writes output 4 the way the solver does: object files, then the manifest last.
    const from = join(server.dataDir, outputDirectory(simulationId, RUN_ID, 3))
    const to = join(server.dataDir, outputDirectory(simulationId, RUN_ID, 4))
    await cp(from, to, {
      recursive: true,
      filter: (source) => !source.endsWith(OUTPUT_MANIFEST_FILE),
    })
    const [still] = await client.request({ type: 'sys.sync', simId: simulationId }, 'sys.sync.resp')
    expect((still!.frame as Json).vizUpdates).toEqual([])
    const manifest = { ...(await readManifest(3)), outputNo: 4, timeS: 0.08 }
    await writeFile(join(to, OUTPUT_MANIFEST_FILE), JSON.stringify(manifest))
    try {
      const [update] = await client.request(
        { type: 'sys.sync', simId: simulationId },
        'sys.sync.resp',
      )
      expect((update!.frame as Json).vizUpdates).toEqual([{ outputNo: 4, state: 'ready' }])
      const [again] = await client.request(
        { type: 'sys.sync', simId: simulationId },
        'sys.sync.resp',
      )
      expect((again!.frame as Json).vizUpdates).toEqual([])
    } finally {
      await rm(to, { recursive: true, force: true })
      client.close()
    }
  })

  it('lists sensors among the objects, reports sensor state changes and computes statistics over sensor samples', async () => {
    const client = await ResultsTestClient.open(url, token)
    const sensorObjId = encodeObjectId('sensor', SENSOR_ID)
    const info = ofType(
      await client.request(
        { type: 'fetch.info', simId: simulationId, outputs: [0] },
        'fetch.info.resp',
      ),
      'fetch.info.resp',
    )[0]!
    expect(info.objects.at(-1)).toEqual({ id: sensorObjId, kind: 'sensor', name: 'Probe' })

    sensorStates.splice(0, sensorStates.length, { outputNo: 0, state: 'pending' })
    await client.request(
      { type: 'fetch.available_outputs', simId: simulationId },
      'fetch.available_outputs.resp',
    )
    sensorStates.splice(
      0,
      sensorStates.length,
      { outputNo: 0, state: 'ready' },
      { outputNo: 1, state: 'failed' },
    )
    const [sync] = await client.request({ type: 'sys.sync', simId: simulationId }, 'sys.sync.resp')
    expect(sync!.frame).toMatchObject({
      vizUpdates: [],
      sensorUpdates: [
        { outputNo: 0, state: 'ready' },
        { outputNo: 1, state: 'failed' },
      ],
    })
    sensorStates.length = 0

    const frames = await client.request(
      {
        type: 'stats.calc',
        simId: simulationId,
        outputs: [0, 1, 2],
        attribute: 'pressure',
        dataset: 'raw',
        objIds: [sensorObjId],
        masks: [],
        operations: { mean: ['mean'], max: ['max'] },
        mode: 'both',
      },
      'stats.calc.done',
    )
    const values = ofType(frames, 'stats.calc.output_statistic').map((f) => [
      f.outputNo,
      f.statistic,
      f.value,
    ])
    expect(values).toEqual([
      [0, 'mean', 150],
      [0, 'max', 200],
      [1, 'mean', 150.5],
      [1, 'max', 200],
    ])
    expect(ofType(frames, 'stats.calc.error')).toEqual([
      expect.objectContaining({
        outputNo: 2,
        message: `Sensor ${SENSOR_ID} has no data for output 2.`,
      }),
    ])
    expect(
      ofType(frames, 'stats.calc.all_output_statistic').find((f) => f.statistic === 'mean')?.value,
    ).toBe(150.25)
    client.close()
  })

  it('lists the attributes statistics can use, with sub-attributes and operations', async () => {
    const client = await ResultsTestClient.open(url, token)
    const [reply] = await client.request(
      { type: 'stats.info', simId: simulationId },
      'stats.info.resp',
    )
    const attributes = ofType([reply!], 'stats.info.resp')[0]!.attributes
    expect(attributes.map((a) => a.attribute)).toEqual([
      'velocity',
      'position',
      'pressure',
      'density',
      'mass',
    ])
    expect(attributes[0]).toEqual({
      attribute: 'velocity',
      subAttributes: ['x', 'y', 'z', 'magnitude'],
      operations: [
        'mean',
        'min',
        'max',
        '5th_percentile',
        'median',
        '95th_percentile',
        'integral',
        'integral_magnitude',
      ],
    })
    expect(attributes[2]).toMatchObject({ attribute: 'pressure', subAttributes: [] })
    client.close()
  })

  it('streams per-output and all-output statistics that match a direct computation, and errors for missing outputs', async () => {
    const client = await ResultsTestClient.open(url, token)
    const operations = {
      mean: ['mean'],
      min: ['min'],
      max: ['max'],
      '5th_percentile': ['max'],
      median: ['median'],
      '95th_percentile': ['95th_percentile'],
      integral: ['integral'],
    }
    const frames = await client.request(
      {
        type: 'stats.calc',
        simId: simulationId,
        outputs: [0, 1, 2, 3, 50],
        attribute: 'pressure',
        dataset: 'raw',
        objIds: [],
        masks: [],
        operations,
        mode: 'both',
      },
      'stats.calc.done',
    )
    const perOutput = ofType(frames, 'stats.calc.output_statistic')
    expect(perOutput).toHaveLength(4 * 7)
    const direct: Record<string, { timeS: number; value: number }[]> = {}
    for (const outputNo of [0, 1, 2, 3]) {
      const view = await readFluid(outputNo)
      const pressure = [...view.columns.pressure!]
      const { mass, density } = view.columns
      const expected: Record<string, number> = {
        mean: pressure.reduce((s, v) => s + v, 0) / pressure.length,
        min: Math.min(...pressure),
        max: Math.max(...pressure),
        '5th_percentile': sortedPercentile(pressure, 0.05),
        median: sortedPercentile(pressure, 0.5),
        '95th_percentile': sortedPercentile(pressure, 0.95),
        integral: pressure.reduce((s, v, i) => s + (v * mass![i]!) / density![i]!, 0),
      }
      for (const [statistic, value] of Object.entries(expected)) {
        const frame = perOutput.find((f) => f.outputNo === outputNo && f.statistic === statistic)
        expect(frame?.value, `${statistic} of output ${outputNo}`).toBeCloseTo(value, 6)
        ;(direct[statistic] ??= []).push({ timeS: view.meta.timeS, value })
      }
    }
    expect(perOutput.map((f) => f.outputNo)).toEqual(
      [0, 1, 2, 3].flatMap((n) => Array<number>(7).fill(n)),
    )
    const all = ofType(frames, 'stats.calc.all_output_statistic')
    const allOf = (statistic: string) => all.find((f) => f.statistic === statistic)?.value
    const means = direct.mean!.map((p) => p.value)
    expect(allOf('mean')).toBeCloseTo(means.reduce((s, v) => s + v, 0) / 4, 6)
    expect(allOf('min')).toBeCloseTo(Math.min(...direct.min!.map((p) => p.value)), 6)
    expect(allOf('5th_percentile')).toBeCloseTo(
      Math.max(...direct['5th_percentile']!.map((p) => p.value)),
      6,
    )
    const integrals = direct.integral!
    const overTime = integrals
      .slice(1)
      .reduce(
        (s, p, i) => s + ((p.value + integrals[i]!.value) / 2) * (p.timeS - integrals[i]!.timeS),
        0,
      )
    expect(allOf('integral')).toBeCloseTo(overTime, 6)
    expect(ofType(frames, 'stats.calc.error')).toEqual([
      {
        type: 'stats.calc.error',
        requestId: frames[0]!.frame.requestId,
        outputNo: 50,
        message: 'Output 50 does not exist.',
      },
    ])
    expect(frames.at(-1)!.frame).toMatchObject({ type: 'stats.calc.done', state: 'completed' })
    client.close()
  })

  it('computes a vector magnitude over a volume clip mask in output_only mode', async () => {
    const client = await ResultsTestClient.open(url, token)
    const frames = await client.request(
      {
        type: 'stats.calc',
        simId: simulationId,
        outputs: [3],
        attribute: 'velocity',
        subAttribute: 'magnitude',
        dataset: 'raw',
        objIds: [encodeObjectId('fluid', WATER_ID)],
        masks: [encodeMaskId(1, WATER_ID)],
        operations: { max: ['max'], mean: ['mean'] },
        mode: 'output_only',
      },
      'stats.calc.done',
    )
    const view = await readFluid(3)
    const { x, y, z, vx, vy, vz } = view.columns
    const inside = new Uint8Array(view.rowCount)
    computeClipMask(HALF_CUBE, false, x!, y!, z!, inside)
    const speeds = [...inside].flatMap((keep, i) =>
      keep ? [Math.hypot(vx![i]!, vy![i]!, vz![i]!)] : [],
    )
    const stats = ofType(frames, 'stats.calc.output_statistic')
    expect(stats.find((f) => f.statistic === 'max')!.value).toBeCloseTo(Math.max(...speeds), 5)
    expect(stats.find((f) => f.statistic === 'mean')!.value).toBeCloseTo(
      speeds.reduce((s, v) => s + v, 0) / speeds.length,
      5,
    )
    expect(ofType(frames, 'stats.calc.all_output_statistic')).toEqual([])
    client.close()
  })

  it('refuses an unknown attribute with the domain message and fails the calculation', async () => {
    const client = await ResultsTestClient.open(url, token)
    const frames = await client.request(
      {
        type: 'stats.calc',
        simId: simulationId,
        outputs: [0],
        attribute: 'vorticity',
        dataset: 'raw',
        objIds: [],
        masks: [],
        operations: { mean: ['mean'] },
        mode: 'both',
      },
      'stats.calc.done',
    )
    expect(frames.map((f) => f.frame)).toEqual([
      {
        type: 'error',
        requestId: frames[0]!.frame.requestId,
        message: 'vorticity is not a known attribute name',
      },
      { type: 'stats.calc.done', requestId: frames[0]!.frame.requestId, state: 'failed' },
    ])
    client.close()
  })

  it('fails a calculation over outputs that all do not exist, each error carrying its output number', async () => {
    const client = await ResultsTestClient.open(url, token)
    const frames = await client.request(
      {
        type: 'stats.calc',
        simId: simulationId,
        outputs: [7, 8],
        attribute: 'pressure',
        dataset: 'raw',
        objIds: [],
        masks: [],
        operations: { mean: ['mean'] },
        mode: 'both',
      },
      'stats.calc.done',
    )
    expect(ofType(frames, 'stats.calc.error').map((f) => f.outputNo)).toEqual([7, 8])
    expect(frames.at(-1)!.frame).toMatchObject({ state: 'failed' })
    client.close()
  })

  it('cancels a running calculation between outputs', async () => {
    const client = await ResultsTestClient.open(url, token)
    const requestId = client.send({
      type: 'stats.calc',
      simId: simulationId,
      outputs: Array.from({ length: 20_000 }, (_, i) => i % 4),
      attribute: 'pressure',
      dataset: 'raw',
      objIds: [],
      masks: [],
      operations: { mean: ['mean'] },
      mode: 'both',
    })
    await client.waitFor(
      (f) => f.frame.requestId === requestId && f.frame.type === 'stats.calc.output_statistic',
    )
    const cancelId = client.send({ type: 'cancel', targetRequestId: requestId })
    const frames = await client.collect(requestId, 'stats.calc.done')
    expect(frames.at(-1)!.frame).toMatchObject({ state: 'canceled' })
    expect(ofType(frames, 'stats.calc.output_statistic').length).toBeLessThan(20_000)
    expect((await client.waitFor((f) => f.frame.requestId === cancelId)).frame).toEqual({
      type: 'cancel.resp',
      requestId: cancelId,
      targetRequestId: requestId,
      canceled: true,
    })
    client.close()
  })

  it('answers invalid JSON and unknown commands with an error frame and keeps the session open', async () => {
    const client = await ResultsTestClient.open(url, token)
    client.sendText('{not json')
    expect((await client.waitFor((f) => f.frame.type === 'error')).frame).toEqual({
      type: 'error',
      requestId: null,
      message: 'The message is not valid JSON.',
    })
    client.send({ type: 'fetch.everything', requestId: 900 })
    const unknown = await client.waitFor((f) => f.frame.requestId === 900)
    expect(unknown.frame).toMatchObject({ type: 'error' })
    expect((unknown.frame as Json).message).toMatch(/^Unknown command fetch\.everything\./)
    client.send({ type: 'fetch.info', requestId: 901, simId: simulationId, outputs: [-1] })
    expect((await client.waitFor((f) => f.frame.requestId === 901)).frame).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/^Invalid fetch\.info message at outputs\.0/),
    })
    const [reply] = await client.request(
      { type: 'fetch.available_outputs', simId: simulationId },
      'fetch.available_outputs.resp',
    )
    expect((reply!.frame as Json).outputs).toHaveLength(4)
    const [beat] = await client.request({ type: 'sys.heartbeat' }, 'sys.heartbeat.resp')
    expect(beat!.frame.type).toBe('sys.heartbeat.resp')
    client.close()
  })

  it('hides simulations the user may not read', async () => {
    const contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    const client = await ResultsTestClient.open(url, contributor)
    const [reply] = await client.request(
      { type: 'fetch.available_outputs', simId: simulationId },
      'error',
    )
    expect((reply!.frame as Json).message).toMatch(/not found/i)
    client.close()
  })

  it('stops the work of a client that disconnects mid-bundle and keeps serving another session', async () => {
    const leaving = await ResultsTestClient.open(url, token)
    const requestId = leaving.send({
      type: 'fetch.data',
      simId: simulationId,
      outputs: Array.from({ length: 2000 }, (_, i) => i % 4),
      bundle: true,
      requests: [{ objIds: [], attributes: [], geometry: true, dataset: 'full', masks: [] }],
    })
    await leaving.waitFor(
      (f) => f.frame.requestId === requestId && f.frame.type === 'fetch.data.bundle',
    )
    leaving.socket.terminate()
    const staying = await ResultsTestClient.open(url, token)
    const frames = await staying.request(
      {
        type: 'fetch.data',
        simId: simulationId,
        outputs: [0],
        bundle: true,
        requests: [{ objIds: [], attributes: [], geometry: true, dataset: 'fast', masks: [] }],
      },
      'fetch.data.done',
    )
    expect(readBundle(frames[0]!.payload!).map((e) => e.objectId)).toHaveLength(2)
    await expect.poll(() => channel.websocketServer.clients.size, { timeout: 15_000 }).toBe(1)
    staying.close()
  })

  it('is mounted by the app on /ws/results', async () => {
    const appUrl = `${server.baseUrl.replace('http', 'ws')}${RESULTS_PATH}`
    const client = await ResultsTestClient.open(appUrl, token)
    const [reply] = await client.request(
      { type: 'fetch.available_outputs', simId: simulationId },
      'fetch.available_outputs.resp',
    )
    expect((reply!.frame as Json).outputs).toHaveLength(4)
    client.close()
  })
})
