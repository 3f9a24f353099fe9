import { join } from 'node:path'
import { ClipMaskError, computeClipMask } from '../../../domain/clipMask.ts'
import { summarizeFiniteValues, type ValueSummary } from '../../../domain/columnStatistics.ts'
import type { VolumeClip } from '../../../domain/meshes.ts'
import { objectFile } from '../../../domain/output/layout.ts'
import { COLOUR_MAP_STATUS } from '../../../domain/results.ts'
import { decodeObjectId } from '../../../domain/resultsObjects.ts'
import type { StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'
import { readOutputManifest } from '../outputFiles.ts'
import {
  findClipMask,
  findManifestObject,
  type ClipMaskTarget,
  type ManifestObjectInfo,
} from '../session/outputObjects.ts'
import { readObjectColumns } from './columnReader.ts'
import type { BufferPool } from './outputReader.ts'
import { gatherValues, Scratch, valueColumns, type ColumnSource } from './statisticsGather.ts'
import type { CheckedRequest, OutputOperation, StatisticsContext } from './statisticsRequest.ts'

/*
 * One output of a stats.calc request: its selected objects' needed columns read (columnReader.ts),
 * the volume clip masks computed, every operation computed over the kept rows. An
 * {@link OutputPipeline} computes the outputs asked of it one after the other, each output's read
 * starting as soon as it is asked so that it overlaps the computation of the one before.
 */

/** One output's statistics: each statistic's value, or the sentence why the output cannot be used. */
export interface OutputResult {
  outputNo: number
  /** The output's time (0 when it has no manifest). */
  timeS: number
  /** Statistic name → value (null: no value); null when `error` says why there is none. */
  values: Record<string, number | null> | null
  error: string | null
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

/** What a pipeline needs: the calculation's context with its buffer pool. */
export type PipelineContext = StatisticsContext & { pool: BufferPool }

/**
 * The outputs of one calculation asked of one thread: each read starts when it is asked, the
 * computations run one at a time in the order asked (they share one scratch buffer).
 */
export class OutputPipeline {
  readonly #request: StatsCalcRequest
  readonly #checked: CheckedRequest
  readonly #context: PipelineContext
  readonly #scratch = new Scratch()
  #computed: Promise<unknown> = Promise.resolve()

  constructor(request: StatsCalcRequest, checked: CheckedRequest, context: PipelineContext) {
    this.#request = request
    this.#checked = checked
    this.#context = context
  }

  /** The statistics of `outputNo`; rejects on an unexpected failure (not a missing output). */
  compute(outputNo: number): Promise<OutputResult> {
    const { signal, pool } = this.#context
    const loading = loadOutput(
      this.#request,
      this.#checked.columnNames,
      outputNo,
      this.#context,
      pool,
    )
    // Awaited below, maybe after it failed: it must not count as an unhandled rejection meanwhile.
    loading.catch(() => undefined)
    const result = this.#computed.then(async (): Promise<OutputResult> => {
      const loaded = await loading
      try {
        const timeS = loaded.manifest?.timeS ?? 0
        if (signal.aborted) return { outputNo, timeS, values: null, error: 'Canceled' }
        const computed = await computeOutput(
          loaded,
          this.#checked,
          this.#request,
          this.#context,
          this.#scratch,
        )
        return typeof computed === 'string'
          ? { outputNo, timeS, values: null, error: computed }
          : { outputNo, timeS, values: Object.fromEntries(computed), error: null }
      } finally {
        releaseOutput(loaded)
      }
    })
    // A failed output does not stop the ones asked after it; its own promise carries the failure.
    this.#computed = result.catch(() => undefined)
    return result
  }
}
