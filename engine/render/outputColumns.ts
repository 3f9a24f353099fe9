/**
 * Plain data about an output's columns, without three.js: typed-array views of the transferred
 * buffers, bounds from the column ranges, particle spacing, and the colour data range.
 */
import type { ColourRange } from '../../domain/results.ts'
import type { ColumnSlice } from '../protocol.ts'
import type { Bounds } from './camera.ts'
import type { OutputView } from './OutputView.ts'

/** Float32 views of an object's columns by name. */
export type ColumnViews = Map<string, Float32Array>

/** Views of the columns of a buffer; a slice outside the buffer or misaligned is skipped. */
export function viewColumns(buffer: ArrayBuffer, columns: readonly ColumnSlice[]): ColumnViews {
  const views: ColumnViews = new Map()
  for (const column of columns) {
    const end = column.byteOffset + column.length * 4
    if (column.byteOffset % 4 !== 0 || end > buffer.byteLength || column.length < 0) continue
    views.set(column.name, new Float32Array(buffer, column.byteOffset, column.length))
  }
  return views
}

/** Particle spacing estimated from the bounds and count: the edge of the volume per particle. */
export function estimateParticleSpacing(bounds: Bounds | null, count: number): number {
  if (bounds === null || count <= 0) return 0.01
  const extents = [0, 1, 2]
    .map((i) => (bounds.max[i] as number) - (bounds.min[i] as number))
    .filter((extent) => extent > 0 && Number.isFinite(extent))
  if (extents.length === 0) return 0.01
  // Flat data (a 2D run or a single wall layer) spreads over an area or a line, not a volume.
  const measure = extents.reduce((product, extent) => product * extent, 1)
  return Math.pow(measure / count, 1 / extents.length)
}

/** Bounds of x, y, z from the column ranges (null when a range is missing). */
export function boundsOfColumns(columns: readonly ColumnSlice[]): Bounds | null {
  const ranges = ['x', 'y', 'z'].map((name) => columns.find((c) => c.name === name)?.range ?? null)
  if (ranges.some((range) => range === null)) return null
  return {
    min: ranges.map((range) => range!.min) as [number, number, number],
    max: ranges.map((range) => range!.max) as [number, number, number],
  }
}

/** The union of bounds (null when there are none). */
export function unionBounds(all: readonly (Bounds | null)[]): Bounds | null {
  let result: Bounds | null = null
  for (const bounds of all) {
    if (bounds === null) continue
    result =
      result === null
        ? { min: [...bounds.min], max: [...bounds.max] }
        : {
            min: result.min.map((v, i) => Math.min(v, bounds.min[i] as number)) as Bounds['min'],
            max: result.max.map((v, i) => Math.max(v, bounds.max[i] as number)) as Bounds['max'],
          }
  }
  return result
}

/** The range of a colour binding over an output's objects (magnitude computed on the CPU). */
export function colourDataRange(view: OutputView, names: readonly string[]): ColourRange | null {
  let min = Infinity
  let max = -Infinity
  const include = (range: ColourRange | null) => {
    if (range === null) return
    min = Math.min(min, range.min)
    max = Math.max(max, range.max)
  }
  for (const objectView of view.objects) {
    const sources: [ColumnViews, readonly ColumnSlice[], number][] = [
      [objectView.columns, objectView.object.columns, objectView.object.particleCount],
    ]
    if (objectView.object.mesh !== null)
      sources.push([objectView.meshColumns, objectView.object.mesh.columns, Infinity])
    for (const [views, slices, count] of sources) {
      if (names.length === 1) {
        include(slices.find((slice) => slice.name === names[0])?.range ?? null)
      } else if (names.length === 3) {
        const arrays = names.map((name) => views.get(name))
        if (arrays.every((array) => array !== undefined)) include(magnitudeRange(arrays, count))
      }
    }
  }
  return min === Infinity ? null : { min, max }
}

/** Finite min/max of |(a, b, c)| over the first `count` rows. */
export function magnitudeRange(arrays: readonly Float32Array[], count: number): ColourRange | null {
  const [a, b, c] = arrays as [Float32Array, Float32Array, Float32Array]
  const n = Math.min(count, a.length, b.length, c.length)
  let minSquared = Infinity
  let maxSquared = -Infinity
  for (let i = 0; i < n; i++) {
    const x = a[i] as number
    const y = b[i] as number
    const z = c[i] as number
    const squared = x * x + y * y + z * z
    // NaN fails both tests; Infinity is skipped.
    if (squared === Infinity) continue
    if (squared < minSquared) minSquared = squared
    if (squared > maxSquared) maxSquared = squared
  }
  return minSquared === Infinity ? null : { min: Math.sqrt(minSquared), max: Math.sqrt(maxSquared) }
}
