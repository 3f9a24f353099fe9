import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { readBundle } from '../../domain/output/reader.ts'
import {
  ResultsSession,
  type DataStreamFrame,
  type ResultsSocketLike,
  type StatsCalcFrame,
} from '../../engine/results/ResultsSession.ts'
import { SYNTHETIC_RUN_OBJECT_IDS, writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { startTestServer, type TestServer } from './harness.ts'

/*
 * The browser's results-session client (engine/results/ResultsSession.ts) against the real
 * /ws/results of the app, over a synthetic run written into the server's data directory.
 */

const RUN_ID = 2

describe('ResultsSession client against the app', () => {
  let server: TestServer
  let token: string
  let simulationId: number
  let session: ResultsSession

  beforeAll(async () => {
    server = await startTestServer('sqlite')
    token = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request<{ results: { id: number }[] }>(
      'GET',
      '/api/projects?pageLimit=50',
      { token },
    )
    const created = await server.request<{ id: number }>(
      'POST',
      `/api/projects/${projects.body.results[0]?.id}/simulations`,
      { token, body: { name: 'Session client run' } },
    )
    simulationId = created.body.id
    await writeSyntheticRun({
      dataDir: server.dataDir,
      simulationId,
      runId: RUN_ID,
      outputCount: 3,
      particles: 1500,
    })
    await server.database.handle.db
      .updateTable('simulations')
      .set({ state: 'completed', active_run_id: RUN_ID })
      .where('id', '=', simulationId)
      .execute()
    session = new ResultsSession({
      url: `${server.baseUrl.replace('http', 'ws')}/ws/results`,
      createSocket: (url) => new WebSocket(url) as unknown as ResultsSocketLike,
      readToken: () => token,
    })
    session.start()
  })

  afterAll(async () => {
    session?.stop()
    await server?.close()
  })

  it('opens with the access token and lists the outputs', async () => {
    const outputs = await session.fetchAvailableOutputs(simulationId)
    expect(outputs.map((o) => o.outputNo)).toEqual([0, 1, 2])
    expect(session.getSnapshot()).toMatchObject({ status: 'open', toast: { state: 'connected' } })
  })

  it('collects fetch.info per output and names the missing ones', async () => {
    const info = await session.fetchInfo(simulationId, [0, 2, 9])
    expect(info.infos.map((i) => i.outputNo).sort()).toEqual([0, 2])
    expect(info.missingOutputs).toEqual([9])
    expect(info.infos[0]?.objects.some((o) => o.kind === 'fluid')).toBe(true)
  })

  it('streams a statistics calculation with an error for a missing output', async () => {
    const attributes = await session.fetchStatisticsInfo(simulationId)
    expect(attributes.map((a) => a.attribute)).toContain('pressure')
    const info = await session.fetchInfo(simulationId, [0])
    const fluid = info.infos[0]?.objects.find((o) => o.kind === 'fluid')
    expect(fluid).toBeDefined()
    const frames: StatsCalcFrame[] = []
    const handle = session.calculateStatistics(
      {
        simId: simulationId,
        outputs: [0, 1, 2, 5],
        attribute: 'pressure',
        subAttribute: null,
        dataset: 'raw',
        objIds: [fluid?.id ?? -1],
        masks: [],
        operations: { mean: ['mean'], max: ['max'] },
        mode: 'both',
      },
      (frame) => frames.push(frame),
    )
    expect(await handle.done).toBe('completed')
    const perOutput = frames.filter((f) => f.type === 'stats.calc.output_statistic')
    expect(perOutput).toHaveLength(6)
    for (const frame of perOutput) expect(Number.isFinite(frame.value)).toBe(true)
    expect(frames.filter((f) => f.type === 'stats.calc.error').map((f) => f.outputNo)).toEqual([5])
    expect(frames.filter((f) => f.type === 'stats.calc.all_output_statistic')).toHaveLength(2)
  })

  it('delivers a fetch.data bundle whose payload reads as the output objects', async () => {
    const info = await session.fetchInfo(simulationId, [1])
    const fluid = info.infos[0]?.objects.find((o) => o.kind === 'fluid')
    const frames: DataStreamFrame[] = []
    const handle = session.fetchData(
      {
        simId: simulationId,
        outputs: [1],
        requests: [
          {
            objIds: [fluid?.id ?? -1],
            attributes: ['pressure'],
            geometry: true,
            dataset: 'full',
            masks: [],
          },
        ],
        bundle: true,
      },
      (frame) => frames.push(frame),
    )
    expect(await handle.done).toBe('completed')
    const bundle = frames.find((f) => f.header.type === 'fetch.data.bundle')
    expect(bundle?.payload).toBeInstanceOf(Uint8Array)
    const entries = readBundle(bundle?.payload ?? new Uint8Array())
    expect(entries.map((e) => e.objectId)).toContain(SYNTHETIC_RUN_OBJECT_IDS.fluid)
  })

  it('fails a request for a simulation the user cannot read, and keeps serving', async () => {
    await expect(session.fetchAvailableOutputs(999_999)).rejects.toThrow()
    await expect(session.fetchAvailableOutputs(simulationId)).resolves.toHaveLength(3)
  })
})
