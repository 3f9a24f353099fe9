/*
 * SPH interpolation of fluid particle columns at sensor points: Wendland C2 kernel (support 2h,
 * as solver/sph/kernels.ts) with Shepard normalisation,
 *   f(p) = Σ_j f_j W(|p − x_j|) V_j / Σ_j W(|p − x_j|) V_j,   V_j = m_j / ρ_j (1 without mass/density),
 * over the fluid particles within 2h. Shepard's denominator makes a point near the free surface or a
 * wall read the mean of its neighbours instead of a value cut short by the missing ones. Neighbours
 * come from a uniform grid of 2h cells built over the particles near the sample points only.
 */

/** The particle columns of one fluid object (x, y, z and Float32 attributes). */
export interface FluidTable {
  rowCount: number
  columns: Record<string, Float32Array>
}

/** Samples per column (x, y, z of the points first); NaN where no fluid lies within 2h. */
export type SampledColumns = Record<string, Float32Array>

/** Grids of more cells than this grow their cells instead (memory stays O(particles)). */
const MAX_GRID_CELLS = 1 << 22

/** Wendland C2 kernel value without its normalisation (it cancels in the Shepard ratio). */
function wendlandShape(q: number): number {
  if (q >= 2) return 0
  const t = 1 - 0.5 * q
  return t * t * t * t * (2 * q + 1)
}

/** The Float32 columns every fluid table has besides x, y and z, in the first table's order. */
export function sharedFluidColumns(fluids: readonly FluidTable[]): string[] {
  const first = fluids[0]
  if (!first) return []
  return Object.keys(first.columns).filter(
    (name) => !['x', 'y', 'z'].includes(name) && fluids.every((fluid) => name in fluid.columns),
  )
}

/**
 * Interpolates `columnNames` of the fluid particles at `points` (3 numbers per point) with
 * smoothing length `h` (m). Returns x, y, z of the points and one column per name.
 */
