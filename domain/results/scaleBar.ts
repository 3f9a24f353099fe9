/** The results viewport's scale bar. */
import { SCALE_BAR } from '../constants.ts'

/** A scale bar: its length in metres and its width on screen. */
export interface ScaleBar {
  lengthM: number
  widthPx: number
}

/**
 * The scale bar for a view: the largest 1, 2, 5 or 10 × 10^k metres that fits in 300 px and in
 * 30 % of the viewport width. Null for a degenerate view (zero, negative or non-finite inputs).
 */
export function computeScaleBar(metresPerPixel: number, viewportWidthPx: number): ScaleBar | null {
  if (!(metresPerPixel > 0) || !Number.isFinite(metresPerPixel)) return null
  if (!(viewportWidthPx > 0) || !Number.isFinite(viewportWidthPx)) return null
  const maxWidthPx = Math.min(SCALE_BAR.maxWidthPx, SCALE_BAR.maxWidthFraction * viewportWidthPx)
  const maxLengthM = maxWidthPx * metresPerPixel
  const decade = 10 ** Math.floor(Math.log10(maxLengthM))
  let lengthM = decade
  for (const step of SCALE_BAR.niceSteps) {
    // Relative slack so that exact fits (e.g. 300 px × 0.01 m = 3 m) survive rounding.
    if (step * decade <= maxLengthM * (1 + 1e-12)) lengthM = step * decade
  }
  return { lengthM, widthPx: lengthM / metresPerPixel }
}
