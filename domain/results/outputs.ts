/** Outputs of a run (spec/results.md §3): states, datasets, objects, masks and output times. */
import * as v from 'valibot'

/** Visualization and sensor states of one output. */
export const OUTPUT_STATES = ['pending', 'ready', 'failed'] as const
/** One output visualization or sensor state. */
export type OutputState = (typeof OUTPUT_STATES)[number]

/** States of the wall sensors of one output. */
export const WALL_SENSOR_STATES = ['unknown', 'pending', 'failed'] as const
/** One wall sensor state. */
export type WallSensorState = (typeof WALL_SENSOR_STATES)[number]

/** One output (time step) as listed by GET /simulations/{id}/outputs. */
export const OutputInfoSchema = v.object({
  outputNo: v.pipe(v.number(), v.integer(), v.minValue(0)),
  states: v.object({
    visualization: v.picklist(OUTPUT_STATES),
    sensor: v.picklist(OUTPUT_STATES),
  }),
  wallSensorState: v.picklist(WALL_SENSOR_STATES),
})
/** One output (time step). */
export type OutputInfo = v.InferOutput<typeof OutputInfoSchema>

/** True once every output's visualization is ready (the outputs poll slows to 600 s). */
export function allOutputsReady(outputs: readonly OutputInfo[]): boolean {
  return outputs.every((output) => output.states.visualization === 'ready')
}

/** Particle and triangle counts of one dataset of an output. */
export const DatasetStatsSchema = v.object({
  particleCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  triangleCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
})
/** Output dataset stats for the full and the fast dataset. */
export const OutputDatasetStatsSchema = v.object({
  full: DatasetStatsSchema,
  fast: DatasetStatsSchema,
})
/** Output dataset stats for the full and the fast dataset. */
export type OutputDatasetStats = v.InferOutput<typeof OutputDatasetStatsSchema>

/**
 * Datasets of an output: fast (reduced, spatially uniform subset), full, surface (reconstructed
 * fluid surface), raw (statistics input), static (geometry that does not move).
 */
export const DATASETS = ['fast', 'full', 'surface', 'raw', 'static'] as const
/** One output dataset. */
export type Dataset = (typeof DATASETS)[number]

/** Kinds of objects an output holds. */
export const OUTPUT_OBJECT_KINDS = [
  'fluid',
  'wall_boundary',
  'open_boundary',
  'material',
  'volume_clip',
  'sensor',
  'air_drag',
] as const
/** One output object kind. */
export type OutputObjectKind = (typeof OUTPUT_OBJECT_KINDS)[number]

/** One object of an output (a fluid material, a wall part, an open boundary, a volume clip …). */
export const OutputObjectSchema = v.object({
  id: v.number(),
  kind: v.picklist(OUTPUT_OBJECT_KINDS),
  name: v.string(),
  /** Materials only: index of the material in the setup and its reference. */
  materialIndex: v.optional(v.number()),
  material: v.optional(v.object({ id: v.number(), name: v.string() })),
  /** The manifest's object id (e.g. `fluid-1`): the render object and bundle entry it maps to. */
  objectKey: v.optional(v.string()),
})
/** One object of an output. */
export type OutputObject = v.InferOutput<typeof OutputObjectSchema>

/** A volume clip mask over one material. */
export const OutputMaskSchema = v.object({
  id: v.number(),
  materialId: v.number(),
  appearance: v.object({ visibility: v.boolean() }),
  /** The volume clip the mask belongs to (a clip for all materials has one mask per material). */
  volumeClipId: v.optional(v.number()),
  /** Object id (resultsObjects.ts) of the fluid the mask is aligned with. */
  objId: v.optional(v.number()),
})
/** A volume clip mask over one material. */
export type OutputMask = v.InferOutput<typeof OutputMaskSchema>

/** Loading states of volume clip masks. */
export const MASK_STATES = [
  'missing',
  'metadata loading',
  'masks loading',
  'empty',
  'valid',
  'incomplete setup',
] as const
/** One mask loading state. */
export type MaskState = (typeof MASK_STATES)[number]

/** Info line of a volume clip item in the explorer (loading shows a spinner, no text). */
export const VOLUME_CLIP_INFO = {
  missing: 'Results can not be loaded yet, please wait.',
  empty: 'Volume Clip is empty at current output. Check position and normal orientation.',
} as const

/** Physical time of an output: output number × output time interval (s). */
export function outputTime(outputNo: number, outputTimeIntervalS: number): number {
  return outputNo * outputTimeIntervalS
}

/** Output count used when none is set: endTime ÷ outputTimeInterval (rounded), else 200. */
export const FALLBACK_OUTPUT_COUNT = 200

/** The default output count of spec/results.md §5. */
export function defaultOutputCount(endTimeS: number | null, outputTimeIntervalS: number | null) {
  if (
    endTimeS !== null &&
    outputTimeIntervalS !== null &&
    Number.isFinite(endTimeS) &&
    Number.isFinite(outputTimeIntervalS) &&
    endTimeS > 0 &&
    outputTimeIntervalS > 0
  )
    return Math.round(endTimeS / outputTimeIntervalS)
  return FALLBACK_OUTPUT_COUNT
}
