/**
 * Point picking on the CPU over the column arrays: each drawn point is projected with the camera's
 * view-projection matrix, and the nearest one to the camera among those within POINT_PICK_THRESHOLD
 * (normalized device units) of the pointer wins. In device space this is a ray test against a cone
 * of the threshold's width around the pointer ray. Points the clip removes are skipped.
 */
import { POINT_PICK_THRESHOLD } from '../../domain/constants.ts'
import { keepsPoint, type PlaneEquation } from './clip.ts'

/** Columns of one object to pick in. */
export interface PickTarget {
  objectId: string
  x: Float32Array
  y: Float32Array
  z: Float32Array
  /** Rows drawn (a prefix). */
  count: number
  /** A shown volume clip: rows with 0 are not drawn (null: every row is). */
  keep?: Uint8Array | null
}

/** The winning point. */
export interface PickHit {
  objectId: string
  index: number
  position: [number, number, number]
  /** Depth in device units (-1 near … 1 far). */
  depth: number
}

/** Pointer position in CSS pixels → normalized device coordinates (y up). */
export function pointerToDevice(
  xPx: number,
  yPx: number,
  widthPx: number,
  heightPx: number,
): [number, number] {
  return [(xPx / widthPx) * 2 - 1, 1 - (yPx / heightPx) * 2]
}

/**
 * Picks the point under (ndcX, ndcY). `viewProjection` is column-major (three's Matrix4.elements).
 * The threshold is a distance in device units along each axis scaled by the aspect so it is round
 * on screen: x distances are multiplied by aspect (width / height).
 */
export function pickPoint(
  targets: readonly PickTarget[],
  viewProjection: ArrayLike<number>,
  ndcX: number,
  ndcY: number,
  aspect: number,
  clip: PlaneEquation | null,
  threshold: number = POINT_PICK_THRESHOLD,
): PickHit | null {
  // Unrolled column-major matrix: 16 reads per call instead of per point.
  const e = Array.from({ length: 16 }, (_, i) => viewProjection[i] ?? 0)
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15] = e as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const thresholdSquared = threshold * threshold
  let best: PickHit | null = null
  for (const target of targets) {
    const { x, y, z } = target
    const keep = target.keep ?? null
    const count = Math.min(target.count, x.length, y.length, z.length)
    for (let i = 0; i < count; i++) {
      if (keep !== null && keep[i] === 0) continue
      const px = x[i] as number
      const py = y[i] as number
      const pz = z[i] as number
      const w = m3 * px + m7 * py + m11 * pz + m15
      if (!(w > 0)) continue
      const cx = (m0 * px + m4 * py + m8 * pz + m12) / w
      const cy = (m1 * px + m5 * py + m9 * pz + m13) / w
      const dx = (cx - ndcX) * aspect
      const dy = cy - ndcY
      if (dx * dx + dy * dy > thresholdSquared) continue
      const depth = (m2 * px + m6 * py + m10 * pz + m14) / w
      if (depth < -1 || depth > 1) continue
      if (best !== null && depth >= best.depth) continue
      if (!keepsPoint(clip, px, py, pz)) continue
      best = { objectId: target.objectId, index: i, position: [px, py, pz], depth }
    }
  }
  return best
}

/** Lets a call through at most once per `intervalMs` (hover picking: 30 ms). */
export class Throttle {
  #intervalMs: number
  #lastMs = -Infinity

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs
  }

  /** True when a call may run now (and records it). */
  tryAcquire(nowMs: number): boolean {
    if (nowMs - this.#lastMs < this.#intervalMs) return false
    this.#lastMs = nowMs
    return true
  }
}
