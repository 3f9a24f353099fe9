/**
 * Discretization of a setup into particles (spec/setup.md §3 "Discretization", §4, §5 "Discretize
 * is blocked …", §8). Process states are the shared job states of jobs.ts.
 */
import * as v from 'valibot'
import { JOB_STATES, JOB_TEXTS, JobMessageSchema, type JobState } from './jobs.ts'
import { formatNumber, volumeToLiters } from './units.ts'
import { blocksRun, type Issue } from './validation.ts'

/** Process states of assemblies, tessellations, discretizations, sensor recomputations, exports. */
export const PROCESS_STATES = JOB_STATES
/** One process state. */
export type ProcessState = JobState

/** A discretization error or warning, tied to a part when it concerns one. */
export const DiscretizationMessageSchema = v.object({
  ...JobMessageSchema.entries,
  partId: v.optional(v.nullable(v.number())),
})
export type DiscretizationMessage = v.InferOutput<typeof DiscretizationMessageSchema>

/**
 * What a part became in a discretization: fluid particles, wall particles, an open boundary's
 * buffer particles, or nothing.
 */
export const DISCRETIZED_PART_ROLES = ['fluid', 'wall', 'open_boundary', 'none'] as const

/** One part of a discretization summary. */
export const DiscretizedPartSchema = v.object({
  partId: v.number(),
  name: v.string(),
  role: v.picklist(DISCRETIZED_PART_ROLES),
  particleCount: v.number(),
  /** particleCount × dp³, m³ (absent in summaries stored before it was reported). */
  particleVolume: v.optional(v.number()),
  /**
   * A fluid part's own volume below its fill height, m³; null for walls and for fluid whose
   * volume is not known (an open mesh, a fill around a seed point).
   */
  geometricVolume: v.optional(v.nullable(v.number())),
  /** (particleVolume − geometricVolume) / geometricVolume; null where geometricVolume is. */
  volumeDifference: v.optional(v.nullable(v.number())),
})
/** One part of a discretization summary. */
export type DiscretizedPart = v.InferOutput<typeof DiscretizedPartSchema>

/** Particle counts and fluid volumes of a finished discretization (solver/discretizer's summary). */
export const DiscretizationSummarySchema = v.object({
  particleCount: v.number(),
  fluidCount: v.number(),
  wallCount: v.number(),
  /** The open boundaries' buffer particles, in particleCount (absent before they were counted). */
  openBoundaryCount: v.optional(v.number()),
  /**
   * Refinement zones: `split` particles become `children` at the run's start, counted so in
   * particleCount (absent without refinement).
   */
  refinement: v.optional(v.object({ split: v.number(), children: v.number() })),
  parts: v.array(DiscretizedPartSchema),
  /** The fluid's particles × dp³ and the fluid parts' own volumes, m³. */
  fluidParticleVolume: v.optional(v.number()),
  fluidMeshVolume: v.optional(v.number()),
})
/** Particle counts of a finished discretization. */
export type DiscretizationSummary = v.InferOutput<typeof DiscretizationSummarySchema>

/**
 * The summary in a stored discretizer summary (which holds more: volumes, materials, timing), or
 * null when it has none or a broken one.
 */
export function readDiscretizationSummary(stored: unknown): DiscretizationSummary | null {
  const parsed = v.safeParse(DiscretizationSummarySchema, stored)
  return parsed.success ? parsed.output : null
}

/** A fluid part whose particle volume is further than this share off its own volume is flagged. */
export const FLUID_VOLUME_WARNING_RATIO = 0.01

/** A fluid volume as people write it: litres below one cubic metre ('38.4 L'), else '2.75 m³'. */
export function formatFluidVolume(cubicMetres: number): string {
  return cubicMetres < 1
    ? `${formatNumber(volumeToLiters(cubicMetres), 3)} L`
    : `${formatNumber(cubicMetres, 3)} m³`
}

/** A relative difference in percent with one decimal and its sign: −0.0412 → '−4.1 %'. */
export function formatVolumeDifference(ratio: number): string {
  const tenths = Math.round(ratio * 1000)
  const text = formatNumber(Math.abs(tenths) / 10, 4)
  return `${tenths < 0 ? '−' : tenths > 0 ? '+' : ''}${text} %`
}

/** GET /simulations/{id}/discretizations (the latest one). */
export const DiscretizationSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  state: v.picklist(JOB_STATES),
  /** 0 … 1. */
  progress: v.number(),
  errors: v.array(DiscretizationMessageSchema),
  warnings: v.array(DiscretizationMessageSchema),
  /** Particle counts, total and per part; null until the discretization is done. */
  summary: v.nullable(DiscretizationSummarySchema),
  createdAt: v.string(),
  updatedAt: v.string(),
})
/** A discretization record. */
export type Discretization = v.InferOutput<typeof DiscretizationSchema>

/** POST /simulations/{id}/discretizations takes no fields. */
export const DiscretizationCreateSchema = v.strictObject({})

/** Shown when Discretize is pressed while the setup has errors or unset (info) items. */
export const DISCRETIZATION_BLOCKED = {
  title: JOB_TEXTS.discretizationFailed,
  text: JOB_TEXTS.discretizationFailedTitle,
} as const

/** Discretizing is blocked by errors and by info-level (missing) items alike. */
export function canDiscretize(issues: readonly Issue[]): boolean {
  return !blocksRun(issues)
}

/** A toast for a finished discretization: failed (first error) or warnings, else none. */
export function discretizationToast(
  discretization: Pick<Discretization, 'state' | 'errors' | 'warnings'>,
): { level: 'error' | 'warning'; title: string; text: string } | null {
  if (discretization.state === 'failed')
    return {
      level: 'error',
      title: JOB_TEXTS.discretizationFailed,
      text: discretization.errors[0]?.description ?? '',
    }
  const warning = discretization.warnings[0]
  if ((discretization.state === 'done' || discretization.state === 'completed') && warning)
    return { level: 'warning', title: JOB_TEXTS.discretizationWarning, text: warning.description }
  return null
}
