/**
 * A plain neighbour query through the cell lists (not used by the hot loops; for tests and tools).
 */
import type { GridView } from './grid.ts'
import { GRID_PARAM } from './grid.ts'
import type { ParticleArrays } from './particles.ts'

/**
 * Indices of all particles within distance `radius` (≤ the support of the last sort) of particle
 * i, found through the cell lists, each periodic image once (not used by the hot loops; for tests
 * and tools).
 */
export function findNeighbours(
  arrays: ParticleArrays,
  grid: GridView,
  i: number,
  radius: number,
): number[] {
  const p = grid.params
  const nx = p[GRID_PARAM.nx]!
  const ny = p[GRID_PARAM.ny]!
  const nz = p[GRID_PARAM.nz]!
  const inv = 1 / p[GRID_PARAM.cellSize]!
  const invY = 1 / p[GRID_PARAM.cellSizeY]!
  const reach = p[GRID_PARAM.reach]!
  const reachY = p[GRID_PARAM.reachY]!
  const periodY = p[GRID_PARAM.periodY]!
  const clamp = (v: number, n: number) => (v < 0 ? 0 : v > n - 1 ? n - 1 : v)
  const cx = clamp(Math.floor((arrays.posX[i]! - p[GRID_PARAM.originX]!) * inv), nx)
  const cy = clamp(Math.floor((arrays.posY[i]! - p[GRID_PARAM.originY]!) * invY), ny)
  const cz = clamp(Math.floor((arrays.posZ[i]! - p[GRID_PARAM.originZ]!) * inv), nz)
  const result: number[] = []
  const r2max = radius * radius
  const yFrom = periodY > 0 ? cy - reachY : Math.max(cy - reach, 0)
  const yTo = periodY > 0 ? cy + reachY : Math.min(cy + reach, ny - 1)
  for (let z = Math.max(cz - reach, 0); z <= Math.min(cz + reach, nz - 1); z++) {
    for (let yy = yFrom; yy <= yTo; yy++) {
      const y = ((yy % ny) + ny) % ny
      const shiftY = ((yy - y) / ny) * periodY
      const row = nx * (y + ny * z)
      const begin = grid.cellStart[row + Math.max(cx - reach, 0)]!
      const end = grid.cellStart[row + Math.min(cx + reach, nx - 1) + 1]!
      for (let j = begin; j < end; j++) {
        if (j === i && shiftY === 0) continue
        const dx = arrays.posX[i]! - arrays.posX[j]!
        const dy = arrays.posY[i]! - arrays.posY[j]! - shiftY
        const dz = arrays.posZ[i]! - arrays.posZ[j]!
        if (dx * dx + dy * dy + dz * dz < r2max) result.push(j)
      }
    }
  }
  return result
}
