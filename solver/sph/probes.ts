/**
 * Pressure probes: the kernel-weighted (Shepard) pressure at a point, read from a running solver
 * at its own rate (after any step), e.g. a pressure sensor on a wall.
 *
 *   p(x) = Σ_j p_j W(x − x_j) V_j / Σ_j W(x − x_j) V_j,   V_j = m_j/ρ_j (walls: m/ρ0),
 *
 * over the fluid and wall particles within the support 2h. Fluid pressures come from the current
 * densities (Tait; in a multiphase run each particle's own material's, as the pressure pass); wall particles carry the pressure extrapolated from the fluid in the last
 * force pass (generalized and Riemann walls: the fluid's pressure continued into the wall with
 * its hydrostatic gradient), so that at a point on a wall surface the weights are centred on the
 * surface instead of half a kernel inside the fluid. A point without a fluid particle within 2h
 * reads 0 (dry).
 */
import type { Vec3 } from '../../domain/vector.ts'
import { KERNEL_CODE } from './config.ts'
import { fluidPressure } from './phaseTable.ts'
import { cellOfPoint, GRID_PARAM } from './grid.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { Solver } from './solverTypes.ts'
import type { SolverInternals } from './SphSolver.ts'
import { solverInternals } from './SphSolver.ts'

const FLUID = PARTICLE_KIND.fluid

/** The pressure (Pa) at a point now: see the module comment. */
export function probePressure(solver: Solver, point: Readonly<Vec3>): number {
  return readPressure(solverInternals(solver), point)
}

/** Pressure time series at fixed points, sampled whenever `sample()` is called. */
export interface PressureSampler {
  readonly points: readonly Readonly<Vec3>[]
  /** Solver times of the samples, s. */
  readonly timesS: number[]
  /** values[k][s]: the pressure at point k in sample s, Pa. */
  readonly values: number[][]
  /** Reads every point at the solver's current time (call it from RunHooks.onStep). */
  sample(): void
}

/**
 * A sampler of the pressure at `points`: pass `() => sampler.sample()` as the run's onStep hook
 * to sample at the solver's own rate (every step), so that an impact lasting a few steps shows.
 */
export function createPressureSampler(
  solver: Solver,
  points: readonly Readonly<Vec3>[],
): PressureSampler {
  const internals = solverInternals(solver)
  const timesS: number[] = []
  const values = points.map(() => [] as number[])
  return {
    points,
    timesS,
    values,
    sample() {
      timesS.push(internals.timeS())
      points.forEach((point, k) => values[k]!.push(readPressure(internals, point)))
    },
  }
}

function readPressure(internals: SolverInternals, point: Readonly<Vec3>): number {
  const { arrays, grid, constants: k } = internals
  const { posX, posY, posZ, rho, press, kind, mass, phase } = arrays
  const p = grid.params
  const nx = p[GRID_PARAM.nx]!
  const ny = p[GRID_PARAM.ny]!
  const nz = p[GRID_PARAM.nz]!
  const period = p[GRID_PARAM.periodY]!
  // one cell more than the stencil: particles moved a little since the last sort
  const reach = p[GRID_PARAM.reach]! + 1
  const reachY = p[GRID_PARAM.reachY]! + 1
  const [x, , z] = point
  const { cx, cy, cz, y: yp } = cellOfPoint(p, point)
  const support2 = k.support2
  const invH = 1 / k.h
  const alpha = k.kernelAlpha
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const rho0 = k.referenceDensity
  let sumW = 0
  let sumPW = 0
  let fluidNear = false
  const x0 = Math.max(cx - reach, 0)
  const x1 = Math.min(cx + reach, nx - 1)
  for (let zz = Math.max(cz - reach, 0); zz <= Math.min(cz + reach, nz - 1); zz++) {
    const y0 = period > 0 ? cy - reachY : Math.max(cy - reach, 0)
    const y1 = period > 0 ? cy + reachY : Math.min(cy + reach, ny - 1)
    for (let yy = y0; yy <= y1; yy++) {
      const row = period > 0 ? ((yy % ny) + ny) % ny : yy
      // the image of this row's particles nearest the point: y_j + shift
      const shift = period > 0 ? ((yy - row) / ny) * period : 0
      const base = nx * (row + ny * zz)
      const begin = grid.cellStart[base + x0]!
      const end = grid.cellStart[base + x1 + 1]!
      for (let j = begin; j < end; j++) {
        const dx = x - posX[j]!
        const dy = yp - posY[j]! - shift
        const dz = z - posZ[j]!
        const r2 = dx * dx + dy * dy + dz * dz
        if (r2 >= support2) continue
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
        let pressure: number
        let volume: number
        if (kind[j] === FLUID) {
          fluidNear = true
          const density = rho[j]!
          pressure = fluidPressure(k, phase[j]!, density)
          volume = mass[j]! / density
        } else {
          // a wall's extrapolated pressure over its lattice cell (see walls.ts)
          pressure = press[j]!
          volume = mass[j]! / rho0
        }
        const weight = w * volume
        sumW += weight
        sumPW += pressure * weight
      }
    }
  }
  return fluidNear && sumW > 0 ? sumPW / sumW : 0
}
