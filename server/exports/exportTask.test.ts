import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { defaultExportRequest, EXPORT_MESSAGES } from '../../domain/results.ts'
import {
  closeTestServer,
  describeEachDialect,
  startServerWithSyntheticRun,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { createClock } from '../clock.ts'
import type { TaskHandler } from '../jobs/queue/tasks.ts'
import { ExportRunner, type ExportTaskData } from './ExportRunner.ts'
import { ARCHIVE_PATH, exportsDirectory } from './exportFiles.ts'
import { createExportTaskHandler } from './exportTask.ts'

/*
 * An export on a worker process whose lease a reaper took while it still ran (its worker starved
 * of CPU past its lease, then went on): the reaper's retry owns the record from then on, and the
 * superseded attempt must neither end the record nor touch the retry's files.
 */

const RUN_ID = 1
const OUTPUTS = 3
const DATA: ExportTaskData = { runId: RUN_ID, sensors: [] }

describeEachDialect('exports on workers: claim, run, recovery', (dialect) => {
  let server: TestServer
  let simulationId: number
  let runner: ExportRunner
  let handler: TaskHandler

  beforeAll(async () => {
    const started = await startServerWithSyntheticRun(dialect, {
      name: 'Export on a worker',
      runId: RUN_ID,
      outputCount: OUTPUTS,
      particles: 2_000,
    })
    server = started.server
    simulationId = started.simulationId
    const clock = createClock()
    runner = new ExportRunner({ db: server.database.handle.db, clock, dataDir: server.dataDir })
    handler = createExportTaskHandler(server.database.handle.db, clock, server.dataDir, runner)
  })
  afterAll(() => closeTestServer(server))

  /** A record as the server queues it (scheduled), claimed as a worker claims it. */
  async function insertClaimedExport(): Promise<{ id: number; directory: string }> {
    const db = server.database.handle.db
    const now = new Date().toISOString()
    const directory = `${exportsDirectory(simulationId)}/${randomUUID()}`
    const request = {
      ...defaultExportRequest(simulationId, OUTPUTS - 1),
      allObjects: true,
      attributes: ['pressure' as const],
      outputMode: 'range' as const,
      outputsRange: [0, OUTPUTS - 1] as [number, number],
      stepSize: 1,
      logs: false,
      setup: true,
    }
    const { id } = await db
      .insertInto('user_exports')
      .values({
        simulation_id: simulationId,
        name: EXPORT_MESSAGES.defaultName,
        state: 'scheduled',
        request: JSON.stringify(request),
        directory,
        expires_at: null,
        ended_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(await claim(id)).toBe(true)
    return { id, directory }
  }

  const claim = (id: number) =>
    server.database.handle.db
      .transaction()
      .execute((trx) => handler.claim(trx, String(id), DATA, new Date().toISOString()))

  const run = (id: number) => handler.run(String(id), DATA, new AbortController().signal)

  const readRecord = (id: number) =>
    server.database.handle.db
      .selectFrom('user_exports')
      .select(['state', 'directory'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  const listedFiles = (id: number) =>
    server.database.handle.db
      .selectFrom('user_export_files')
      .select(['filename', 'path'])
      .where('export_id', '=', id)
      .execute()

  /** Runs the claimed export; after its `fileNo`-th file a reaper recovers it. */
  async function runTakenOverAfterFile(id: number, fileNo: number): Promise<void> {
    let files = 0
    runner.setAfterFileHook(async () => {
      if (++files === fileNo) expect(await handler.recover(String(id), DATA)).toBe(true)
    })
    try {
      await run(id)
    } finally {
      runner.setAfterFileHook(null)
    }
    expect(files).toBeGreaterThanOrEqual(fileNo)
  }

  /** The retry, claimed and run to its end: completed, each file listed once and on disk. */
  async function expectRetryCompletes(id: number, fileCount: number): Promise<void> {
    expect(await claim(id)).toBe(true)
    await run(id)
    const record = await readRecord(id)
    expect(record.state).toBe('completed')
    const files = await listedFiles(id)
    expect(new Set(files.map((file) => file.filename)).size).toBe(files.length)
    const onDisk = files.filter((file) => file.path !== ARCHIVE_PATH)
    expect(onDisk).toHaveLength(fileCount)
    for (const file of onDisk)
      expect(existsSync(join(server.dataDir, record.directory, file.path)), file.path).toBe(true)
  }

  let fileCount = 0

  it('runs a claimed export to its end: completed, its files listed once with the archive', async () => {
    const { id } = await insertClaimedExport()
    await run(id)
    expect((await readRecord(id)).state).toBe('completed')
    const files = await listedFiles(id)
    fileCount = files.filter((file) => file.path !== ARCHIVE_PATH).length
    expect(fileCount).toBeGreaterThan(OUTPUTS)
    expect(files.filter((file) => file.path === ARCHIVE_PATH)).toHaveLength(1)
  })

  it('leaves an export taken over mid-way to its retry: not failed, no file of its own listed', async () => {
    const { id, directory } = await insertClaimedExport()
    await runTakenOverAfterFile(id, 1)
    const record = await readRecord(id)
    expect(record.state).toBe('scheduled')
    expect(record.directory).not.toBe(directory)
    expect(await listedFiles(id)).toEqual([])
    expect(existsSync(join(server.dataDir, directory))).toBe(false)
    await expectRetryCompletes(id, fileCount)
  })

  it('does not complete an export taken over after its last file', async () => {
    const { id, directory } = await insertClaimedExport()
    await runTakenOverAfterFile(id, fileCount)
    const record = await readRecord(id)
    expect(record.state).toBe('scheduled')
    expect(record.directory).not.toBe(directory)
    expect(await listedFiles(id)).toEqual([])
    await expectRetryCompletes(id, fileCount)
  })
})