export function sampleFluidColumns(
  points: Float64Array,
  fluids: readonly FluidTable[],
  h: number,
  columnNames: readonly string[],
): SampledColumns {
  const pointCount = points.length / 3
  const support = 2 * h
  const result: SampledColumns = {
    x: new Float32Array(pointCount),
    y: new Float32Array(pointCount),
    z: new Float32Array(pointCount),
  }
  for (let p = 0; p < pointCount; p++) {
    result.x![p] = points[3 * p]!
    result.y![p] = points[3 * p + 1]!
    result.z![p] = points[3 * p + 2]!
  }
  for (const name of columnNames) result[name] = new Float32Array(pointCount).fill(Number.NaN)
  if (pointCount === 0) return result

  // Box around the points, one support wider: particles outside it cannot reach any point.
  const lo = [Infinity, Infinity, Infinity]
  const hi = [-Infinity, -Infinity, -Infinity]
  for (let p = 0; p < pointCount; p++)
    for (let axis = 0; axis < 3; axis++) {
      lo[axis] = Math.min(lo[axis]!, points[3 * p + axis]! - support)
      hi[axis] = Math.max(hi[axis]!, points[3 * p + axis]! + support)
    }

  // Particles inside the box: fluid index and row.
  const nearFluid: number[] = []
  const nearRow: number[] = []
  fluids.forEach((fluid, f) => {
    const { x, y, z } = fluid.columns
    if (!x || !y || !z) return
    for (let i = 0; i < fluid.rowCount; i++) {
      const px = x[i]!
      const py = y[i]!
      const pz = z[i]!
      if (px < lo[0]! || px > hi[0]! || py < lo[1]! || py > hi[1]! || pz < lo[2]! || pz > hi[2]!)
        continue
      nearFluid.push(f)
      nearRow.push(i)
    }
  })
  const nearCount = nearFluid.length
  if (nearCount === 0) return result

  let cellSize = support
  let dims = lo.map((l, axis) => Math.max(1, Math.ceil((hi[axis]! - l) / cellSize)))
  while (dims[0]! * dims[1]! * dims[2]! > MAX_GRID_CELLS) {
    cellSize *= 2
    dims = lo.map((l, axis) => Math.max(1, Math.ceil((hi[axis]! - l) / cellSize)))
  }
  const [nx, ny, nz] = dims as [number, number, number]
  const cellOf = (value: number, axis: number, n: number) =>
    Math.min(n - 1, Math.max(0, Math.floor((value - lo[axis]!) / cellSize)))

  // Counting sort of the near particles by cell, copied into contiguous arrays in cell order
  // (positions, Shepard volume, then one array per column) so the point loop reads memory in order.
  const cellIndex = new Int32Array(nearCount)
  const cellStart = new Int32Array(nx * ny * nz + 1)
  for (let k = 0; k < nearCount; k++) {
    const columns = fluids[nearFluid[k]!]!.columns
    const row = nearRow[k]!
    const cx = cellOf(columns.x![row]!, 0, nx)
    const cy = cellOf(columns.y![row]!, 1, ny)
    const cz = cellOf(columns.z![row]!, 2, nz)
    const cell = (cz * ny + cy) * nx + cx
    cellIndex[k] = cell
    cellStart[cell + 1]!++
  }
  for (let c = 0; c < nx * ny * nz; c++) cellStart[c + 1]! += cellStart[c]!
  const fill = cellStart.slice(0, nx * ny * nz)
  const sortedX = new Float64Array(nearCount)
  const sortedY = new Float64Array(nearCount)
  const sortedZ = new Float64Array(nearCount)
  const sortedVolume = new Float64Array(nearCount)
  const sortedValues = columnNames.map(() => new Float64Array(nearCount))
  for (let k = 0; k < nearCount; k++) {
    const slot = fill[cellIndex[k]!]!++
    const columns = fluids[nearFluid[k]!]!.columns
    const row = nearRow[k]!
    sortedX[slot] = columns.x![row]!
    sortedY[slot] = columns.y![row]!
    sortedZ[slot] = columns.z![row]!
    const mass = columns.mass?.[row]
    const density = columns.density?.[row]
    sortedVolume[slot] =
      mass !== undefined && density !== undefined && density > 0 ? mass / density : 1
    for (let c = 0; c < columnNames.length; c++)
      sortedValues[c]![slot] = columns[columnNames[c]!]![row]!
  }

  const supportSquared = support * support
  const reach = Math.ceil(support / cellSize)
  const sums = new Float64Array(columnNames.length)
  for (let p = 0; p < pointCount; p++) {
    const px = points[3 * p]!
    const py = points[3 * p + 1]!
    const pz = points[3 * p + 2]!
    const cx = cellOf(px, 0, nx)
    const cy = cellOf(py, 1, ny)
    const cz = cellOf(pz, 2, nz)
    sums.fill(0)
    let weightSum = 0
    for (let gz = Math.max(0, cz - reach); gz <= Math.min(nz - 1, cz + reach); gz++)
      for (let gy = Math.max(0, cy - reach); gy <= Math.min(ny - 1, cy + reach); gy++) {
        // cells gx … gx + n of one row are contiguous in the sorted arrays
        const rowBase = (gz * ny + gy) * nx
        const first = cellStart[rowBase + Math.max(0, cx - reach)]!
        const last = cellStart[rowBase + Math.min(nx - 1, cx + reach) + 1]!
        for (let s = first; s < last; s++) {
          const dx = sortedX[s]! - px
          const dy = sortedY[s]! - py
          const dz = sortedZ[s]! - pz
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= supportSquared) continue
          const weight = wendlandShape(Math.sqrt(r2) / h) * sortedVolume[s]!
          if (!(weight > 0)) continue
          weightSum += weight
          for (let c = 0; c < columnNames.length; c++) sums[c]! += weight * sortedValues[c]![s]!
        }
      }
    if (weightSum > 0)
      for (let c = 0; c < columnNames.length; c++)
        result[columnNames[c]!]![p] = sums[c]! / weightSum
  }
  return result
}
