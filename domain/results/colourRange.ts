/** The colour map's range: defaults per attribute, the editable min and max, the status line. */
import * as v from 'valibot'
import { checkNumber, issue, type Issue } from '../validation.ts'
import { type AttributeName } from './attributes.ts'

/** A colour map range. */
export const ColourRangeSchema = v.object({ min: v.number(), max: v.number() })
/** A colour map range. */
export type ColourRange = v.InferOutput<typeof ColourRangeSchema>

/** Fixed ends of the colour range per attribute; the other end comes from the data. */
export const DEFAULT_COLOUR_RANGES: Partial<Record<AttributeName, { min?: number; max?: number }>> =
  {
    shepard_summation: { min: 0.9, max: 1.1 },
    power_density: { min: -100, max: 100 },
    pressure: { min: 0 },
    shear_rate: { min: 0 },
    wetting: { min: 0, max: 1 },
  }

/** 'Max must be greater than Min.' */
export const COLOUR_RANGE_MESSAGE = 'Max must be greater than Min.'

/** Checks the editable min and max of the colour map bar. */
export function checkColourRange(min: unknown, max: unknown): Issue[] {
  const issues = [...checkNumber('min', 'Min', min), ...checkNumber('max', 'Max', max)]
  if (issues.length > 0) return issues
  if ((max as number) <= (min as number)) return [issue('error', 'max', COLOUR_RANGE_MESSAGE)]
  return []
}

/** A range is applied as (smaller, larger), whichever order the two values came in. */
export function applyColourRange(first: number, second: number): ColourRange {
  return { min: Math.min(first, second), max: Math.max(first, second) }
}

/** Min and max of the finite values (NaN and ±Infinity are ignored); null when there are none. */
export function computeColourRange(values: ArrayLike<number>): ColourRange | null {
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number
    // NaN fails both comparisons; ±Infinity is excluded explicitly.
    if (value === Infinity || value === -Infinity) continue
    if (value < min) min = value
    if (value > max) max = value
  }
  return min === Infinity ? null : { min, max }
}

/**
 * The range a colour map starts with: the attribute's default ends over the data's range, applied
 * as (smaller, larger). Null when neither data nor a full default range exists.
 */
export function initialColourRange(
  attribute: AttributeName,
  dataRange: ColourRange | null,
): ColourRange | null {
  const defaults = DEFAULT_COLOUR_RANGES[attribute] ?? {}
  const min = defaults.min ?? dataRange?.min
  const max = defaults.max ?? dataRange?.max
  if (min === undefined || max === undefined) return null
  return applyColourRange(min, max)
}

/** Status line of the colour map for the selected output. */
export const COLOUR_MAP_STATUS = {
  notAvailable: (attribute: string) => `${attribute} is not available for this output.`,
  computing: (attribute: string) =>
    `We are currently computing ${attribute} for the selected output...`,
  failed: (attribute: string) => `We could not compute ${attribute} for the selected output.`,
  derivedFailed: 'We could not compute any of the derived attributes for the selected output.',
  sensorsFailed: (outputs: readonly number[]) =>
    `Computation failed for outputs: ${outputs.join(', ')}`,
} as const
