import { isTemporalAggregator, type TemporalAggregator } from '../../../domain/columnStatistics.ts'
import type { VolumeClip } from '../../../domain/meshes.ts'
import { ATTRIBUTE_COLUMNS, POSITION_COLUMNS } from '../../../domain/outputFormat.ts'
import {
  ATTRIBUTES,
  isAttributeName,
  STATISTICS_OPERATIONS,
  unknownAttributeMessage,
  VECTOR_SUB_OPTIONS,
  type AttributeName,
} from '../../../domain/results.ts'
import type { ResultsServerFrame, StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import type { BufferPool } from './outputReader.ts'

/*
 * A stats.calc request checked once (known attribute, sub-attribute and operations, the particle
 * columns it reads), and what a calculation needs beyond the request.
 */

/** Per-output operations the server computes (STATISTICS_OPERATIONS plus the integrals). */
export const OUTPUT_OPERATIONS = [
  ...STATISTICS_OPERATIONS,
  'integral',
  'integral_magnitude',
] as const
/** One per-output operation. */
export type OutputOperation = (typeof OUTPUT_OPERATIONS)[number]

/** A sensor's samples of one output (server/sensors/store.ts). */
export type ReadSensorSamples = (
  dataDir: string,
  simulationId: number,
  runId: number,
  sensorId: number,
  outputNo: number,
) => Promise<{ count: number; columns: Record<string, Float32Array> } | null>

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
  /** Without it sensors have no data. */
  readSensorSamples?: ReadSensorSamples
}

/** Sends one frame; resolves once the socket took it (backpressure). */
export type EmitFrame = (frame: ResultsServerFrame) => Promise<void>

/** A request checked once: known attribute and operations; errors end it before any output. */
export interface CheckedRequest {
  attribute: AttributeName
  subAttribute: string | null
  operations: { statistic: string; operation: OutputOperation; aggregator: TemporalAggregator }[]
  /** The particle columns the request reads. */
  columnNames: string[]
}

/** The request checked, or the sentence that refuses it. */
export function checkRequest(request: StatsCalcRequest): CheckedRequest | string {
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
