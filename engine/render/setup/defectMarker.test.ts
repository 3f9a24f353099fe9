import { describe, expect, it } from 'vitest'
import {
  DEFECT_MARKER_MIN_RADIUS_M,
  DEFECT_MARKER_SEGMENTS,
  defectMarkerRadius,
  defectMarkerSegments,
} from './defectMarker.ts'

describe('defect marker', () => {
  it('rings a defect a little wider than half its size, never thinner than 2 mm', () => {
    expect(defectMarkerRadius(0.2)).toBeCloseTo(0.125)
    expect(defectMarkerRadius(0)).toBe(DEFECT_MARKER_MIN_RADIUS_M)
  })

  it('draws three closed circles about the centre, one per axis plane', () => {
    const center: [number, number, number] = [1, -2, 0.5]
    const segments = defectMarkerSegments({ center, sizeM: 0.4 })
    expect(segments.length).toBe(3 * DEFECT_MARKER_SEGMENTS * 6)
    const radius = defectMarkerRadius(0.4)
    for (let i = 0; i < segments.length; i += 3) {
      const d = [segments[i]! - 1, segments[i + 1]! + 2, segments[i + 2]! - 0.5]
      expect(Math.hypot(d[0]!, d[1]!, d[2]!)).toBeCloseTo(radius, 5)
      // Each point lies in one axis plane through the centre.
      const plane = Math.floor(i / (DEFECT_MARKER_SEGMENTS * 6))
      const off = plane === 0 ? 2 : plane === 1 ? 0 : 1
      expect(Math.abs(d[off]!)).toBeLessThan(1e-6)
    }
    // A circle closes: its last segment ends where its first begins.
    const first = [...segments.subarray(0, 3)]
    const lastEnd = [
      ...segments.subarray(DEFECT_MARKER_SEGMENTS * 6 - 3, DEFECT_MARKER_SEGMENTS * 6),
    ]
    lastEnd.forEach((value, k) => expect(value).toBeCloseTo(first[k]!, 5))
  })
})
