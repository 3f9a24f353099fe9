import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ResultsServerFrame, StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import { encodeObjectId } from '../../../domain/resultsObjects.ts'
import { writeSyntheticRun } from '../../../scripts/writeSyntheticRun.ts'
import { BufferPool } from './outputReader.ts'
import { runStatisticsCalc } from './statisticsCalc.ts'
import { StatisticsThreads } from './statisticsThread.ts'

/*
 * One stats.calc request spread over two statistics threads gives the frames one thread gives, and
 * the frames of the inline calculation: the same values to the bit, in the requested order, with
 * the errors of missing outputs in their places and the all-output aggregates over the same values.
 */

const SIMULATION = 1
const RUN = 1
const dataDir = mkdtempSync(join(tmpdir(), 'dive-stats-threads-'))
const context = { dataDir, simulationId: SIMULATION, runId: RUN, clips: [] }
const one = new StatisticsThreads(1)
const two = new StatisticsThreads(2)

function request(overrides: Partial<StatsCalcRequest>): StatsCalcRequest {
  return {
    type: 'stats.calc',
    requestId: 7,
    simId: SIMULATION,
    // Output 40 does not exist: its error comes between outputs 4 and 5.
    outputs: [3, 0, 1, 2, 4, 40, 5, 6, 7, 8, 9, 10, 11],
    attribute: 'pressure',
    subAttribute: null,
    dataset: 'raw',
    objIds: [],
    masks: [],
    operations: {
      mean: ['mean'],
      min: ['min'],
      max: ['max'],
      '5th_percentile': ['5th_percentile'],
      median: ['median'],
      '95th_percentile': ['integral'],
      integral: ['max'],
    },
    mode: 'both',
    ...overrides,
  }
}

async function framesOf(
  run: (emit: (frame: ResultsServerFrame) => Promise<void>) => Promise<string>,
): Promise<ResultsServerFrame[]> {
  const frames: ResultsServerFrame[] = []
  await run((frame) => {
    frames.push(frame)
    return Promise.resolve()
  })
  return frames
}

const inline = (calc: StatsCalcRequest) =>
  framesOf((emit) =>
    runStatisticsCalc(
      calc,
      { ...context, signal: new AbortController().signal, pool: new BufferPool(4) },
      emit,
    ),
  )
const threaded = (threads: StatisticsThreads, calc: StatsCalcRequest) =>
  framesOf((emit) => threads.run(calc, context, emit, new AbortController().signal))

beforeAll(async () => {
  await writeSyntheticRun({
    dataDir,
    simulationId: SIMULATION,
    runId: RUN,
    outputCount: 12,
    particles: 30_000,
  })
}, 60_000)

afterAll(async () => {
  await Promise.all([one.close(), two.close()])
  rmSync(dataDir, { recursive: true, force: true })
})

describe('stats.calc over several statistics threads', () => {
  it('sends the frames of one thread and of the inline calculation, in the requested order', async () => {
    const calc = request({})
    const single = await threaded(one, calc)
    const before = two.answeredPerThread
    const spread = await threaded(two, calc)
    const after = two.answeredPerThread
    // Both threads computed outputs of this one request.
    expect(after[0]! - before[0]!).toBeGreaterThan(0)
    expect(after[1]! - before[1]!).toBeGreaterThan(0)
    expect(spread).toEqual(single)
    expect(spread).toEqual(await inline(calc))
    const perOutput = spread.filter((frame) => frame.type === 'stats.calc.output_statistic')
    expect(perOutput).toHaveLength(12 * 7)
    expect([...new Set(perOutput.map((frame) => frame.outputNo))]).toEqual([
      3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11,
    ])
    const errorAt = spread.findIndex((frame) => frame.type === 'stats.calc.error')
    expect(spread[errorAt]).toEqual({
      type: 'stats.calc.error',
      requestId: 7,
      outputNo: 40,
      message: 'Output 40 does not exist.',
    })
    expect(spread[errorAt - 1]).toMatchObject({ outputNo: 4 })
    expect(spread[errorAt + 1]).toMatchObject({ outputNo: 5 })
    // The outputs differ, so a value sent under the wrong output would show above.
    const medians = perOutput.filter((frame) => frame.statistic === 'median')
    expect(new Set(medians.map((frame) => frame.value)).size).toBeGreaterThan(1)
    expect(spread.at(-1)).toEqual({ type: 'stats.calc.done', requestId: 7, state: 'completed' })
  })

  it('gives the same vector magnitudes and integrals on two threads as on one, output by output', async () => {
    const calc = request({
      attribute: 'velocity',
      subAttribute: 'magnitude',
      objIds: [encodeObjectId('fluid', 0)],
      operations: {
        max: ['mean'],
        median: ['median'],
        integral: ['integral'],
        integral_magnitude: ['max'],
      },
      mode: 'both',
    })
    const spread = await threaded(two, calc)
    expect(spread).toEqual(await threaded(one, calc))
    expect(spread.filter((frame) => frame.type === 'stats.calc.all_output_statistic')).toHaveLength(
      4,
    )
  })

  it('stops a canceled calculation on every thread and serves the next one', async () => {
    const controller = new AbortController()
    const frames: ResultsServerFrame[] = []
    const state = await two.run(
      request({ outputs: Array.from({ length: 2000 }, (_, i) => i % 12), mode: 'output_only' }),
      context,
      (frame) => {
        frames.push(frame)
        if (frames.length === 30) controller.abort()
        return Promise.resolve()
      },
      controller.signal,
    )
    expect(state).toBe('canceled')
    expect(frames.length).toBeLessThan(2000 * 7)
    expect(frames.at(-1)).toEqual({ type: 'stats.calc.done', requestId: 7, state: 'canceled' })
    const calc = request({ outputs: [0, 1, 2] })
    expect(await threaded(two, calc)).toEqual(await inline(calc))
  })
})
