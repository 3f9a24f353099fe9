import type { BenchResult } from './types.ts'

/** A figure with three significant digits (or an integer when it is large). */
export function formatFigure(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  const magnitude = Math.abs(value)
  if (magnitude >= 1000) return Math.round(value).toString()
  if (magnitude === 0) return '0'
  return value.toPrecision(3)
}

/** One human-readable line: `case  value unit  ratio  target  ok|MISSED`. */
export function formatResultLine(result: BenchResult): string {
  const figure = `${formatFigure(result.value)} ${result.unit}`
  const ratio = result.ratio === null ? '' : `ratio ${formatFigure(result.ratio)}`
  const target = result.target === null ? '' : `target ${result.target}`
  const verdict = result.ok === null ? '' : result.ok ? 'ok' : 'MISSED'
  return [result.case.padEnd(44), figure.padStart(16), ratio.padEnd(14), target.padEnd(30), verdict]
    .join('  ')
    .trimEnd()
}
