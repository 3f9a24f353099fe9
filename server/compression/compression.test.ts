import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDirectory, runLogFile, simulationDirectory } from '../../domain/output/layout.ts'
import {
  COMPRESSION_TEXTS,
  compressionDownloadUrl,
  type Compression,
} from '../../domain/rest/compressionRoutes.ts'
import { writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { createClock } from '../clock.ts'
import {
  CONTRIBUTOR_SIMULATION_NAME,
  DEMO_PROJECT_NAME,
  DEMO_USERS,
  OTHER_ORGANIZATION_USER,
} from '../db/demoAccounts.ts'
import { CompressionRunner } from './CompressionRunner.ts'
import { tarSizeBytes, tarStream } from './tarArchive.ts'
import { withCompressions } from './tables.ts'

const RUN_ID = 3
const OUTPUTS = 3

/** The files of a tar archive by name (ustar headers, pax path records). */
function readTar(bytes: Uint8Array): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  const buffer = Buffer.from(bytes)
  let offset = 0
  let paxPath: string | null = null
  while (offset + 512 <= buffer.length) {
    const header = buffer.subarray(offset, offset + 512)
    if (header.every((byte) => byte === 0)) break
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '')
    const size = parseInt(field(124, 12).trim(), 8)
    let sum = 0
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0)
    expect(parseInt(field(148, 8).trim(), 8)).toBe(sum)
    expect(field(257, 6)).toBe('ustar')
    const data = buffer.subarray(offset + 512, offset + 512 + size)
    const type = field(156, 1)
    if (type === 'x') paxPath = /\d+ path=(.*)\n/.exec(data.toString('utf8'))?.[1] ?? null
    else {
      files.set(paxPath ?? field(0, 100), Buffer.from(data))
      paxPath = null
    }
    offset += 512 + Math.ceil(size / 512) * 512
  }
  return files
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return Buffer.concat(chunks)
}

describe('tar stream', () => {
  it('writes ustar entries, a pax path for long names, and the size it announces', async () => {
    const longName = `run/${'deep/'.repeat(30)}file.bin`
    const sources = [
      { name: 'a.txt', sizeBytes: 5, text: 'hello' },
      { name: longName, sizeBytes: 600, text: 'x'.repeat(600) },
      { name: 'empty', sizeBytes: 0, text: '' },
    ].map((source) => ({
      ...source,
      chunks: async function* () {
        yield await Promise.resolve(Buffer.from(source.text))
      },
    }))
    const bytes = await collect(tarStream(sources, 1_700_000_000))
    expect(bytes.length).toBe(tarSizeBytes(sources))
    const files = readTar(bytes)
    expect([...files.keys()]).toEqual(['a.txt', longName, 'empty'])
    expect(files.get(longName)?.toString()).toBe('x'.repeat(600))
  })

  it('fails when a file is not the size its header announced', async () => {
    const source = {
      name: 'grown.log',
      sizeBytes: 2,
      chunks: async function* () {
        yield await Promise.resolve(Buffer.from('longer'))
      },
    }
    await expect(collect(tarStream([source], 0))).rejects.toThrow('grew')
  })
})

