/**
 * The air of an air drag run (settings.airDrag with the air drag domain, spec/setup.md §3): the
 * box it fills, its velocity (one velocity over time for the kinds constant and table, a grid of
 * cells for the kind simulation), and the constants of the drag pass (airDrag.ts), derived once
 * and shared with the worker threads as plain data (the grid's frames in a SharedArrayBuffer).
 */
import type { SolverOptions } from './options.ts'
import { SolverSetupError } from './options.ts'

/** Density of air at 20 °C and 1 atm, kg/m³. */
export const AIR_DENSITY = 1.204
/** Dynamic viscosity of air at 20 °C, Pa·s. */
export const AIR_DYNAMIC_VISCOSITY = 1.81e-5
/** Drag coefficient of a particle whose neighbourhood is that of a flat surface or fuller. */
export const BULK_DRAG_COEFFICIENT = 1

/**
 * The air's velocity over time, the same everywhere in the box (kinds constant and table): rows
 * with ascending times, linear between rows and held at the end rows' values beyond them.
 */
export interface UniformAirVelocity {
  timesS: number[]
  /** vx, vy, vz per row, m/s. */
  velocities: number[]
}

/**
 * The air's velocity on a grid of cubic cells starting at the box's lower corner (kind
 * simulation): frames at ascending times, each nx·ny·nz cells of vx, vy, vz (float32, cell
 * index ix + nx (iy + ny iz)); linear in time between frames, held beyond the first and last.
 */
export interface GridAirVelocity {
  cellSize: number
  dims: [number, number, number]
  timesS: number[]
  /** frames × cells × 3 float32 values (a SharedArrayBuffer, so that threads share it). */
  frames: Float32Array
}

/** The air drag domain of a solver config (SolverConfig.airDrag). */
export interface AirDragInput {
  /** The box of air: particles outside it feel no drag. */
  min: [number, number, number]
  max: [number, number, number]
  uniform?: UniformAirVelocity
  grid?: GridAirVelocity
}

/** The drag pass's constants (part of SphConstants). */
export interface AirDragConstants {
  min: [number, number, number]
  max: [number, number, number]
  /** Uniform velocity rows (empty with a grid). */
  timesS: number[]
  velocities: number[]
  /** The grid (cellSize 0: none). */
  cellSize: number
  dims: [number, number, number]
  frames: Float32Array | null
  airDensity: number
  airViscosity: number
  /** Radius of the sphere of a particle's volume, (3/(4π))^(1/3) dp. */
  sphereRadius: number
  /** dp², the area a particle shows on a flat surface. */
  faceArea: number
  /** Neighbours within the support of a particle on a flat face of the lattice (half space). */
  faceNeighbours: number
}

/**
 * Neighbours within the support (radius `support`) of a lattice point (spacing dp) on a flat face
 * of a lattice filling the half space z ≤ 0: the point itself not counted.
 */
export function latticeFaceNeighbours(dp: number, support: number): number {
  const reach = Math.ceil(support / dp)
  const support2 = support * support
  let count = 0
  for (let i = -reach; i <= reach; i++)
    for (let j = -reach; j <= reach; j++)
      for (let k = -reach; k <= 0; k++) {
        const r2 = (i * i + j * j + k * k) * dp * dp
        if (r2 > 0 && r2 < support2) count++
      }
  return count
}

function finiteVector(values: readonly number[], what: string): [number, number, number] {
  if (values.length !== 3 || !values.every(Number.isFinite))
    throw new SolverSetupError(`The air drag domain's ${what} must be three numbers.`)
  return [values[0]!, values[1]!, values[2]!]
}

/** Checks the air drag input and derives the drag pass's constants; null without air drag. */
export function deriveAirDragConstants(
  input: AirDragInput | null | undefined,
  airDrag: boolean,
  dp: number,
  options: SolverOptions,
): AirDragConstants | null {
  if (!airDrag) return null
  if (!input) throw new SolverSetupError('Air drag needs the air drag domain.')
  const min = finiteVector(input.min, 'corner')
  const max = finiteVector(input.max, 'corner')
  if (!min.every((m, k) => m < max[k]!))
    throw new SolverSetupError("The air drag domain's size must be greater than 0.")
  const support = 2 * options.smoothingLengthFactor * dp
  const base = {
    min,
    max,
    airDensity: AIR_DENSITY,
    airViscosity: AIR_DYNAMIC_VISCOSITY,
    sphereRadius: Math.cbrt(3 / (4 * Math.PI)) * dp,
    faceArea: dp * dp,
    faceNeighbours: latticeFaceNeighbours(dp, support),
  }
  if (input.grid) {
    const { cellSize, dims, timesS, frames } = input.grid
    const cells = dims[0] * dims[1] * dims[2]
    if (!(cellSize > 0) || !dims.every((n) => Number.isInteger(n) && n > 0))
      throw new SolverSetupError("The air drag domain's grid needs a cell size greater than 0.")
    if (timesS.length === 0 || frames.length !== timesS.length * cells * 3)
      throw new SolverSetupError("The air drag domain's grid does not match its cells.")
    return { ...base, timesS, velocities: [], cellSize, dims: [...dims], frames }
  }
  const uniform = input.uniform
  if (!uniform || uniform.timesS.length === 0)
    throw new SolverSetupError('The air drag domain needs an air velocity.')
  if (uniform.velocities.length !== 3 * uniform.timesS.length)
    throw new SolverSetupError("The air drag domain's velocity table needs vx, vy, vz per row.")
  for (let r = 1; r < uniform.timesS.length; r++)
    if (!(uniform.timesS[r]! > uniform.timesS[r - 1]!))
      throw new SolverSetupError("The air drag velocity table's times must increase.")
  if (![...uniform.timesS, ...uniform.velocities].every(Number.isFinite))
    throw new SolverSetupError("The air drag velocity table's values must be numbers.")
  return {
    ...base,
    timesS: [...uniform.timesS],
    velocities: [...uniform.velocities],
    cellSize: 0,
    dims: [0, 0, 0],
    frames: null,
  }
}

/**
 * The row (or frame) before time t and the weight of the next one: linear between rows, held
 * at the end rows. Writes [index, weight] into `out`.
 */
export function locateTime(timesS: readonly number[], t: number, out: Float64Array): void {
  const last = timesS.length - 1
  if (last <= 0 || t <= timesS[0]!) {
    out[0] = 0
    out[1] = 0
    return
  }
  if (t >= timesS[last]!) {
    out[0] = last
    out[1] = 0
    return
  }
  let r = 0
  while (timesS[r + 1]! <= t) r++
  out[0] = r
  out[1] = (t - timesS[r]!) / (timesS[r + 1]! - timesS[r]!)
}

/** The uniform air velocity at time t (into out[0..2]). */
export function uniformAirVelocity(k: AirDragConstants, t: number, out: Float64Array): void {
  locateTime(k.timesS, t, out)
  const r = out[0]!
  const w = out[1]!
  const v = k.velocities
  for (let c = 0; c < 3; c++) {
    const a = v[3 * r + c]!
    out[c] = w === 0 ? a : a + w * (v[3 * r + 3 + c]! - a)
  }
}
