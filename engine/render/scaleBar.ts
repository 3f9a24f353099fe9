/**
 * The scale bar of the current view: the largest 1, 2, 5 or 10 × 10^n metres that fits in 300 px
 * and in 30 % of the width (domain/results.ts computeScaleBar), measured at the target distance.
 */
import { computeScaleBar, type CameraState, type ScaleBar } from '../../domain/results.ts'
import { metresPerPixel } from './camera.ts'

/** The scale bar for a camera and a viewport in CSS pixels (null for an empty viewport). */
export function scaleBarForView(
  camera: CameraState,
  widthPx: number,
  heightPx: number,
): ScaleBar | null {
  return computeScaleBar(metresPerPixel(camera, heightPx), widthPx)
}
