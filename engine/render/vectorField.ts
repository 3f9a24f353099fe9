/**
 * Vector-field arrows: at most VECTOR_FIELD_ARROWS.maxSamples points, at least spacingPx apart on
 * screen. Points are taken in stored (stratified) order, one per screen cell of spacingPx, so the
 * arrows spread evenly over what is visible.
 */
import { VECTOR_FIELD_ARROWS } from '../../domain/constants.ts'
import { keepsPoint, type PlaneEquation } from './clip.ts'

/** One object's columns for sampling. */
export interface ArrowSource {
  x: Float32Array
  y: Float32Array
  z: Float32Array
  count: number
  /** A shown volume clip: rows with 0 are not drawn and get no arrow (null: every row). */
  keep?: Uint8Array | null
}

/** Sampled rows per source (indices into its columns). */
export type ArrowSamples = number[][]

/**
 * Rows to draw arrows at. `viewProjection` is column-major; points behind the camera, outside the
 * view or clipped away are skipped; a cell of the screen grid holds at most one sample.
 */
export function sampleArrowRows(
  sources: readonly ArrowSource[],
  viewProjection: ArrayLike<number>,
  widthPx: number,
  heightPx: number,
  clip: PlaneEquation | null,
  spacingPx: number = VECTOR_FIELD_ARROWS.spacingPx,
  maxSamples: number = VECTOR_FIELD_ARROWS.maxSamples,
): ArrowSamples {
  const columns = Math.max(1, Math.ceil(widthPx / spacingPx))
  const rows = Math.max(1, Math.ceil(heightPx / spacingPx))
  const taken = new Uint8Array(columns * rows)
  const e = Array.from({ length: 16 }, (_, i) => viewProjection[i] ?? 0)
  const [m0, m1, , m3, m4, m5, , m7, m8, m9, , m11, m12, m13, , m15] = e as [
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
  const result: ArrowSamples = sources.map(() => [])
  let total = 0
  for (let s = 0; s < sources.length && total < maxSamples; s++) {
    const { x, y, z, count } = sources[s] as ArrowSource
    const keep = sources[s]?.keep ?? null
    const picked = result[s] as number[]
    const n = Math.min(count, x.length, y.length, z.length)
    for (let i = 0; i < n && total < maxSamples; i++) {
      if (keep !== null && keep[i] === 0) continue
      const px = x[i] as number
      const py = y[i] as number
      const pz = z[i] as number
      const w = m3 * px + m7 * py + m11 * pz + m15
      if (!(w > 0)) continue
      const sx = ((m0 * px + m4 * py + m8 * pz + m12) / w + 1) * 0.5 * widthPx
      const sy = (1 - (m1 * px + m5 * py + m9 * pz + m13) / w) * 0.5 * heightPx
      if (!(sx >= 0 && sx < widthPx && sy >= 0 && sy < heightPx)) continue
      const cell = Math.floor(sy / spacingPx) * columns + Math.floor(sx / spacingPx)
      if (taken[cell] === 1) continue
      if (!keepsPoint(clip, px, py, pz)) continue
      taken[cell] = 1
      picked.push(i)
      total++
    }
  }
  return result
}

/** Floats per arrow: a shaft and two head strokes, two xyz points each. */
export const ARROW_FLOATS = 18
/** The head strokes are this share of the arrow long and half as wide. */
const HEAD_SHARE = 0.3

/**
 * Arrow segments for the sampled rows: per arrow a shaft from the particle along its vector and
 * two head strokes in the plane facing the camera (`viewDirection`, camera → target). The longest
 * vector spans `maxLengthM`, the others in proportion; non-finite vectors get no length.
 */
export function buildArrowSegments(
  source: ArrowSource,
  vectors: readonly [Float32Array, Float32Array, Float32Array],
  rows: readonly number[],
  maxMagnitude: number,
  maxLengthM: number,
  viewDirection: readonly [number, number, number] = [0, 0, -1],
): Float32Array {
  const segments = new Float32Array(rows.length * ARROW_FLOATS)
  const scale = maxMagnitude > 0 && Number.isFinite(maxMagnitude) ? maxLengthM / maxMagnitude : 0
  const [dx, dy, dz] = viewDirection
  rows.forEach((row, k) => {
    const px = source.x[row] as number
    const py = source.y[row] as number
    const pz = source.z[row] as number
    let vx = (vectors[0][row] as number) * scale
    let vy = (vectors[1][row] as number) * scale
    let vz = (vectors[2][row] as number) * scale
    if (!Number.isFinite(vx + vy + vz)) vx = vy = vz = 0
    const tx = px + vx
    const ty = py + vy
    const tz = pz + vz
    // Side of the head: perpendicular to the arrow and to the view, so the head faces the camera.
    let sx = vy * dz - vz * dy
    let sy = vz * dx - vx * dz
    let sz = vx * dy - vy * dx
    const sideLength = Math.hypot(sx, sy, sz)
    const length = Math.hypot(vx, vy, vz)
    const half = (HEAD_SHARE * length) / 2
    if (sideLength > 0) {
      sx = (sx / sideLength) * half
      sy = (sy / sideLength) * half
      sz = (sz / sideLength) * half
    } else sx = sy = sz = 0
    const bx = tx - HEAD_SHARE * vx
    const by = ty - HEAD_SHARE * vy
    const bz = tz - HEAD_SHARE * vz
    segments.set(
      [
        px,
        py,
        pz,
        tx,
        ty,
        tz,
        tx,
        ty,
        tz,
        bx + sx,
        by + sy,
        bz + sz,
        tx,
        ty,
        tz,
        bx - sx,
        by - sy,
        bz - sz,
      ],
      k * ARROW_FLOATS,
    )
  })
  return segments
}