describeEachDialect('download with compression: the job, its calls and the download', (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string
  let other: string
  let simulationId: number
  let contributorSimulationId: number

  const call = (method: string, id = simulationId, token = manager) =>
    server.request(method, `/api/simulations/${id}/compression`, { token })
  const waitForEnd = async (id = simulationId): Promise<Compression> => {
    for (let attempt = 0; attempt < 600; attempt++) {
      const compression = (await call('GET', id)).body.compression as Compression | null
      if (compression && !['scheduled', 'running'].includes(compression.state)) return compression
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('The compression did not end')
  }
  const download = (filename: string, token = manager, id = simulationId) =>
    fetch(`${server.baseUrl}${compressionDownloadUrl(id, filename)}`, {
      headers: { authorization: `Bearer ${token}` },
    })
  const compressionDir = (id = simulationId) =>
    join(server.dataDir, simulationDirectory(id), 'compression')
  const setState = (id: number, state: string, runId: number | null) =>
    server.database.handle.db
      .updateTable('simulations')
      .set({ state, active_run_id: runId })
      .where('id', '=', id)
      .execute()

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const projects = await server.request<{ results: { id: number; name: string }[] }>(
      'GET',
      '/api/projects?pageLimit=50',
      { token: manager },
    )
    const project = projects.body.results.find((p) => p.name === DEMO_PROJECT_NAME)
    const created = await server.request('POST', `/api/projects/${project?.id}/simulations`, {
      token: manager,
      body: { name: 'Dam break / compressed' },
    })
    simulationId = created.body.id
    await writeSyntheticRun({
      dataDir: server.dataDir,
      simulationId,
      runId: RUN_ID,
      outputCount: OUTPUTS,
      particles: 2_000,
    })
    const runDir = join(server.dataDir, runDirectory(simulationId, RUN_ID))
    writeFileSync(join(server.dataDir, runLogFile(simulationId, RUN_ID)), '{"time":0}\n')
    mkdirSync(join(runDir, 'checkpoints'), { recursive: true })
    writeFileSync(join(runDir, 'checkpoints', '000000.ckpt'), 'solver state')
    // An output still being written: no manifest yet.
    mkdirSync(join(runDir, 'outputs', '000009'), { recursive: true })
    writeFileSync(join(runDir, 'outputs', '000009', 'fluid.full.arrow'), 'half')
    const rows = await server.database.handle.db
      .selectFrom('simulations')
      .select(['id', 'name'])
      .execute()
    contributorSimulationId = rows.find((row) => row.name === CONTRIBUTOR_SIMULATION_NAME)!.id
  })
  afterAll(async () => {
    const closing = server?.close()
    server?.app.server.closeAllConnections()
    await closing
  })

  it('reads no compression before the first, and refuses a simulation not started', async () => {
    expect((await call('GET')).body).toEqual({ compression: null })
    const reply = await call('POST')
    expect(reply.status).toBe(409)
    expect(reply.body.description).toBe(COMPRESSION_TEXTS.notStarted)
  })

  it('packs the job file, the record and the run (no checkpoints, no unfinished output) into a .tar.gz', async () => {
    await setState(simulationId, 'completed', RUN_ID)
    const started = await call('POST')
    expect(started.status).toBe(201)
    expect(started.body).toMatchObject({
      simulationId,
      state: 'scheduled',
      filename: 'Dam break _ compressed.tar.gz',
      sizeBytes: 0,
    })
    const done = await waitForEnd()
    expect(done).toMatchObject({ state: 'completed', progress: 1, error: null })
    expect(done.endedAt).not.toBeNull()

    const response = await download(done.filename)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/gzip')
    expect(response.headers.get('content-disposition')).toContain('compressed.tar.gz')
    const gzipped = new Uint8Array(await response.arrayBuffer())
    expect(gzipped.length).toBe(done.sizeBytes)
    const files = readTar(gunzipSync(gzipped))
    expect(files.size).toBe(done.fileCount)
    const names = [...files.keys()]
    expect(names.slice(0, 2)).toEqual(['jobfile_0.json', 'simulation.json'])
    expect(JSON.parse(files.get('simulation.json')!.toString())).toMatchObject({
      id: simulationId,
      state: 'completed',
    })
    expect(names).toContain('run/log.jsonl')
    expect(names.filter((name) => name.endsWith('/manifest.json'))).toHaveLength(OUTPUTS)
    expect(names.some((name) => name.includes('checkpoints'))).toBe(false)
    expect(names.some((name) => name.includes('000009'))).toBe(false)
    // Byte for byte the files on disk.
    const runDir = join(server.dataDir, runDirectory(simulationId, RUN_ID))
    for (const name of names.filter((n) => n.startsWith('run/')))
      expect(files.get(name)!.equals(readFileSync(join(runDir, name.slice(4))))).toBe(true)
    const input = [...files.values()].reduce((sum, bytes) => sum + bytes.length, 0)
    expect(done.inputBytes).toBe(input)
  })

  it('downloads only the completed archive of that name', async () => {
    expect((await download('other.tar.gz')).status).toBe(404)
    expect((await download('Dam break _ compressed.tar.gz', other)).status).toBe(404)
  })

  it('refuses a second compression while one runs, and cancels a running one', async () => {
    const runDir = join(server.dataDir, runDirectory(simulationId, RUN_ID))
    // Random bytes do not compress: gzip takes its time on them.
    writeFileSync(join(runDir, 'big.bin'), randomBytes(48 * 1024 * 1024))
    try {
      expect((await call('POST')).status).toBe(201)
      const second = await call('POST')
      expect(second.status).toBe(409)
      expect(second.body.description).toBe(COMPRESSION_TEXTS.alreadyRunning)
      const canceled = await call('DELETE')
      expect(canceled.status).toBe(200)
      expect(canceled.body.compression).toMatchObject({ state: 'canceled' })
      expect(readdirSync(compressionDir())).toEqual([])
      // DELETE again removes the canceled record.
      expect((await call('DELETE')).body).toEqual({ compression: null })
      expect((await call('GET')).body).toEqual({ compression: null })
    } finally {
      rmSync(join(runDir, 'big.bin'))
    }
  })

  it('deletes a completed archive and its file', async () => {
    expect((await call('POST')).status).toBe(201)
    const done = await waitForEnd()
    expect(readdirSync(compressionDir())).toHaveLength(1)
    expect((await call('DELETE')).body).toEqual({ compression: null })
    expect(readdirSync(compressionDir())).toEqual([])
    expect((await download(done.filename)).status).toBe(404)
  })

  it('is out of reach of another organization (404) and of no session (401)', async () => {
    for (const method of ['GET', 'POST', 'DELETE'])
      expect((await call(method, simulationId, other)).status).toBe(404)
    expect(
      (await server.request('GET', `/api/simulations/${simulationId}/compression`)).status,
    ).toBe(401)
    // A contributor does not see the manager's project either.
    expect((await call('GET', simulationId, contributor)).status).toBe(404)
  })

  it('lets a contributor download, not delete or replace, an archive a manager made (403)', async () => {
    await setState(contributorSimulationId, 'completed', null)
    expect((await call('POST', contributorSimulationId)).status).toBe(201)
    const done = await waitForEnd(contributorSimulationId)
    expect(done.state).toBe('completed')
    expect((await call('GET', contributorSimulationId, contributor)).body.compression.id).toBe(
      done.id,
    )
    expect((await download(done.filename, contributor, contributorSimulationId)).status).toBe(200)
    for (const method of ['DELETE', 'POST']) {
      const reply = await call(method, contributorSimulationId, contributor)
      expect(reply.status).toBe(403)
      expect(reply.body.description).toBe(COMPRESSION_TEXTS.notOwner)
    }
    expect((await call('DELETE', contributorSimulationId)).body).toEqual({ compression: null })
    // Their own archive they may delete.
    expect((await call('POST', contributorSimulationId, contributor)).status).toBe(201)
    await waitForEnd(contributorSimulationId)
    expect((await call('DELETE', contributorSimulationId, contributor)).status).toBe(200)
  })

  it('fails a compression a previous process left running and deletes its partial file', async () => {
    const db = withCompressions(server.database.handle.db)
    const nowIso = new Date().toISOString()
    const path = `${simulationDirectory(simulationId)}/compression/left.tar.gz`
    mkdirSync(compressionDir(), { recursive: true })
    writeFileSync(join(server.dataDir, `${path}.partial`), 'cut')
    await db
      .insertInto('simulation_compressions')
      .values({
        simulation_id: simulationId,
        creator_id: 1,
        state: 'running',
        filename: 'left.tar.gz',
        path,
        error: null,
        created_at: nowIso,
        updated_at: nowIso,
        ended_at: null,
      })
      .execute()
    const runner = new CompressionRunner({
      db: server.database.handle.db,
      clock: createClock(),
      dataDir: server.dataDir,
    })
    await runner.recoverUnfinished()
    expect(await runner.read(simulationId)).toMatchObject({
      state: 'failed',
      error: COMPRESSION_TEXTS.serverRestarted,
    })
    expect(existsSync(join(server.dataDir, `${path}.partial`))).toBe(false)
    expect((await call('DELETE')).body).toEqual({ compression: null })
  })
})
