import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Sensor } from '../../domain/meshes.ts'
import type { SensorRecomputation } from '../../domain/rest/sensorRoutes.ts'
import {
  closeTestServer,
  describeEachDialect,
  startServerWithSyntheticRun,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { createClock } from '../clock.ts'
import type { TaskHandler } from '../jobs/queue/tasks.ts'
import { SENSOR_JOB_KIND, type SensorJobPayload } from './recomputationRecord.ts'
import { SensorRecomputationRunner } from './SensorRecomputationRunner.ts'
import { createSensorTaskHandler } from './sensorTask.ts'
import { createInProcessSensorExecutor, type SensorExecutor } from './sensorThread.ts'

/*
 * A sensor recomputation on a worker process whose lease a reaper took while it still ran (its
 * worker starved of CPU past its lease, then went on): the reaper's retry owns the row from then
 * on, and the superseded attempt must neither end it (done or failed) nor count its outputs.
 */

const RUN_ID = 1
const OUTPUTS = 4

describeEachDialect('sensor recomputations on workers: claim, run, recovery', (dialect) => {
  let server: TestServer
  let simulationId: number
  let sensorId: number
  let runner: SensorRecomputationRunner
  let handler: TaskHandler
  const sampling = createInProcessSensorExecutor()

  beforeAll(async () => {
    const started = await startServerWithSyntheticRun(dialect, {
      name: 'Sensors on a worker',
      runId: RUN_ID,
      outputCount: OUTPUTS,
      particles: 2_000,
    })
    server = started.server
    simulationId = started.simulationId
    const reply = await server.request('POST', `/api/simulations/${simulationId}/custom_sensors`, {
      token: started.accessToken,
      body: { name: 'Probe', kind: 'point', position: [0.1, 0.1, 0.1] },
    })
    expect(reply.status, reply.text).toBe(201)
    sensorId = (reply.body as Sensor).id
    const clock = createClock()
    const db = server.database.handle.db
    runner = new SensorRecomputationRunner({ db, clock, dataDir: server.dataDir })
    handler = createSensorTaskHandler(db, clock, server.dataDir, runner)
  })
  afterAll(async () => {
    await runner?.close()
    await closeTestServer(server)
  })

  /** A row as the server queues it (scheduled), claimed as a worker claims it. */
  async function insertClaimedJob(): Promise<number> {
    const now = new Date().toISOString()
    const payload: SensorJobPayload = {
      runId: RUN_ID,
      sensorIds: [sensorId],
      outputs: Array.from({ length: OUTPUTS }, (_, k) => k),
    }
    const { id } = await server.database.handle.db
      .insertInto('jobs')
      .values({
        simulation_id: simulationId,
        kind: SENSOR_JOB_KIND,
        state: 'scheduled',
        payload: JSON.stringify(payload),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(await claim(id)).toBe(true)
    return id
  }

  const claim = (id: number) =>
    server.database.handle.db
      .transaction()
      .execute((trx) => handler.claim(trx, String(id), null, new Date().toISOString()))

  const run = (id: number) => handler.run(String(id), null, new AbortController().signal)

  /**
   * Runs the claimed job with real sampling; after its first output a reaper recovers it, and
   * `after` says what the superseded attempt then does: go on to its end, or fail at its next
   * output (its temporary file removed by the recovery, say).
   */
  async function runTakenOver(id: number, after: 'goes on' | 'fails'): Promise<void> {
    let outputs = 0
    const executor: SensorExecutor = (input, onOutput, signal) =>
      sampling(
        input,
        async (outputNo, ok, message) => {
          if (outputs === 1 && after === 'fails') throw new Error('ENOENT: its .tmp file is gone')
          await onOutput(outputNo, ok, message)
          if (++outputs === 1) expect(await handler.recover(String(id), null)).toBe(true)
        },
        signal,
      )
    runner.useExecutor(executor)
    try {
      await run(id)
    } finally {
      runner.useExecutor(sampling)
    }
  }

  const describe = () => runner.describe(simulationId)

  /** The retry, claimed and run to its end: done, every output sampled once. */
  async function expectRetryCompletes(id: number): Promise<void> {
    expect(await claim(id)).toBe(true)
    await run(id)
    const record: SensorRecomputation = await describe()
    expect(record.state).toBe('done')
    expect(record.progress).toBe(1)
    expect(record.outputsDone).toBe(OUTPUTS)
    expect(record.failedOutputs).toEqual([])
  }

  it('runs a claimed recomputation to its end: done, every output sampled', async () => {
    const id = await insertClaimedJob()
    await run(id)
    const record = await describe()
    expect(record.state).toBe('done')
    expect(record.outputsDone).toBe(OUTPUTS)
  })

  it('does not end a recomputation its retry owns when the superseded attempt goes on to its end', async () => {
    const id = await insertClaimedJob()
    await runTakenOver(id, 'goes on')
    const record = await describe()
    expect(record.state).toBe('scheduled')
    expect(record.progress).toBe(0)
    await expectRetryCompletes(id)
  })

  it('does not fail a recomputation its retry owns when the superseded attempt fails', async () => {
    const id = await insertClaimedJob()
    await runTakenOver(id, 'fails')
    expect((await describe()).state).toBe('scheduled')
    await expectRetryCompletes(id)
  })
})
