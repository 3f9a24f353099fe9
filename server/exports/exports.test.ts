import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { objectFile, runLogFile, simulationDirectory } from '../../domain/output/layout.ts'
import { readObjectStream } from '../../domain/output/reader.ts'
import {
  USER_EXPORT_RETENTION_MS,
  userExportFileUrl,
  type ExportStatus,
  type ExportStatusReply,
} from '../../domain/rest/exportRoutes.ts'
import {
  EXPORT_MESSAGES,
  checkExportRequest,
  defaultExportRequest,
  type ExportRequest,
} from '../../domain/results.ts'
import { SYNTHETIC_RUN_OBJECT_IDS, writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { listZipEntries } from '../files/zip.ts'
import { sensorSampleFile } from '../sensors/layout.ts'
import { ExportRunner } from './ExportRunner.ts'
import { SERVER_RESTARTED_MESSAGE } from './exportFiles.ts'
import { exportRunnerFor } from './exportRegistry.ts'
import { EXPORT_WORK_MESSAGES } from './exportWork.ts'
import { parseBinaryStl, parseVtu } from './vtuParser.ts'

const RUN_ID = 2
const PARTICLES = 3_000
const OUTPUTS = 4
const MISSING_OUTPUT = 2

/** Every file under a directory (recursively); [] when it does not exist. */
function listFilesUnder(directory: string): string[] {
  if (!existsSync(directory)) return []
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/**
 * The files left under a directory once they stop disappearing (up to 10 s): a failed export is
 * reported failed before its files are removed (rows first, exportAttempt.ts), so they go a moment
 * after the state reads 'failed'.
 */
async function filesLeftUnder(directory: string): Promise<string[]> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const files = listFilesUnder(directory)
    if (files.length === 0) return files
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return listFilesUnder(directory)
}

describeEachDialect('user exports: the export job, its API and the downloads', (dialect) => {
  let server: TestServer
  let manager: string
  let simulationId: number

  const request = (body: Partial<ExportRequest>, token = manager, id = simulationId) =>
    server.request('POST', `/api/simulations/${id}/user_exports`, {
      token,
      body: { ...defaultExportRequest(id, 1), ...body },
    })
  const readExport = async () =>
    (
      await server.request<ExportStatusReply>(
        'GET',
        `/api/simulations/${simulationId}/user_exports`,
        {
          token: manager,
        },
      )
    ).body.export
  const waitForEnd = async (): Promise<ExportStatus> => {
    for (let attempt = 0; attempt < 400; attempt++) {
      const status = await readExport()
      if (status && !['scheduled', 'running'].includes(status.state)) return status
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('The export did not end')
  }
  const download = (fileId: number, token = manager) =>
    fetch(`${server.baseUrl}${userExportFileUrl(simulationId, fileId)}`, {
      headers: { authorization: `Bearer ${token}` },
    })
  const downloadBytes = async (status: ExportStatus, filename: string) => {
    const file = status.files.find((f) => f.filename === filename)
    if (!file) throw new Error(`${filename} not in ${status.files.map((f) => f.filename).join()}`)
    const response = await download(file.id)
    expect(response.status).toBe(200)
    return new Uint8Array(await response.arrayBuffer())
  }
  const arrowObject = (outputNo: number, objectId: string, dataset: 'full' | 'fast' = 'full') =>
    readObjectStream(
      new Uint8Array(
        readFileSync(
          join(server.dataDir, objectFile(simulationId, RUN_ID, outputNo, objectId, dataset)),
        ),
      ),
    )
  const exportsDir = () => join(server.dataDir, simulationDirectory(simulationId), 'exports')

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request<{ results: { id: number }[] }>(
      'GET',
      '/api/projects?pageLimit=50',
      { token: manager },
    )
    const created = await server.request<{ id: number }>(
      'POST',
      `/api/projects/${projects.body.results[0]?.id}/simulations`,
      { token: manager, body: { name: 'Dam break export' } },
    )
    simulationId = created.body.id
    await writeSyntheticRun({
      dataDir: server.dataDir,
      simulationId,
      runId: RUN_ID,
      outputCount: OUTPUTS,
      particles: PARTICLES,
    })
    // An output still being written (no manifest) is missing for the export.
    rmSync(
      join(
        server.dataDir,
        simulationDirectory(simulationId),
        'runs',
        String(RUN_ID),
        'outputs',
        String(MISSING_OUTPUT).padStart(6, '0'),
        'manifest.json',
      ),
    )
    writeFileSync(
      join(server.dataDir, runLogFile(simulationId, RUN_ID)),
      [
        { level: 'info', time: 0, runtime: 0, particles: PARTICLES, progress: 0, output: -1 },
        { level: 'info', time: 50, runtime: 900, particles: PARTICLES, progress: 0.5, output: 0 },
        '{"level":"info","ti',
      ]
        .map((line) => (typeof line === 'string' ? line : JSON.stringify(line)))
        .join('\n'),
    )
  })
  afterAll(async () => {
    const closing = server?.close()
    // A keep-alive socket fetch opened but never used (parallel requests) is not "idle" to Node,
    // and app.close() would wait for its headers timeout (~70 s): end them all at teardown.
    server?.app.server.closeAllConnections()
    await closing
  })

  it('reads no export for a simulation that never exported', async () => {
    expect(await readExport()).toBeNull()
  })

  it('refuses an export with nothing selected with the spec message', async () => {
    const reply = await request({})
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      code: 'validation_error',
      description: EXPORT_MESSAGES.selectItem,
      errors: [{ path: 'selection', message: EXPORT_MESSAGES.selectItem }],
    })
  })

  it('refuses a single output without data', async () => {
    const reply = await request({ materials: [0], outputsSingle: MISSING_OUTPUT })
    expect(reply.status).toBe(400)
    expect(reply.body.description).toBe(EXPORT_MESSAGES.missingSingleOutput)
  })

  it('refuses a step size of 0 and of 101 with the rule message', async () => {
    for (const stepSize of [0, 101]) {
      const body = {
        ...defaultExportRequest(simulationId, 1),
        materials: [0],
        outputMode: 'range' as const,
        outputsRange: [0, 3] as [number, number],
        stepSize,
      }
      const expected = checkExportRequest(body, {
        availableOutputs: [0, 1, 3],
        fluidMaterialIds: [0],
      }).find((issue) => issue.field === 'stepSize')
      expect(expected?.level).toBe('error')
      const reply = await request(body)
      expect(reply.status).toBe(400)
      expect(reply.body.errors).toContainEqual({ path: 'stepSize', message: expected?.message })
    }
  })

  it('refuses an unknown attribute and a body naming another simulation', async () => {
    const unknown = await request({ materials: [0], attributes: ['colour'] })
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors[0].path).toBe('attributes')
    const mismatch = await request({ materials: [0], simulationId: simulationId + 1000 })
    expect(mismatch.status).toBe(400)
    expect(mismatch.body.errors[0].path).toBe('simulationId')
  })

  it('answers 404 for a simulation of another organization, and 401 without a token', async () => {
    const other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    expect((await request({ materials: [0] }, other)).status).toBe(404)
    const get = await server.request('GET', `/api/simulations/${simulationId}/user_exports`, {
      token: other,
    })
    expect(get.status).toBe(404)
    expect((await request({ materials: [0] }, '')).status).toBe(401)
    expect((await readExport()) === null).toBe(true)
  })

  it('exports the pressure of one output as a VTU whose points and values are the Arrow output', async () => {
    const reply = await request({ materials: [0], attributes: ['pressure'], outputsSingle: 1 })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({ name: EXPORT_MESSAGES.defaultName, files: [] })
    expect(['scheduled', 'running']).toContain(reply.body.state)
    const status = await waitForEnd()
    expect(status).toMatchObject({ state: 'completed', progress: 1, errors: [], warnings: [] })
    expect(status.files.map((f) => [f.filename, f.state])).toEqual([
      ['Fluid_1_000001.vtu', 'created'],
    ])
    expect(Date.parse(status.expiresAt!) - Date.parse(status.createdAt)).toBeGreaterThan(
      USER_EXPORT_RETENTION_MS - 60_000,
    )
    const vtu = parseVtu(await downloadBytes(status, 'Fluid_1_000001.vtu'))
    const arrow = arrowObject(1, SYNTHETIC_RUN_OBJECT_IDS.fluid)
    expect(vtu).toMatchObject({
      byteOrder: 'LittleEndian',
      numberOfPoints: PARTICLES,
      numberOfCells: PARTICLES,
    })
    expect(vtu.timeS).toBeCloseTo(0.05)
    expect(Object.keys(vtu.pointData)).toEqual(['pressure'])
    expect(Array.from(vtu.pointData.pressure!.values)).toEqual(Array.from(arrow.columns.pressure!))
    const points = vtu.points.values
    for (const i of [0, 1, PARTICLES >> 1, PARTICLES - 1]) {
      expect(points[i * 3]).toBe(arrow.columns.x![i])
      expect(points[i * 3 + 1]).toBe(arrow.columns.y![i])
      expect(points[i * 3 + 2]).toBe(arrow.columns.z![i])
    }
    expect(vtu.cells.types!.values.every((type) => type === 1)).toBe(true)
    expect(vtu.cells.offsets!.values.at(-1)).toBe(PARTICLES)
  })

  it('serves a file only of the own simulation and only by a known id', async () => {
    const status = (await readExport())!
    const fileId = status.files[0]!.id
    const other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    expect((await download(fileId, other)).status).toBe(404)
    expect((await download(fileId + 999)).status).toBe(404)
    const bad = await fetch(`${server.baseUrl}/api/simulations/${simulationId}/user_exports/x`, {
      headers: { authorization: `Bearer ${manager}` },
    })
    expect(bad.status).toBe(400)
  })

  it('exports a range with step, vector attributes, boundaries as STL meshes, logs and setup, listing the missing output', async () => {
    const previous = (await readExport())!
    const reply = await request({
      allObjects: true,
      attributes: ['velocity', 'pressure'],
      boundariesType: 'stl',
      outputMode: 'range',
      outputsRange: [0, 3],
      stepSize: 1,
      logs: true,
      setup: true,
    })
    expect(reply.status).toBe(201)
    const status = await waitForEnd()
    expect(status.state).toBe('completed')
    // The new export replaced the previous one, files included.
    expect((await download(previous.files[0]!.id)).status).toBe(404)
    expect(status.warnings).toEqual([
      { description: EXPORT_MESSAGES.missingOutputs([MISSING_OUTPUT]), outputs: [MISSING_OUTPUT] },
    ])
    expect(status.files.map((f) => f.filename).sort()).toEqual([
      'Dam_break_export_export.zip',
      'Fluid_1_000000.vtu',
      'Fluid_1_000001.vtu',
      'Fluid_1_000003.vtu',
      'Tank_000000.stl',
      'Tank_000001.stl',
      'Tank_000003.stl',
      'jobfile_0.json',
      'logs.csv',
    ])
    const vtu = parseVtu(await downloadBytes(status, 'Fluid_1_000003.vtu'))
    const arrow = arrowObject(3, SYNTHETIC_RUN_OBJECT_IDS.fluid)
    expect(vtu.pointData.velocity!.components).toBe(3)
    const velocity = vtu.pointData.velocity!.values
    expect([velocity[30], velocity[31], velocity[32]]).toEqual([
      arrow.columns.vx![10],
      arrow.columns.vy![10],
      arrow.columns.vz![10],
    ])
    const stl = parseBinaryStl(await downloadBytes(status, 'Tank_000001.stl'))
    const wall = arrowObject(1, SYNTHETIC_RUN_OBJECT_IDS.wall)
    expect(stl.triangleCount).toBe(wall.mesh!.triangleCount)
    const firstVertex = wall.mesh!.indices[0]!
    expect(Array.from(stl.vertices.subarray(0, 3))).toEqual([
      wall.mesh!.columns.x![firstVertex],
      wall.mesh!.columns.y![firstVertex],
      wall.mesh!.columns.z![firstVertex],
    ])
    const csv = new TextDecoder()
      .decode(await downloadBytes(status, 'logs.csv'))
      .trim()
      .split('\n')
    expect(csv[0]).toBe('level;time;runtime;particles;progress;output')
    expect(csv).toHaveLength(3)
    expect(csv[2]).toBe(`info;50;900;${PARTICLES};0.5;0`)
    const job = JSON.parse(new TextDecoder().decode(await downloadBytes(status, 'jobfile_0.json')))
    // The archive holds every other file, byte for byte, and its announced length is its length.
    const archiveFile = status.files.find((f) => f.filename.endsWith('.zip'))!
    const archiveReply = await download(archiveFile.id)
    expect(archiveReply.headers.get('content-type')).toBe('application/zip')
    const archive = Buffer.from(await archiveReply.arrayBuffer())
    expect(Number(archiveReply.headers.get('content-length'))).toBe(archive.length)
    const entries = listZipEntries(archive)
    const others = status.files.filter((f) => f !== archiveFile)
    expect(entries.map((entry) => entry.name)).toEqual(others.map((f) => f.filename))
    const logsEntry = entries.find((entry) => entry.name === 'logs.csv')!
    expect(logsEntry.size).toBe((await downloadBytes(status, 'logs.csv')).length)
    expect(job).toMatchObject({ format: 'dive-job', simulation: { name: 'Dam break export' } })
  })

  it('exports boundaries as VTU points in full or reduced mode', async () => {
    for (const [mode, dataset] of [
      ['full', 'full'],
      ['reduced', 'fast'],
    ] as const) {
      await request({ boundaries: [1], boundariesMode: mode, outputsSingle: 0 })
      const status = await waitForEnd()
      const vtu = parseVtu(await downloadBytes(status, 'Tank_000000.vtu'))
      expect(vtu.numberOfPoints).toBe(
        arrowObject(0, SYNTHETIC_RUN_OBJECT_IDS.wall, dataset).rowCount,
      )
      expect(vtu.pointData).toEqual({})
    }
  })

  it('keeps one export when two start at once: the later replaces the earlier', async () => {
    const [first, second] = await Promise.all([
      request({ materials: [0], outputsSingle: 0 }),
      request({ materials: [0], outputsSingle: 1 }),
    ])
    expect([first.status, second.status]).toEqual([201, 201])
    const status = await waitForEnd()
    const rows = await server.database.handle.db
      .selectFrom('user_exports')
      .select('id')
      .where('simulation_id', '=', simulationId)
      .execute()
    expect(rows.map((row) => row.id)).toEqual([status.id])
    expect(status.files).toHaveLength(1)
    expect(listFilesUnder(exportsDir())).toHaveLength(1)
  })

  it('cancels a running export: DELETE stops it and leaves no files on disk', async () => {
    const runner = exportRunnerFor(server.database.handle.db)
    let reachedFirstFile: () => void = () => undefined
    const firstFile = new Promise<void>((resolve) => (reachedFirstFile = resolve))
    runner.setAfterFileHook(async (_id, signal) => {
      reachedFirstFile()
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
    })
    try {
      await request({
        allObjects: true,
        allAttributes: true,
        outputMode: 'range',
        outputsRange: [0, 3],
      })
      await firstFile
      const running = (await readExport())!
      expect(running.state).toBe('running')
      expect(running.files).toHaveLength(1)
      expect(listFilesUnder(exportsDir())).toHaveLength(1)
      const reply = await server.request<ExportStatusReply>(
        'DELETE',
        `/api/simulations/${simulationId}/user_exports`,
        { token: manager },
      )
      expect(reply.status).toBe(200)
      expect(reply.body.export).toMatchObject({ state: 'canceled', files: [] })
      expect(listFilesUnder(exportsDir())).toEqual([])
      expect((await download(running.files[0]!.id)).status).toBe(404)
      expect((await readExport())!.state).toBe('canceled')
    } finally {
      runner.setAfterFileHook(null)
    }
  })

  it('deletes the files of a completed export on DELETE', async () => {
    await request({ setup: true })
    const status = await waitForEnd()
    expect(status.files).toHaveLength(1)
    const reply = await server.request<ExportStatusReply>(
      'DELETE',
      `/api/simulations/${simulationId}/user_exports`,
      { token: manager },
    )
    expect(reply.body.export).toMatchObject({ state: 'canceled', files: [] })
    expect(listFilesUnder(exportsDir())).toEqual([])
  })

  it('fails with per-output errors when an output cannot be read, and removes what it wrote', async () => {
    const path = join(
      server.dataDir,
      objectFile(simulationId, RUN_ID, 1, SYNTHETIC_RUN_OBJECT_IDS.fluid, 'full'),
    )
    const original = readFileSync(path)
    truncateSync(path, 100)
    try {
      await request({ materials: [0], outputMode: 'range', outputsRange: [0, 3], setup: true })
      const status = await waitForEnd()
      expect(status.state).toBe('failed')
      expect(status.files).toEqual([])
      expect(status.errors).toHaveLength(1)
      expect(status.errors[0]).toMatchObject({
        description: EXPORT_WORK_MESSAGES.unreadable(1),
        outputs: [1],
      })
      expect(await filesLeftUnder(exportsDir())).toEqual([])
    } finally {
      writeFileSync(path, original)
    }
  })

  it('reads as expired once the retention has passed: files deleted, downloads refused', async () => {
    await request({ materials: [0], outputsSingle: 0 })
    const status = await waitForEnd()
    expect(status.state).toBe('completed')
    server.advanceClockMs(USER_EXPORT_RETENTION_MS + 1000)
    // The access token expired with the clock: log in again.
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    const expired = (await readExport())!
    expect(expired).toMatchObject({ state: 'expired', files: [] })
    expect((await download(status.files[0]!.id)).status).toBe(404)
    expect(listFilesUnder(exportsDir())).toEqual([])
  })

  it('fails an export a previous process left running, removing its files', async () => {
    const db = server.database.handle.db
    const now = new Date().toISOString()
    const directory = `${simulationDirectory(simulationId)}/exports/left-over`
    const left = await db
      .insertInto('user_exports')
      .values({
        simulation_id: simulationId,
        name: EXPORT_MESSAGES.defaultName,
        state: 'running',
        request: '{}',
        directory,
        expires_at: null,
        ended_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    mkdirSync(join(server.dataDir, directory), { recursive: true })
    writeFileSync(join(server.dataDir, directory, 'half.vtu.partial'), 'x')
    const fresh = new ExportRunner({
      db,
      clock: { nowMs: Date.now, nowIso: () => now },
      dataDir: server.dataDir,
    })
    await fresh.recoverUnfinished()
    const status = await readExport()
    expect(status).toMatchObject({ id: left.id, state: 'failed' })
    expect(status?.errors[0]).toMatchObject({
      description: EXPORT_MESSAGES.failed,
      details: { description: SERVER_RESTARTED_MESSAGE },
    })
    expect(listFilesUnder(join(server.dataDir, directory))).toEqual([])
  })

  it('warns about unknown sensors and surface reconstructions it cannot export', async () => {
    await request({
      materials: [0],
      sensors: [7777],
      surfaceReconstructions: [0],
      outputsSingle: 0,
    })
    const status = await waitForEnd()
    expect(status.state).toBe('completed')
    expect(status.warnings.map((w) => w.description)).toEqual([
      EXPORT_WORK_MESSAGES.notInOutputs('Sensor 7777'),
      EXPORT_WORK_MESSAGES.noSurface,
    ])
  })

  it('exports the sample points of a sensor per output and lists the outputs it was not computed for', async () => {
    const now = new Date().toISOString()
    const sensor = await server.database.handle.db
      .insertInto('sensors')
      .values({
        simulation_id: simulationId,
        name: 'Probe 1',
        kind: 'point',
        position: '[0.1,0.1,0.1]',
        mesh_id: null,
        appearance: '{"visibility":true}',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const samplePath = join(server.dataDir, sensorSampleFile(simulationId, RUN_ID, sensor.id, 0))
    mkdirSync(dirname(samplePath), { recursive: true })
    writeFileSync(
      samplePath,
      JSON.stringify({
        sensorId: sensor.id,
        outputNo: 0,
        timeS: 0,
        count: 1,
        columns: { x: [0.1], y: [0.1], z: [0.1], pressure: [981.5], vx: [1], vy: [2], vz: [null] },
      }),
    )
    await request({
      sensors: [sensor.id],
      attributes: ['pressure', 'velocity'],
      outputMode: 'range',
      outputsRange: [0, 1],
    })
    const status = await waitForEnd()
    expect(status.state).toBe('completed')
    expect(status.files.map((f) => f.filename)).toEqual(['Probe_1_000000.vtu'])
    expect(status.warnings).toEqual([
      { description: EXPORT_WORK_MESSAGES.sensorNotComputed('Probe 1'), outputs: [1] },
    ])
    const vtu = parseVtu(await downloadBytes(status, 'Probe_1_000000.vtu'))
    expect(vtu.numberOfPoints).toBe(1)
    expect(Array.from(vtu.points.values)).toEqual([0.1, 0.1, 0.1].map(Math.fround))
    expect(vtu.pointData.pressure!.values[0]).toBe(981.5)
    expect(Array.from(vtu.pointData.velocity!.values)).toEqual([1, 2, Number.NaN])
  })
})
