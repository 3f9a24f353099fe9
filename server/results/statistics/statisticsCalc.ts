import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { aggregateOverOutputs } from '../../../domain/columnStatistics.ts'
import type { StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import { BufferPool } from './outputReader.ts'
import { OutputPipeline, type OutputResult } from './statisticsOutput.ts'
import {
  checkRequest,
  type CheckedRequest,
  type EmitFrame,
  type StatisticsContext,
} from './statisticsRequest.ts'

export { OUTPUT_OPERATIONS, type OutputOperation } from './statisticsRequest.ts'
export type { EmitFrame, StatisticsContext } from './statisticsRequest.ts'

/*
 * stats.calc: statistics streamed over outputs on the server. Of each output's object files (the
 * `full` bytes: the `raw` dataset of version 1) only the columns the request needs are read
 * (columnReader.ts: the attribute's, mass and density for an integral, x, y, z for masks), into
 * pooled buffers, viewed in place; the next output is read while this one is computed. Per output, every
 * operation is computed over the kept rows of the selected objects (restricted by volume clip
 * masks), then the temporal aggregators combine the outputs.
 *
 * The outputs are spread over computers (statisticsThread.ts: one per statistics worker thread, so
 * one request uses every core; inline: one), each asked for up to {@link OUTPUTS_AHEAD} outputs at
 * a time and given the next one as it answers; each output is computed whole by one computer, so
 * the values are those one thread gives, and they are sent in the requested order.
 *
 * Selection: `objIds` are session object ids (domain/resultsObjects.ts); none means every fluid
 * (or, with masks, the fluids the masks clip). A mask restricts the fluid it is aligned with to the
 * particles inside the clip; several masks over one fluid keep the union; objects no mask clips
 * keep all their rows.
 *
 * integral: the attribute integrated over the selected fluid volume, Σ fᵢ·mᵢ/ρᵢ (particle volume
 * mass ÷ density, m³), in the attribute's unit × m³ (the density integral is the mass in kg, the
 * pressure integral a force × length). Rows without a positive density or a finite mass, and
 * objects without mass and density columns (walls), are left out; no such row gives null.
 * `integral_magnitude` is the integral of the vector's magnitude (combined stress).
 */

/** Outputs one computer is asked for at once: one computed while the next is read. */
export const OUTPUTS_AHEAD = 2

/** Computes whole outputs of one calculation (statisticsOutput.ts); see the file comment. */
export interface OutputComputer {
  compute(outputNo: number): Promise<OutputResult>
}

/** The computers of one calculation and what ends them (called once the calculation ends). */
export interface OutputComputers {
  computers: readonly OutputComputer[]
  close(): void
}

/**
 * Runs one stats.calc request: a stats.calc.output_statistic per output and operation (in the
 * requested output order), a stats.calc.error with the output number for each output that cannot
 * be used, in mode 'both' a stats.calc.all_output_statistic per operation (its temporal
 * aggregator over the outputs' values), and stats.calc.done: canceled when the signal aborted
 * (checked between outputs and inside big ones), failed when the request is invalid or no output
 * could be used, else completed. A request that is invalid as a whole (unknown attribute or
 * operation) sends an `error` frame with the reason first. `open` gives the computers once the
 * request is checked.
 */
export async function streamStatistics(
  request: StatsCalcRequest,
  signal: AbortSignal,
  emit: EmitFrame,
  open: (checked: CheckedRequest) => OutputComputers,
): Promise<'completed' | 'failed' | 'canceled'> {
  const requestId = request.requestId
  const finish = async (state: 'completed' | 'failed' | 'canceled') => {
    await emit({ type: 'stats.calc.done', requestId, state })
    return state
  }
  const checked = checkRequest(request)
  if (typeof checked === 'string') {
    await emit({ type: 'error', requestId, message: checked })
    return finish('failed')
  }
  const series = new Map<string, { timeS: number; value: number | null }[]>(
    checked.operations.map((entry) => [entry.statistic, []]),
  )
  let succeeded = 0
  const outputs = request.outputs
  const opened = open(checked)
  const computers = opened.computers
  const results: Promise<OutputResult>[] = []
  const asked = computers.map(() => 0)
  // Hands the next outputs to computers with room, round robin, in the requested order.
  const dispatch = () => {
    for (let round = 0; round < OUTPUTS_AHEAD; round++)
      computers.forEach((computer, slot) => {
        if (signal.aborted || results.length >= outputs.length || asked[slot]! > round) return
        asked[slot]!++
        const result = computer.compute(outputs[results.length]!)
        results.push(result)
        result.then(
          () => {
            asked[slot]!--
            dispatch()
          },
          () => undefined,
        )
      })
  }
  try {
    dispatch()
    for (let index = 0; index < outputs.length; index++) {
      const result = await results[index]!
      if (signal.aborted) return await finish('canceled')
      if (result.values === null) {
        await emit({
          type: 'stats.calc.error',
          requestId,
          outputNo: result.outputNo,
          message: result.error ?? 'Output missing',
        })
      } else {
        succeeded++
        for (const entry of checked.operations) {
          const value = result.values[entry.statistic] ?? null
          series.get(entry.statistic)!.push({ timeS: result.timeS, value })
          await emit({
            type: 'stats.calc.output_statistic',
            requestId,
            outputNo: result.outputNo,
            statistic: entry.statistic,
            value,
          })
        }
      }
      // Let other sessions' frames through between outputs.
      await yieldToEventLoop()
      if (signal.aborted) return await finish('canceled')
    }
  } finally {
    opened.close()
  }
  if (outputs.length > 0 && succeeded === 0) return finish('failed')
  if (request.mode === 'both')
    for (const entry of checked.operations)
      await emit({
        type: 'stats.calc.all_output_statistic',
        requestId,
        statistic: entry.statistic,
        value: aggregateOverOutputs(series.get(entry.statistic)!, entry.aggregator),
      })
  return finish('completed')
}

/** {@link streamStatistics} on this thread: one computer, the context's pool. */
export function runStatisticsCalc(
  request: StatsCalcRequest,
  context: StatisticsContext,
  emit: EmitFrame,
): Promise<'completed' | 'failed' | 'canceled'> {
  const pool = context.pool ?? new BufferPool()
  return streamStatistics(request, context.signal, emit, (checked) => ({
    computers: [new OutputPipeline(request, checked, { ...context, pool })],
    close: () => undefined,
  }))
}
