/**
 * Velocity probes for the run's sensors (solver/run/sensorSeries.ts), beside the pressure probes of
 * probes.ts: the kernel-weighted (Shepard) fluid velocity at a point, read from a running solver at
 * its own rate,
 *
 *   v(x) = Σ_f v_f W(x − x_f) V_f / Σ_f W(x − x_f) V_f,   V_f = m/ρ_f,
 *
 * over the fluid particles within the support 2h (walls carry prescribed or mirrored velocities,
 * not the fluid's, so they are left out). The traversal is probes.ts's: the cells of the last sort,
 * one cell more than the stencil, periodic y read at its image.
 */
import type { Vec3 } from '../../domain/vector.ts'
import { KERNEL_CODE } from './config.ts'
import { GRID_PARAM } from './grid.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { Solver } from './solverTypes.ts'
import { solverInternals } from './SphSolver.ts'

const FLUID = PARTICLE_KIND.fluid

/**
 * Writes the fluid velocity at `point` (m/s) into `out` and returns true, or writes NaN and
 * returns false when no fluid particle lies within 2h (dry).
 */
export function probeVelocity(solver: Solver, point: Readonly<Vec3>, out: Vec3): boolean {
  const { arrays, grid, constants: k } = solverInternals(solver)
  const { posX, posY, posZ, velX, velY, velZ, rho, kind } = arrays
  const p = grid.params
  const nx = p[GRID_PARAM.nx]!
  const ny = p[GRID_PARAM.ny]!
  const nz = p[GRID_PARAM.nz]!
  const period = p[GRID_PARAM.periodY]!
  const reach = p[GRID_PARAM.reach]! + 1
  const reachY = p[GRID_PARAM.reachY]! + 1
  const [x, y, z] = point
  const cell = (value: number, origin: number, size: number, n: number) => {
    const c = Math.floor((value - origin) / size)
    return c < 0 ? 0 : c > n - 1 ? n - 1 : c
  }
  const cx = cell(x, p[GRID_PARAM.originX]!, p[GRID_PARAM.cellSize]!, nx)
  const cz = cell(z, p[GRID_PARAM.originZ]!, p[GRID_PARAM.cellSize]!, nz)
  const cellSizeY = p[GRID_PARAM.cellSizeY]!
  const originY = p[GRID_PARAM.originY]!
  const yp = period > 0 ? y - period * Math.floor((y - originY) / period) : y
  const cy =
    period > 0
      ? Math.min(Math.floor((yp - originY) / cellSizeY), ny - 1)
      : cell(y, originY, cellSizeY, ny)
  const invH = 1 / k.h
  const alpha = k.kernelAlpha
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  let sumW = 0
  let sumX = 0
  let sumY = 0
  let sumZ = 0
  const x0 = Math.max(cx - reach, 0)
  const x1 = Math.min(cx + reach, nx - 1)
  for (let zz = Math.max(cz - reach, 0); zz <= Math.min(cz + reach, nz - 1); zz++) {
    const y0 = period > 0 ? cy - reachY : Math.max(cy - reach, 0)
    const y1 = period > 0 ? cy + reachY : Math.min(cy + reach, ny - 1)
    for (let yy = y0; yy <= y1; yy++) {
      const row = period > 0 ? ((yy % ny) + ny) % ny : yy
      const shift = period > 0 ? ((yy - row) / ny) * period : 0
      const base = nx * (row + ny * zz)
      const begin = grid.cellStart[base + x0]!
      const end = grid.cellStart[base + x1 + 1]!
      for (let j = begin; j < end; j++) {
        if (kind[j] !== FLUID) continue
        const dx = x - posX[j]!
        const dy = yp - posY[j]! - shift
        const dz = z - posZ[j]!
        const r2 = dx * dx + dy * dy + dz * dz
        if (r2 >= k.support2) continue
        const q = Math.sqrt(r2) * invH
        let w: number
        if (wendland) {
          const t = 1 - 0.5 * q
          w = alpha * t * t * t * t * (2 * q + 1)
        } else if (q < 1) w = alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
        else {
          const t = 2 - q
          w = alpha * 0.25 * t * t * t
        }
        const weight = (w * k.particleMass) / rho[j]!
        sumW += weight
        sumX += weight * velX[j]!
        sumY += weight * velY[j]!
        sumZ += weight * velZ[j]!
      }
    }
  }
  if (!(sumW > 0)) {
    out[0] = out[1] = out[2] = Number.NaN
    return false
  }
  out[0] = sumX / sumW
  out[1] = sumY / sumW
  out[2] = sumZ / sumW
  return true
}
