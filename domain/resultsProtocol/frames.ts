/** The frames of the results-server session, client → server and server → client (see resultsProtocol.ts). */
import * as v from 'valibot'
import {
  DATASETS,
  OUTPUT_STATES,
  OutputDatasetStatsSchema,
  OutputInfoSchema,
  OutputMaskSchema,
  OutputObjectSchema,
} from '../results.ts'

/** Bumped on any incompatible change of the frames below. */
export const RESULTS_PROTOCOL_VERSION = 1

const requestId = v.pipe(v.number(), v.integer(), v.minValue(0))
const simId = v.pipe(v.number(), v.integer())
const outputNo = v.pipe(v.number(), v.integer(), v.minValue(0))
const outputs = v.array(outputNo)
const byteLength = v.pipe(v.number(), v.integer(), v.minValue(0))

// ── Client → server ─────────────────────────────────────────────────────────────────────────────

/** First frame of a session: protocol version and bearer token. */
export const HelloRequestSchema = v.object({
  type: v.literal('sys.hello'),
  requestId,
  protocolVersion: v.number(),
  accessToken: v.string(),
})
/** Which outputs exist, with their states. */
export const AvailableOutputsRequestSchema = v.object({
  type: v.literal('fetch.available_outputs'),
  requestId,
  simId,
})
/** Objects, masks and dataset stats of some outputs. */
export const InfoRequestSchema = v.object({
  type: v.literal('fetch.info'),
  requestId,
  simId,
  outputs,
})

/** One group of objects to load, with the columns and masks wanted. */
export const DataRequestItemSchema = v.object({
  objIds: v.array(v.number()),
  attributes: v.array(v.string()),
  /** Whether to send positions / mesh geometry too. */
  geometry: v.boolean(),
  dataset: v.picklist(DATASETS),
  /** Volume clip mask ids to apply. */
  masks: v.array(v.number()),
})
/** One group of objects to load. */
export type DataRequestItem = v.InferOutput<typeof DataRequestItemSchema>

/** Output data; with bundle true, one fetch.data.bundle per output. */
export const DataRequestSchema = v.object({
  type: v.literal('fetch.data'),
  requestId,
  simId,
  outputs,
  requests: v.array(DataRequestItemSchema),
  bundle: v.boolean(),
})
/** Output and sensor states that changed since the client last synced. */
export const SyncRequestSchema = v.object({
  type: v.literal('sys.sync'),
  requestId,
  simId,
})
/** Which attributes, sub-attributes and operations statistics support. */
export const StatsInfoRequestSchema = v.object({
  type: v.literal('stats.info'),
  requestId,
  simId,
})

/** stats.calc modes: per-output values and the aggregate over all outputs, or per output only. */
export const STATS_CALC_MODES = ['both', 'output_only'] as const

/** A statistics calculation over outputs; cancelable. */
export const StatsCalcRequestSchema = v.object({
  type: v.literal('stats.calc'),
  requestId,
  simId,
  outputs,
  attribute: v.string(),
  subAttribute: v.optional(v.nullable(v.string()), null),
  dataset: v.literal('raw'),
  objIds: v.array(v.number()),
  masks: v.array(v.number()),
  /** Operation over objects → its temporal aggregator, as a single-item list. */
  operations: v.record(v.string(), v.strictTuple([v.string()])),
  mode: v.picklist(STATS_CALC_MODES),
})
/** A statistics calculation request. */
export type StatsCalcRequest = v.InferOutput<typeof StatsCalcRequestSchema>

/**
 * Keeps the session alive and proves the server is there: every 10 s while the session is healthy,
 * every 0.5 s once an answer is overdue. The server answers sys.heartbeat.resp.
 */
export const HeartbeatRequestSchema = v.object({
  type: v.literal('sys.heartbeat'),
  requestId,
})

/** Cancels a running request (fetch.data or stats.calc). */
export const CancelRequestSchema = v.object({
  type: v.literal('cancel'),
  requestId,
  targetRequestId: requestId,
})

