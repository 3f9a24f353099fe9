/**
 * Alerts and stop conditions (spec/results.md §3 "Condition", §5 "Stop conditions"; limit-type
 * conversions of §9). A condition watches one value of the running simulation and stops the run
 * or warns once the value reaches the threshold.
 *
 * Units: a threshold is stored as the solver logs it: time in ms, runtime in minutes, credits,
 * particle count. People enter limits in s, days, credits and particles; LIMIT_CONVERSIONS maps
 * one to the other.
 */
import * as v from 'valibot'
import { idSchema } from './ids.ts'
import { LIMIT_CONVERSIONS } from './constants.ts'
import type { SimulationState } from './simulationState.ts'
import { checkNumber, issue, type Issue } from './validation.ts'

/** What a condition watches. */
export const CONDITION_VALUE_TYPES = ['time', 'runtime', 'credits', 'particle_nbr'] as const
/** One watched value. */
export type ConditionValueType = (typeof CONDITION_VALUE_TYPES)[number]

/** What a condition does when it triggers. */
export const CONDITION_ACTIONS = ['stop', 'warning'] as const
/** One condition action. */
export type ConditionAction = (typeof CONDITION_ACTIONS)[number]

/** Comparison of the watched value with the threshold (every rule requires a threshold above now). */
export const CONDITION_OPERATORS = ['>=', '>'] as const
/** One condition operator. */
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number]

/** Labels of the value types in the Alerts step. */
export const CONDITION_VALUE_TYPE_LABELS: Record<ConditionValueType, string> = {
  time: 'Physical time',
  runtime: 'Runtime',
  credits: 'Credits',
  particle_nbr: 'Particle count',
}

/** The unit a person enters a limit in, per value type. */
export const LIMIT_UNITS: Record<ConditionValueType, string> = {
  time: 's',
  runtime: 'days',
  credits: 'credits',
  particle_nbr: 'particles',
}

/** The unit a threshold is stored in, per value type. */
export const THRESHOLD_UNITS: Record<ConditionValueType, string> = {
  time: 'ms',
  runtime: 'min',
  credits: 'credits',
  particle_nbr: 'particles',
}

/** A limit as entered (s, days, credits, particles) as a stored threshold. */
export function limitToThreshold(valueType: ConditionValueType, limit: number): number {
  return limit * LIMIT_CONVERSIONS[valueType]
}

/** A stored threshold as the limit a person reads. */
export function thresholdToLimit(valueType: ConditionValueType, threshold: number): number {
  return threshold / LIMIT_CONVERSIONS[valueType]
}

/** A stored condition (GET /simulations/{id}/conditions). */
export const ConditionSchema = v.object({
  id: v.number(),
  action: v.picklist(CONDITION_ACTIONS),
  valueType: v.picklist(CONDITION_VALUE_TYPES),
  operator: v.picklist(CONDITION_OPERATORS),
  /** In THRESHOLD_UNITS of the value type. */
  threshold: v.number(),
  triggered: v.boolean(),
})
/** A stored condition. */
export type Condition = v.InferOutput<typeof ConditionSchema>

/** POST /simulations/{id}/conditions (and PUT /conditions/{id} with the same fields). */
export const ConditionCreateSchema = v.strictObject({
  valueType: v.picklist(CONDITION_VALUE_TYPES),
  action: v.picklist(CONDITION_ACTIONS),
  operator: v.optional(v.picklist(CONDITION_OPERATORS), '>='),
  threshold: v.pipe(v.number(), v.finite(), v.minValue(0)),
  /** Store the condition even when it breaks the threshold rules (a draft before the run). */
  allowInvalidThreshold: v.optional(v.boolean(), false),
  /** -1 for the conditions of the next run. */
  runId: v.optional(
    v.union([v.literal(-1), idSchema('runId')], 'runId must be -1 (the next run) or a run id'),
    -1,
  ),
})
/** A new condition. */
export type ConditionCreate = v.InferOutput<typeof ConditionCreateSchema>

/** Threshold messages of spec/results.md §5. */
export const CONDITION_MESSAGES = {
  aboveEndTime: 'Must be smaller than end time',
  time: 'Must be larger than current time',
  runtime: 'Must be larger than current runtime',
  credits: 'Must be larger than current credits',
  particle_nbr: 'Must be larger than current particle count',
} as const satisfies Record<ConditionValueType | 'aboveEndTime', string>

/** Changing a condition's type when its table holds data asks this first. */
export const DELETE_TABLE_CONFIRM_TITLE = 'Delete Previously Defined Table?'

/**
 * Where the run stands, in THRESHOLD_UNITS (time and endTime in ms, runtime in minutes). Absent
 * values (nothing logged yet) count as 0.
 */
export interface ConditionContext {
  endTime: number | null
  time?: number
  runtime?: number
  credits?: number
  particle_nbr?: number
}

/**
 * Threshold rules: time must be above the current time and not above the end time; runtime,
 * credits and particle count must be above their current value. Empty or NaN is the preliminary
 * info 'Threshold is required' / 'Threshold must be a valid number.'; a particle count is an
 * integer.
 */
export function checkConditionThreshold(
  valueType: ConditionValueType,
  threshold: unknown,
  context: ConditionContext,
): Issue[] {
  // No separate lower bound: every current value is >= 0, so 'larger than current' covers it.
  const numberIssues = checkNumber('threshold', 'Threshold', threshold, {
    integer: valueType === 'particle_nbr',
  })
  if (numberIssues.length > 0) return numberIssues
  const value = threshold as number
  if (valueType === 'time' && context.endTime !== null && value > context.endTime)
    return [issue('error', 'threshold', CONDITION_MESSAGES.aboveEndTime)]
  const current = context[valueType] ?? 0
  if (value <= current) return [issue('error', 'threshold', CONDITION_MESSAGES[valueType])]
  return []
}

/** Whether a watched value has reached the threshold (the server's trigger check). */
export function isConditionMet(
  condition: Pick<Condition, 'operator' | 'threshold'>,
  value: number,
): boolean {
  if (!Number.isFinite(value)) return false
  return condition.operator === '>' ? value > condition.threshold : value >= condition.threshold
}

/** Alerts cannot be edited while the simulation is running. */
export function canEditConditions(state: SimulationState): boolean {
  return state !== 'running'
}
