import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { simulationDirectory } from '../../domain/output/layout.ts'
import { COMPRESSION_EXTENSION } from '../../domain/rest/compressionRoutes.ts'
import {
  createSimulationInFirstProject,
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { createClock } from '../clock.ts'
import { DEMO_USERS } from '../db/demoAccounts.ts'
import type { TaskHandler } from '../jobs/queue/tasks.ts'
import type { ArchiveEntry } from './archiveSources.ts'
import { CompressionRunner } from './CompressionRunner.ts'
import { createCompressionTaskHandler } from './compressionTask.ts'
import { withCompressions } from './tables.ts'

/*
 * A download archive on a worker process whose lease a reaper took while it still ran (its worker
 * starved of CPU past its lease, then went on): the reaper's retry owns the row from then on, and
 * the superseded attempt must not end it.
 */

describeEachDialect('download archives on workers: a superseded attempt', (dialect) => {
  let server: TestServer
  let simulationId: number
  let creatorId: number
  let runner: CompressionRunner
  let handler: TaskHandler

  beforeAll(async () => {
    server = await startTestServer(dialect)
    const { accessToken } = await server.login(DEMO_USERS.manager.email)
    simulationId = await createSimulationInFirstProject(server, accessToken, 'Archive on a worker')
    const manager = await server.database.handle.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_USERS.manager.email)
      .executeTakeFirstOrThrow()
    creatorId = manager.id
    const db = server.database.handle.db
    const clock = createClock()
    runner = new CompressionRunner({ db, clock, dataDir: server.dataDir })
    handler = createCompressionTaskHandler(db, clock, server.dataDir, runner)
  })
  afterAll(async () => {
    const closing = server?.close()
    server?.app.server.closeAllConnections()
    await closing
  })

  const table = () => withCompressions(server.database.handle.db)

  /** An entry whose reading lets a reaper recover the compression mid-way (its lease expired). */
  function entryRecoveredWhileRead(id: number): ArchiveEntry {
    const bytes = Buffer.from('solver state', 'utf8')
    return {
      name: 'state.txt',
      path: null,
      sizeBytes: bytes.length,
      chunks: async function* () {
        expect(await handler.recover(String(id), null)).toBe(true)
        yield bytes
      },
    }
  }

  it('leaves a compression taken over mid-way to its retry: not completed, its archive removed', async () => {
    const now = new Date().toISOString()
    const path = `${simulationDirectory(simulationId)}/compression/${randomUUID()}${COMPRESSION_EXTENSION}`
    const { id } = await table()
      .insertInto('simulation_compressions')
      .values({
        simulation_id: simulationId,
        creator_id: creatorId,
        state: 'scheduled',
        filename: `Archive_on_a_worker${COMPRESSION_EXTENSION}`,
        path,
        error: null,
        created_at: now,
        updated_at: now,
        ended_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const claimed = await server.database.handle.db
      .transaction()
      .execute((trx) => handler.claim(trx, String(id), null, now))
    expect(claimed).toBe(true)
    const row = await table()
      .selectFrom('simulation_compressions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

    await runner.compressClaimed(row, [entryRecoveredWhileRead(id)], new AbortController().signal)

    const after = await table()
      .selectFrom('simulation_compressions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(after.state).toBe('scheduled')
    expect(after.path).not.toBe(path)
    expect(after.ended_at).toBeNull()
    // the superseded attempt's archive is its own to delete: nothing of it is left
    expect(existsSync(join(server.dataDir, path))).toBe(false)
    expect(existsSync(join(server.dataDir, `${path}.partial`))).toBe(false)
  })
})