/** Every client → server frame. */
export const ResultsClientFrameSchema = v.variant('type', [
  HelloRequestSchema,
  AvailableOutputsRequestSchema,
  InfoRequestSchema,
  DataRequestSchema,
  SyncRequestSchema,
  StatsInfoRequestSchema,
  StatsCalcRequestSchema,
  CancelRequestSchema,
  HeartbeatRequestSchema,
])
/** Every client → server frame. */
export type ResultsClientFrame = v.InferOutput<typeof ResultsClientFrameSchema>

// ── Server → client ─────────────────────────────────────────────────────────────────────────────

/** The session is open. */
export const HelloResponseSchema = v.object({
  type: v.literal('sys.hello.resp'),
  requestId,
  protocolVersion: v.number(),
})
/** The outputs of the simulation. */
export const AvailableOutputsResponseSchema = v.object({
  type: v.literal('fetch.available_outputs.resp'),
  requestId,
  outputs: v.array(OutputInfoSchema),
})
/** What one output holds. */
export const InfoResponseSchema = v.object({
  type: v.literal('fetch.info.resp'),
  requestId,
  outputNo,
  /** Physical time of the output, s. */
  timeS: v.number(),
  objects: v.array(OutputObjectSchema),
  masks: v.array(OutputMaskSchema),
  stats: OutputDatasetStatsSchema,
})
/** A requested output does not exist (yet). */
export const InfoMissingOutputSchema = v.object({
  type: v.literal('fetch.info.missing_output'),
  requestId,
  outputNo,
})

/** All requested objects of one output (Arrow streams, see docs/ output format); binary. */
export const DataBundleSchema = v.object({
  type: v.literal('fetch.data.bundle'),
  requestId,
  outputNo,
  dataset: v.picklist(DATASETS),
  objIds: v.array(v.number()),
  byteLength,
})
/** One attribute column of one object; binary. */
export const DataAttributeSchema = v.object({
  type: v.literal('fetch.data.attribute'),
  requestId,
  outputNo,
  objId: v.number(),
  attribute: v.string(),
  dataset: v.picklist(DATASETS),
  byteLength,
})
/** Positions or mesh of one object; binary. */
export const DataGeometrySchema = v.object({
  type: v.literal('fetch.data.geometry'),
  requestId,
  outputNo,
  objId: v.number(),
  dataset: v.picklist(DATASETS),
  byteLength,
})
/** A moving part's placement at this output: a column-major 4 × 4 matrix. */
export const DataTransformSchema = v.object({
  type: v.literal('fetch.data.transform'),
  requestId,
  outputNo,
  objId: v.number(),
  matrix: v.pipe(v.array(v.number()), v.length(16)),
})
/** A volume clip mask (one byte per particle); binary. */
export const DataMaskSchema = v.object({
  type: v.literal('fetch.data.mask'),
  requestId,
  outputNo,
  maskId: v.number(),
  objId: v.number(),
  /** Particles inside the clip (0: the clip is empty at this output). */
  insideCount: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  byteLength,
})
/** Small extra values of an output (e.g. air drag totals). */
export const DataMiscSchema = v.object({
  type: v.literal('fetch.data.misc'),
  requestId,
  outputNo,
  objId: v.nullable(v.number()),
  key: v.string(),
  value: v.unknown(),
})
/** Missing pieces of fetch.data (only logged by the client). */
export const DataMissingOutputSchema = v.object({
  type: v.literal('fetch.data.missing_output'),
  requestId,
  outputNo,
})
/** A requested object is not in the output. */
export const DataMissingObjectSchema = v.object({
  type: v.literal('fetch.data.missing_object'),
  requestId,
  outputNo,
  objId: v.number(),
})
/** A requested attribute is not in the output. */
export const DataMissingAttributeSchema = v.object({
  type: v.literal('fetch.data.missing_attribute'),
  requestId,
  outputNo,
  objId: v.number(),
  attribute: v.string(),
})
/** A requested mask is not in the output. */
export const DataMissingMaskSchema = v.object({
  type: v.literal('fetch.data.missing_mask'),
  requestId,
  outputNo,
  maskId: v.number(),
})
/** A mask could not be applied (only logged by the client). */
export const DataMaskingErrorSchema = v.object({
  type: v.literal('fetch.data.masking_error'),
  requestId,
  outputNo,
  maskId: v.number(),
  message: v.string(),
})
/** Every frame of a fetch.data request was sent. */
export const DataDoneSchema = v.object({ type: v.literal('fetch.data.done'), requestId })

