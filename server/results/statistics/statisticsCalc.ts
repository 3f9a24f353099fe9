import { join } from 'node:path'
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { ClipMaskError, computeClipMask } from '../../../domain/clipMask.ts'
import {
  aggregateOverOutputs,
  HIGH_HISTOGRAM_BINS,
  isTemporalAggregator,
  summarizeFiniteValues,
  type TemporalAggregator,
  type ValueSummary,
  type ValueTotals,
} from '../../../domain/columnStatistics.ts'
import type { VolumeClip } from '../../../domain/meshes.ts'
import { decodeObjectId } from '../../../domain/resultsObjects.ts'
import { objectFile } from '../../../domain/output/layout.ts'
import { ATTRIBUTE_COLUMNS, POSITION_COLUMNS } from '../../../domain/outputFormat.ts'
import {
  ATTRIBUTES,
  COLOUR_MAP_STATUS,
  isAttributeName,
  STATISTICS_OPERATIONS,
  unknownAttributeMessage,
  VECTOR_SUB_OPTIONS,
  type AttributeName,
} from '../../../domain/results.ts'
import type { ResultsServerFrame, StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'
import { readOutputManifest } from '../outputFiles.ts'
import {
  findClipMask,
  findManifestObject,
  type ClipMaskTarget,
  type ManifestObjectInfo,
} from '../session/outputObjects.ts'
import { readObjectColumns } from './columnReader.ts'
import { BufferPool } from './outputReader.ts'

/*
 * stats.calc: statistics streamed over outputs on the server. Of each output's object files (the
 * `full` bytes: the `raw` dataset of version 1) only the columns the request needs are read
 * (columnReader.ts: the attribute's, mass and density for an integral, x, y, z for masks), into
 * pooled buffers, viewed in place; the next output is read while this one is computed. Per output, every
 * operation is computed over the kept rows of the selected objects (restricted by volume clip
 * masks), then the temporal aggregators combine the outputs.
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

/** Per-output operations the server computes (STATISTICS_OPERATIONS plus the integrals). */
export const OUTPUT_OPERATIONS = [
  ...STATISTICS_OPERATIONS,
  'integral',
  'integral_magnitude',
] as const
/** One per-output operation. */
export type OutputOperation = (typeof OUTPUT_OPERATIONS)[number]

/** Rows gathered between two yields to the event loop inside one big output. */
const ROWS_PER_SLICE = 4_000_000

/** What a calculation needs beyond the request. */
export interface StatisticsContext {
  dataDir: string
  simulationId: number
  /** The run whose outputs are read; null: the simulation has no run, every output is missing. */
  runId: number | null
  clips: readonly VolumeClip[]
  signal: AbortSignal
  /** Reused between calculations of one session. */
  pool?: BufferPool
  /** A sensor's samples of one output (server/sensors/store.ts); without it sensors have no data. */
  readSensorSamples?: (
    dataDir: string,
    simulationId: number,
    runId: number,
    sensorId: number,
    outputNo: number,
  ) => Promise<{ count: number; columns: Record<string, Float32Array> } | null>
}

/** Sends one frame; resolves once the socket took it (backpressure). */
export type EmitFrame = (frame: ResultsServerFrame) => Promise<void>

interface ValueColumns {
  columns: Float32Array[]
  magnitude: boolean
}

/** Rows and Float32 columns: an object's particles or a sensor's samples. */
interface ColumnSource {
  rowCount: number
  columns: Record<string, Float32Array | undefined>
}

interface LoadedObject {
  /** The manifest object id, or `sensor-{id}`. */
  key: string
  view: ColumnSource
  /** Sensor samples are not particles: no volume, so no integral. */
  integrable: boolean
  /** Gives the object's pooled buffer back; null for sensor samples. */
  file: { release(): void } | null
}

interface LoadedOutput {
  outputNo: number
  manifest: OutputManifestInfo | null
  objects: LoadedObject[]
  error: string | null
}

/** A request checked once: known attribute and operations; errors end it before any output. */
interface CheckedRequest {
  attribute: AttributeName
  subAttribute: string | null
  operations: { statistic: string; operation: OutputOperation; aggregator: TemporalAggregator }[]
  /** The particle columns the request reads. */
  columnNames: string[]
}

function checkRequest(request: StatsCalcRequest): CheckedRequest | string {
  if (!isAttributeName(request.attribute)) return unknownAttributeMessage(request.attribute)
  const attribute = request.attribute
  const def = ATTRIBUTES[attribute]
  let subAttribute = request.subAttribute ?? null
  if (def.kind === 'vector') {
    subAttribute ??= 'magnitude'
    if (!(VECTOR_SUB_OPTIONS as readonly string[]).includes(subAttribute))
      return `${subAttribute} is not a sub-attribute of ${attribute} (use ${VECTOR_SUB_OPTIONS.join(', ')})`
  }
  const operations: CheckedRequest['operations'] = []
  for (const [statistic, [aggregator]] of Object.entries(request.operations)) {
    if (!(OUTPUT_OPERATIONS as readonly string[]).includes(statistic))
      return `${statistic} is not a statistics operation (use ${OUTPUT_OPERATIONS.join(', ')})`
    if (!isTemporalAggregator(aggregator))
      return `${aggregator} is not a temporal aggregator of ${statistic}`
    if (statistic === 'integral_magnitude' && def.kind !== 'vector')
      return `integral_magnitude needs a vector attribute, not ${attribute}`
    operations.push({ statistic, operation: statistic as OutputOperation, aggregator })
  }
  if (operations.length === 0) return 'Ask for at least one operation'
  const columnNames: string[] = [...ATTRIBUTE_COLUMNS[attribute]]
  if (operations.some((entry) => entry.operation.startsWith('integral')))
    columnNames.push('mass', 'density')
  if (request.masks.length > 0) columnNames.push(...POSITION_COLUMNS)
  return { attribute, subAttribute, operations, columnNames: [...new Set(columnNames)] }
}

/** The Float32 columns an object offers for the attribute and sub-attribute; null: it has none. */
function valueColumns(
  view: ColumnSource,
  attribute: AttributeName,
  subAttribute: string | null,
  forceMagnitude: boolean,
): ValueColumns | null {
  const names: readonly string[] = ATTRIBUTE_COLUMNS[attribute]
  const columns = names.map((name) => view.columns[name])
  if (columns.some((column) => column === undefined)) return null
  const present = columns as Float32Array[]
  if (names.length === 1) return { columns: present, magnitude: false }
  if (forceMagnitude || subAttribute === 'magnitude') return { columns: present, magnitude: true }
  const index = ['x', 'y', 'z'].indexOf(subAttribute ?? '')
  return index < 0 ? null : { columns: [present[index]!], magnitude: false }
}

/** Kept finite values of the selection, their totals and the integral's sum. */
interface Gathered {
  values: Float32Array
  totals: ValueTotals
  integral: number | null
}

class Scratch {
  values = new Float32Array(0)
  /** High-bits histogram of the gathered values, counted while gathering (saves a pass). */
  readonly highBits = new Uint32Array(HIGH_HISTOGRAM_BINS)
  masks = new Uint8Array(0)

  valuesFor(count: number): Float32Array {
    if (this.values.length < count) this.values = new Float32Array(Math.ceil(count * 1.125))
    return this.values
  }

  masksFor(count: number): Uint8Array {
    if (this.masks.length < count) this.masks = new Uint8Array(Math.ceil(count * 1.125))
    return this.masks
  }
}

/**
 * The common case of {@link gatherValues} (one scalar column, no mask, no integral) as a loop with
 * nothing else in it: V8 keeps it monomorphic and branch-light, about twice as fast per row.
 */
function gatherPlainSlice(
  column: Float32Array,
  start: number,
  end: number,
  out: Float32Array,
  outBits: Int32Array,
  histogram: Uint32Array,
  countBefore: number,
): { count: number; sum: number; min: number; max: number } {
  let count = countBefore
  let sum = 0
  let min = Infinity
  let max = -Infinity
  for (let i = start; i < end; i++) {
    const v = column[i]!
    if (v - v !== 0) continue
    out[count] = v
    const bits = outBits[count]!
    histogram[(bits ^ ((bits >> 31) | 0x80000000)) >>> 16]!++
    count++
    sum += v
    if (v < min) min = v
    if (v > max) max = v
  }
  return { count, sum, min, max }
}

async function gatherValues(
  objects: {
    view: ColumnSource
    columns: ValueColumns
    mask: Uint8Array | null
    integrable: boolean
  }[],
  wantIntegral: boolean,
  scratch: Scratch,
  signal: AbortSignal,
): Promise<Gathered> {
  const total = objects.reduce((sum, entry) => sum + entry.view.rowCount, 0)
  const out = scratch.valuesFor(total)
  const outBits = new Int32Array(out.buffer, out.byteOffset, out.length)
  const histogram = scratch.highBits
  histogram.fill(0)
  let count = 0
  let sum = 0
  let min = Infinity
  let max = -Infinity
  let integral = 0
  let integralRows = 0
  for (const { view, columns, mask, integrable } of objects) {
    const n = view.rowCount
    const [a, b, c] = columns.columns
    const magnitude = columns.magnitude
    const mass = wantIntegral && integrable ? view.columns.mass : undefined
    const density = wantIntegral && integrable ? view.columns.density : undefined
    const plain = mask === null && !magnitude && (mass === undefined || density === undefined)
    for (let start = 0; start < n; start += ROWS_PER_SLICE) {
      const end = Math.min(n, start + ROWS_PER_SLICE)
      if (plain) {
        const slice = gatherPlainSlice(a!, start, end, out, outBits, histogram, count)
        count = slice.count
        sum += slice.sum
        if (slice.min < min) min = slice.min
        if (slice.max > max) max = slice.max
      } else
        for (let i = start; i < end; i++) {
          if (mask !== null && mask[i] === 0) continue
          let v: number
          if (magnitude) {
            const x = a![i]!
            const y = b![i]!
            const z = c![i]!
            v = Math.sqrt(x * x + y * y + z * z)
          } else v = a![i]!
          if (v - v !== 0) continue
          out[count] = v
          const bits = outBits[count]!
          histogram[(bits ^ ((bits >> 31) | 0x80000000)) >>> 16]!++
          count++
          sum += v
          if (v < min) min = v
          if (v > max) max = v
          if (mass !== undefined && density !== undefined) {
            const m = mass[i]!
            const rho = density[i]!
            if (rho > 0 && m - m === 0) {
              integral += (v * m) / rho
              integralRows++
            }
          }
        }
      if (end < n) {
        await yieldToEventLoop()
        if (signal.aborted)
          return { values: out.subarray(0, 0), totals: { sum, min, max }, integral: null }
      }
    }
  }
  return {
    values: out.subarray(0, count),
    totals: { sum, min, max },
    integral: integralRows > 0 ? integral : null,
  }
}

function pickStatistic(
  summary: ValueSummary | null,
  operation: OutputOperation,
  integral: number | null,
  integralMagnitude: number | null,
): number | null {
  if (operation === 'integral') return integral
  if (operation === 'integral_magnitude') return integralMagnitude
  if (summary === null) return null
  switch (operation) {
    case 'mean':
      return summary.mean
    case 'min':
      return summary.min
    case 'max':
      return summary.max
    case '5th_percentile':
      return summary.percentile5
    case 'median':
      return summary.median
    case '95th_percentile':
      return summary.percentile95
  }
}

/** Which objects of an output the request selects, and the masks over them. */
function selectObjects(
  manifest: OutputManifestInfo,
  request: StatsCalcRequest,
  clips: readonly VolumeClip[],
): { objects: ManifestObjectInfo[]; sensorIds: number[]; masks: ClipMaskTarget[] } | string {
  const masks: ClipMaskTarget[] = []
  for (const maskId of request.masks) {
    const mask = findClipMask(manifest, clips, maskId)
    if (!mask) return `Output ${manifest.outputNo} has no mask ${maskId}.`
    masks.push(mask)
  }
  let objects: ManifestObjectInfo[]
  const sensorIds: number[] = []
  if (request.objIds.length > 0) {
    objects = []
    for (const objId of request.objIds) {
      const decoded = decodeObjectId(objId)
      if (decoded?.kind === 'sensor') {
        sensorIds.push(decoded.sourceId)
        continue
      }
      const object = findManifestObject(manifest, objId)
      if (!object || object.kind === 'volume_clip')
        return `Output ${manifest.outputNo} has no object ${objId}.`
      objects.push(object)
    }
  } else if (masks.length > 0) objects = [...new Set(masks.map((mask) => mask.fluid))]
  else objects = manifest.objects.filter((object) => object.kind === 'fluid')
  return { objects, sensorIds, masks }
}

async function loadOutput(
  request: StatsCalcRequest,
  columnNames: readonly string[],
  outputNo: number,
  context: StatisticsContext,
  pool: BufferPool,
): Promise<LoadedOutput> {
  const loaded: LoadedOutput = { outputNo, manifest: null, objects: [], error: null }
  const manifest =
    context.runId === null
      ? null
      : await readOutputManifest(context.dataDir, context.simulationId, context.runId, outputNo)
  if (!manifest) {
    loaded.error = `Output ${outputNo} does not exist.`
    return loaded
  }
  loaded.manifest = manifest
  const selection = selectObjects(manifest, request, context.clips)
  if (typeof selection === 'string') {
    loaded.error = selection
    return loaded
  }
  try {
    for (const object of selection.objects) {
      const path = join(
        context.dataDir,
        objectFile(context.simulationId, manifest.runId, outputNo, object.objectId, 'full'),
      )
      const read = await readObjectColumns(path, columnNames, pool)
      loaded.objects.push({
        key: object.objectId,
        file: read,
        view: { rowCount: read.rowCount, columns: read.columns },
        integrable: true,
      })
    }
    for (const sensorId of selection.sensorIds) {
      const samples =
        (await context.readSensorSamples?.(
          context.dataDir,
          context.simulationId,
          manifest.runId,
          sensorId,
          outputNo,
        )) ?? null
      if (!samples) {
        releaseOutput(loaded)
        loaded.error = `Sensor ${sensorId} has no data for output ${outputNo}.`
        return loaded
      }
      loaded.objects.push({
        key: `sensor-${sensorId}`,
        file: null,
        view: { rowCount: samples.count, columns: samples.columns },
        integrable: false,
      })
    }
  } catch (error) {
    releaseOutput(loaded)
    loaded.error = `Output ${outputNo} could not be read: ${error instanceof Error ? error.message : String(error)}`
  }
  return loaded
}

function releaseOutput(loaded: LoadedOutput): void {
  for (const entry of loaded.objects) entry.file?.release()
  loaded.objects = []
}

/** The per-output values of every operation, or an error sentence for this output. */
async function computeOutput(
  loaded: LoadedOutput,
  checked: CheckedRequest,
  request: StatsCalcRequest,
  context: StatisticsContext,
  scratch: Scratch,
): Promise<Map<string, number | null> | string> {
  const manifest = loaded.manifest
  if (loaded.error !== null || !manifest) return loaded.error ?? 'Output missing'
  const selection = selectObjects(manifest, request, context.clips)
  if (typeof selection === 'string') return selection
  // Masks over each fluid, combined (union) into one byte per row.
  const masksByObject = new Map<string, Uint8Array>()
  let maskBytes = 0
  for (const entry of loaded.objects)
    if (selection.masks.some((mask) => mask.fluid.objectId === entry.key))
      maskBytes += entry.view.rowCount
  const maskScratch = scratch.masksFor(maskBytes)
  let maskOffset = 0
  for (const entry of loaded.objects) {
    const masks = selection.masks.filter((mask) => mask.fluid.objectId === entry.key)
    if (masks.length === 0) continue
    const { x, y, z } = entry.view.columns
    const n = entry.view.rowCount
    const union = maskScratch.subarray(maskOffset, maskOffset + n)
    maskOffset += n
    try {
      const [first, ...others] = masks
      computeClipMask(first!.clip.mesh, first!.clip.inverted, x!, y!, z!, union)
      const one = others.length > 0 ? new Uint8Array(n) : union
      for (const mask of others) {
        computeClipMask(mask.clip.mesh, mask.clip.inverted, x!, y!, z!, one)
        for (let i = 0; i < n; i++) union[i]! |= one[i]!
      }
    } catch (error) {
      if (error instanceof ClipMaskError) return error.message
      throw error
    }
    masksByObject.set(entry.key, union)
  }
  const wantIntegral = checked.operations.some((entry) => entry.operation === 'integral')
  const wantIntegralMagnitude = checked.operations.some(
    (entry) => entry.operation === 'integral_magnitude',
  )
  const wantSummary = checked.operations.some(
    (entry) => entry.operation !== 'integral' && entry.operation !== 'integral_magnitude',
  )
  const collect = (forceMagnitude: boolean) =>
    loaded.objects.flatMap((entry) => {
      const columns = valueColumns(
        entry.view,
        checked.attribute,
        checked.subAttribute,
        forceMagnitude,
      )
      return columns
        ? [
            {
              view: entry.view,
              columns,
              mask: masksByObject.get(entry.key) ?? null,
              integrable: entry.integrable,
            },
          ]
        : []
    })
  const sources = collect(false)
  if (sources.length === 0) return COLOUR_MAP_STATUS.notAvailable(checked.attribute)
  const results = new Map<string, number | null>()
  let summary: ValueSummary | null = null
  let integral: number | null = null
  if (wantSummary || wantIntegral) {
    const gathered = await gatherValues(sources, wantIntegral, scratch, context.signal)
    integral = gathered.integral
    if (wantSummary)
      summary = summarizeFiniteValues(gathered.values, gathered.totals, scratch.highBits)
  }
  let integralMagnitude: number | null = null
  if (wantIntegralMagnitude)
    integralMagnitude = (await gatherValues(collect(true), true, scratch, context.signal)).integral
  for (const entry of checked.operations)
    results.set(
      entry.statistic,
      pickStatistic(summary, entry.operation, integral, integralMagnitude),
    )
  return results
}

/**
 * Runs one stats.calc request: a stats.calc.output_statistic per output and operation (in the
 * requested output order), a stats.calc.error with the output number for each output that cannot
 * be used, in mode 'both' a stats.calc.all_output_statistic per operation (its temporal
 * aggregator over the outputs' values), and stats.calc.done: canceled when the signal aborted
 * (checked between outputs and inside big ones), failed when the request is invalid or no output
 * could be used, else completed. A request that is invalid as a whole (unknown attribute or
 * operation) sends an `error` frame with the reason first.
 */
export async function runStatisticsCalc(
  request: StatsCalcRequest,
  context: StatisticsContext,
  emit: EmitFrame,
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
  const pool = context.pool ?? new BufferPool()
  const scratch = new Scratch()
  const series = new Map<string, { timeS: number; value: number | null }[]>(
    checked.operations.map((entry) => [entry.statistic, []]),
  )
  let succeeded = 0
  const outputs = request.outputs
  let next: Promise<LoadedOutput> | null =
    outputs.length > 0 ? loadOutput(request, checked.columnNames, outputs[0]!, context, pool) : null
  try {
    for (let index = 0; index < outputs.length; index++) {
      const loaded: LoadedOutput = await next!
      next = null
      if (context.signal.aborted) {
        releaseOutput(loaded)
        return await finish('canceled')
      }
      // Read the next output while this one is computed.
      if (index + 1 < outputs.length)
        next = loadOutput(request, checked.columnNames, outputs[index + 1]!, context, pool)
      let result: Map<string, number | null> | string
      try {
        result = await computeOutput(loaded, checked, request, context, scratch)
      } finally {
        releaseOutput(loaded)
      }
      if (context.signal.aborted) return await finish('canceled')
      if (typeof result === 'string') {
        await emit({
          type: 'stats.calc.error',
          requestId,
          outputNo: loaded.outputNo,
          message: result,
        })
      } else {
        succeeded++
        const timeS = loaded.manifest?.timeS ?? 0
        for (const entry of checked.operations) {
          const value = result.get(entry.statistic) ?? null
          series.get(entry.statistic)!.push({ timeS, value })
          await emit({
            type: 'stats.calc.output_statistic',
            requestId,
            outputNo: loaded.outputNo,
            statistic: entry.statistic,
            value,
          })
        }
      }
      // Let other sessions' frames through between outputs.
      await yieldToEventLoop()
      if (context.signal.aborted) return await finish('canceled')
    }
  } finally {
    if (next) void next.then(releaseOutput, () => undefined)
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
