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
