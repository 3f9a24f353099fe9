/**
 * The marker of the mesh defect the Mesh Check dialog zoomed to (spec/setup.md §2 "Mesh-health
 * mode … a zoom per defect"): three rings about the defect's centre, one per axis plane, drawn over
 * everything while mesh-health mode is on, so the one defect stands out among the highlighted edges.
 */
import type { SetupDefectMarker } from '../../setupProtocol.ts'
import { RENDER_ORDER } from './drawOrder.ts'
import { createFlatMaterial, type SetupUniforms } from './setupMaterials.ts'
import { createSegments, disposeObject, type FlatLines } from './setupShapes.ts'

/** Colour of the rings: apart from the holes' red and the non-manifold edges' purple. */
export const DEFECT_MARKER_COLOUR = '#1c7ed6'
/** Segments per ring. */
export const DEFECT_MARKER_SEGMENTS = 48
/** The rings reach this far past half the defect's size, so they circle the defect, not cut it. */
export const DEFECT_MARKER_MARGIN = 1.25
/** Smallest ring radius, m (a point-like defect still gets a visible ring when zoomed to). */
export const DEFECT_MARKER_MIN_RADIUS_M = 0.002

/** Ring radius around a defect of `sizeM`. */
export function defectMarkerRadius(sizeM: number): number {
  return Math.max(DEFECT_MARKER_MIN_RADIUS_M, (sizeM / 2) * DEFECT_MARKER_MARGIN)
}

/**
 * Segment pairs (xyz, xyz) of three circles about `marker.center`, in the xy, yz and zx planes,
 * `DEFECT_MARKER_SEGMENTS` segments each.
 */
export function defectMarkerSegments(marker: SetupDefectMarker): Float32Array {
  const radius = defectMarkerRadius(marker.sizeM)
  const [cx, cy, cz] = marker.center
  const n = DEFECT_MARKER_SEGMENTS
  const out = new Float32Array(3 * n * 6)
  let k = 0
  for (let plane = 0; plane < 3; plane++) {
    for (let i = 0; i < n; i++) {
      for (const step of [i, i + 1]) {
        const angle = (2 * Math.PI * step) / n
        const a = Math.cos(angle) * radius
        const b = Math.sin(angle) * radius
        // plane 0: xy, 1: yz, 2: zx
        const [x, y, z] = plane === 0 ? [a, b, 0] : plane === 1 ? [0, a, b] : [b, 0, a]
        out[k++] = cx + x
        out[k++] = cy + y
        out[k++] = cz + z
      }
    }
  }
  return out
}

/** The marker's three.js lines, rebuilt when the defect changes. */
export class DefectMarker {
  #shared: SetupUniforms
  #lines: FlatLines | null = null
  #attach: (lines: FlatLines) => void

  constructor(shared: SetupUniforms, attach: (lines: FlatLines) => void) {
    this.#shared = shared
    this.#attach = attach
  }

  /** Shows the rings about `marker` while `visible` (mesh-health mode); null removes them. */
  set(marker: SetupDefectMarker | null, visible: boolean): void {
    this.dispose()
    if (marker === null) return
    const lines = createSegments(
      defectMarkerSegments(marker),
      createFlatMaterial(this.#shared, { colour: DEFECT_MARKER_COLOUR, onTop: true }),
    )
    lines.renderOrder = RENDER_ORDER.meshHealth
    lines.visible = visible
    lines.name = 'defect-marker'
    this.#lines = lines
    this.#attach(lines)
  }

  /** Shows or hides the rings (mesh-health mode toggled). */
  setVisible(visible: boolean): void {
    if (this.#lines) this.#lines.visible = visible
  }

  dispose(): void {
    disposeObject(this.#lines)
    this.#lines = null
  }
}
