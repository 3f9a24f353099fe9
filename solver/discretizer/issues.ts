/** How the discretizer's modules report issues, and the number formats of their messages. */
import { formatFluidVolume } from '../../domain/discretization.ts'
import { formatCount as formatCountOfDomain, formatNumber } from '../../domain/units.ts'
import type { DiscretizationIssue, DiscretizationIssueCode } from './types.ts'

/** Errors and warnings gathered while discretizing. */
export interface IssueLists {
  errors: DiscretizationIssue[]
  warnings: DiscretizationIssue[]
}

/** Adds an issue to `list`. */
export function report(
  list: DiscretizationIssue[],
  code: DiscretizationIssueCode,
  partId: number | null,
  message: string,
): void {
  list.push({ code, partId, message })
}

/** '10,726'. */
export const formatCount = formatCountOfDomain

/** '0.02 m' (4 significant digits). */
export function formatLength(metres: number): string {
  return `${formatNumber(metres, 4)} m`
}

/** Litres below one cubic metre ('38.4 L'), cubic metres from there ('2.75 m³'); 3 digits. */
export const formatVolume = formatFluidVolume

/** A ratio as a percentage with one decimal: 0.0412 → '4.1 %'. */
export function formatPercent(ratio: number): string {
  return `${formatNumber(Math.round(ratio * 1000) / 10, 4)} %`
}