/** Output and sensor state changes. */
export const SyncResponseSchema = v.object({
  type: v.literal('sys.sync.resp'),
  requestId,
  vizUpdates: v.array(v.object({ outputNo, state: v.picklist(OUTPUT_STATES) })),
  sensorUpdates: v.array(v.object({ outputNo, state: v.picklist(OUTPUT_STATES) })),
})
/** Attributes statistics can be computed for. */
export const StatsInfoResponseSchema = v.object({
  type: v.literal('stats.info.resp'),
  requestId,
  attributes: v.array(
    v.object({
      attribute: v.string(),
      subAttributes: v.array(v.string()),
      operations: v.array(v.string()),
    }),
  ),
})
/** One statistic of one output (value null: no data). */
export const StatsOutputStatisticSchema = v.object({
  type: v.literal('stats.calc.output_statistic'),
  requestId,
  outputNo,
  statistic: v.string(),
  value: v.nullable(v.number()),
})
/** One statistic aggregated over all outputs (mode 'both'). */
export const StatsAllOutputStatisticSchema = v.object({
  type: v.literal('stats.calc.all_output_statistic'),
  requestId,
  statistic: v.string(),
  value: v.nullable(v.number()),
})
/** An output could not be used (missing data): the client lists these outputs. */
export const StatsErrorSchema = v.object({
  type: v.literal('stats.calc.error'),
  requestId,
  outputNo,
  message: v.string(),
})
/** The calculation ended. */
export const StatsDoneSchema = v.object({
  type: v.literal('stats.calc.done'),
  requestId,
  state: v.picklist(['completed', 'failed', 'canceled']),
})
/** Answer to cancel: whether the target was still running. */
export const CancelResponseSchema = v.object({
  type: v.literal('cancel.resp'),
  requestId,
  targetRequestId: requestId,
  canceled: v.boolean(),
})
/** Answer to sys.heartbeat. */
export const HeartbeatResponseSchema = v.object({
  type: v.literal('sys.heartbeat.resp'),
  requestId,
})
/** A request failed as a whole (bad frame, no access, unknown simulation). */
export const ErrorResponseSchema = v.object({
  type: v.literal('error'),
  requestId: v.nullable(requestId),
  message: v.string(),
})

/** Every server → client frame. */
export const ResultsServerFrameSchema = v.variant('type', [
  HelloResponseSchema,
  AvailableOutputsResponseSchema,
  InfoResponseSchema,
  InfoMissingOutputSchema,
  DataBundleSchema,
  DataAttributeSchema,
  DataGeometrySchema,
  DataTransformSchema,
  DataMaskSchema,
  DataMiscSchema,
  DataMissingOutputSchema,
  DataMissingObjectSchema,
  DataMissingAttributeSchema,
  DataMissingMaskSchema,
  DataMaskingErrorSchema,
  DataDoneSchema,
  SyncResponseSchema,
  StatsInfoResponseSchema,
  StatsOutputStatisticSchema,
  StatsAllOutputStatisticSchema,
  StatsErrorSchema,
  StatsDoneSchema,
  CancelResponseSchema,
  ErrorResponseSchema,
  HeartbeatResponseSchema,
])
/** Every server → client frame. */
export type ResultsServerFrame = v.InferOutput<typeof ResultsServerFrameSchema>

/** Server frames that come with a binary payload. */
export const BINARY_FRAME_TYPES = [
  'fetch.data.bundle',
  'fetch.data.attribute',
  'fetch.data.geometry',
  'fetch.data.mask',
] as const
/** A server frame with a binary payload. */
export type BinaryServerFrame = Extract<
  ResultsServerFrame,
  { type: (typeof BINARY_FRAME_TYPES)[number] }
>

/** fetch.data frames the client only logs. */
export const LOGGED_ONLY_FRAME_TYPES = [
  'fetch.data.missing_output',
  'fetch.data.missing_object',
  'fetch.data.missing_attribute',
  'fetch.data.missing_mask',
  'fetch.data.masking_error',
] as const
