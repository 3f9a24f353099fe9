import { formatNumber } from '../../../../../domain/units.ts'

/** A number with its unit as people write it: '0.85 m', '12 %' ('' unit: the number alone). */
export function withUnit(value: number, unit: string): string {
  const text = formatNumber(value)
  return unit === '' ? text : `${text} ${unit}`
}

/** A vector as people write it: '(0.85, 0.15, 0.55) m'; unset components show as '–'. */
export function formatVector(vector: readonly (number | null)[], unit: string): string {
  const text = `(${vector.map((c) => (c === null ? '–' : formatNumber(c))).join(', ')})`
  return unit === '' ? text : `${text} ${unit}`
}

/** Significant digits of geometry computed in single precision (float32 holds about 7; sums lose one). */
export const MEASURED_DIGITS = 6

/**
 * A number measured on a float32 mesh: 6 significant digits, and 0 for what is float noise next to
 * the geometry's size `scale` (−5.96e-9 beside a 0.8 m box reads 0).
 */
export function formatMeasured(value: number, scale: number): string {
  if (Math.abs(value) < Math.abs(scale) * 1e-6) return '0'
  return formatNumber(value, MEASURED_DIGITS)
}

/** A measured vector: '(0, 0, 0.5) m' for float32 '(-5.96e-9, -7.45e-10, 0.5)'. */
export function formatMeasuredVector(
  vector: readonly number[],
  unit: string,
  scale: number,
): string {
  const text = `(${vector.map((c) => formatMeasured(c, scale)).join(', ')})`
  return unit === '' ? text : `${text} ${unit}`
}
