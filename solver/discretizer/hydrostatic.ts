/**
 * The initial state of the fluid: hydrostatic pressure ρ0·|g|·depth below the free surface above
 * each particle plus the part's initial pressure, and the density of that pressure by the inverse
 * Tait law with the speed of sound the solver will choose.
 */
import type { Material } from '../../domain/materials.ts'
import type { Vec3 } from '../../domain/vector.ts'
import {
  chooseSpeedOfSound,
  densityFromPressure,
  pressureFromDensity,
} from '../sph/equationOfState.ts'
import { latticeAxisOf } from './frames.ts'

/** The solver's c0 ≥ 10·√(g·H) and ≥ 10·|u0| (solver/sph DEFAULT_SOLVER_OPTIONS). */
const SOUND_SPEED_COEFFICIENT = 10
/** Particles of one column further apart than this many diameters belong to separate runs. */
const RUN_GAP_DIAMETERS = 1.5

/** The fluid particles of one part: positions[3·start …], its material and initial pressure. */
export interface FluidRange {
  start: number
  end: number
  /** Highest particle along up, m. */
  top: number
  materialId: number
  /** The part's initial pressure, Pa. */
  initialPressure: number
}

/**
 * The free surface above every fluid particle when gravity is along a lattice axis: the top of the
 * unbroken vertical run of fluid particles (gaps under 1.5 dp) in the particle's column of width dp,
 * plus dp/2, as a coordinate along `up`. Fluid parts stacked on each other share one surface (each
 * part has one column per cell whatever its lattice origin), while a shallow layer beside a deep
 * column keeps its own. Null when gravity is oblique (then each part's own top is used).
 */
export function computeColumnSurfaces(
  positions: Float64Array,
  fluidCount: number,
  dp: number,
  up: Vec3,
): Float64Array | null {
  const axis = latticeAxisOf(up)
  if (axis === -1 || fluidCount === 0) return null
  const direction = up[axis]
  const b = (axis + 1) % 3
  const c = (axis + 2) % 3
  const heights = new Float64Array(fluidCount)
  const columnsB = new Int32Array(fluidCount)
  const columnsC = new Int32Array(fluidCount)
  let minB = Infinity
  let maxB = -Infinity
  let minC = Infinity
  let maxC = -Infinity
  for (let q = 0; q < fluidCount; q++) {
    heights[q] = direction * positions[q * 3 + axis]!
    const ib = Math.floor(positions[q * 3 + b]! / dp)
    const ic = Math.floor(positions[q * 3 + c]! / dp)
    columnsB[q] = ib
    columnsC[q] = ic
    if (ib < minB) minB = ib
    if (ib > maxB) maxB = ib
    if (ic < minC) minC = ic
    if (ic > maxC) maxC = ic
  }
  const nb = maxB - minB + 1
  const nc = maxC - minC + 1
  if (nb * nc > 4 * fluidCount + 1024) return null // scattered fluid: not worth a column table
  // counting sort of the particles by column, then each column by height
  const offsets = new Int32Array(nb * nc + 1)
  const columnOf = new Int32Array(fluidCount)
  for (let q = 0; q < fluidCount; q++) {
    const column = columnsB[q]! - minB + nb * (columnsC[q]! - minC)
    columnOf[q] = column
    offsets[column + 1]!++
  }
  for (let k = 0; k < nb * nc; k++) offsets[k + 1]! += offsets[k]!
  const order = new Int32Array(fluidCount)
  const fill = offsets.slice(0, nb * nc)
  for (let q = 0; q < fluidCount; q++) order[fill[columnOf[q]!]!++] = q
  const surfaces = new Float64Array(fluidCount)
  const gap = RUN_GAP_DIAMETERS * dp
  for (let column = 0; column < nb * nc; column++) {
    const start = offsets[column]!
    const end = offsets[column + 1]!
    if (end - start > 1) order.subarray(start, end).sort((x, y) => heights[x]! - heights[y]!)
    // walk down from the top: a run ends where the next particle below is more than a gap away
    let surface = 0
    for (let e = end - 1; e >= start; e--) {
      const q = order[e]!
      if (e === end - 1 || heights[order[e + 1]!]! - heights[q]! > gap)
        surface = heights[q]! + dp / 2
      surfaces[q] = surface
    }
  }
  return surfaces
}

/**
 * Writes the initial pressure and density of the fluid particles (positions[0 … 3·fluidCount]) and
 * returns the largest speed of sound of the fluid materials as the solver will choose it.
 */
export function setHydrostaticState(input: {
  positions: Float64Array
  pressures: Float64Array
  densities: Float64Array
  fluidCount: number
  ranges: readonly FluidRange[]
  materials: ReadonlyMap<number, Material>
  up: Vec3
  dp: number
  gravityMagnitude: number
  /** Largest initial speed of the fluid, m/s. */
  maxSpeed: number
}): number {
  const { positions, pressures, densities, up, dp, ranges } = input
  let fluidLo = Infinity
  let fluidHi = -Infinity
  for (let q = 0; q < input.fluidCount; q++) {
    const s =
      up[0] * positions[q * 3]! + up[1] * positions[q * 3 + 1]! + up[2] * positions[q * 3 + 2]!
    if (s < fluidLo) fluidLo = s
    if (s > fluidHi) fluidHi = s
  }
  const fluidHeight = fluidHi > fluidLo ? fluidHi - fluidLo + dp : dp
  const columnSurfaces = computeColumnSurfaces(positions, input.fluidCount, dp, up)
  let speedOfSound = 0
  for (const range of ranges) {
    const material = input.materials.get(range.materialId)!
    const tait = {
      referenceDensity: material.density ?? 1000,
      gamma: material.gamma ?? 7,
      speedOfSound: chooseSpeedOfSound({
        materialSpeedOfSound: material.speedOfSound ?? 0,
        gravityMagnitude: input.gravityMagnitude,
        fluidHeight,
        maxInitialSpeed: input.maxSpeed,
        coefficient: SOUND_SPEED_COEFFICIENT,
      }),
    }
    speedOfSound = Math.max(speedOfSound, tait.speedOfSound)
    const partSurface = range.top + dp / 2
    const weight = tait.referenceDensity * input.gravityMagnitude
    for (let q = range.start; q < range.end; q++) {
      const s =
        up[0] * positions[q * 3]! + up[1] * positions[q * 3 + 1]! + up[2] * positions[q * 3 + 2]!
      const surface = columnSurfaces ? columnSurfaces[q]! : partSurface
      const pressure = weight * (surface - s) + range.initialPressure
      pressures[q] = pressure
      densities[q] = densityFromPressure(tait, pressure)
    }
  }
  return speedOfSound
}

/**
 * Replaces the hydrostatic state where the setup gives one: an initial distribution table's
 * pressures (density by the inverse Tait equation), and a reference output's pressures and
 * densities (a missing one derived from the other by the Tait equation; neither: hydrostatic).
 */
export function setGivenState(input: {
  pressures: Float64Array
  densities: Float64Array
  materials: ReadonlyMap<number, Material>
  speedOfSound: number
  tables: readonly { start: number; values: Float64Array; materialId: number }[]
  clouds: readonly {
    start: number
    cloud: {
      count: number
      materialId: number
      pressures: Float32Array | null
      densities: Float32Array | null
    }
  }[]
}): void {
  const { pressures, densities } = input
  const taitOf = (materialId: number) => {
    const material = input.materials.get(materialId)
    return {
      referenceDensity: material?.density ?? 1000,
      gamma: material?.gamma ?? 7,
      speedOfSound: input.speedOfSound,
    }
  }
  for (const table of input.tables) {
    const tait = taitOf(table.materialId)
    for (let i = 0; i < table.values.length; i++) {
      pressures[table.start + i] = table.values[i]!
      densities[table.start + i] = densityFromPressure(tait, table.values[i]!)
    }
  }
  for (const { start, cloud } of input.clouds) {
    const tait = taitOf(cloud.materialId)
    const given = cloud.pressures
    const rho = cloud.densities
    if (!given && !rho) continue
    for (let i = 0; i < cloud.count; i++) {
      const pressure = given ? given[i]! : pressureFromDensity(tait, rho![i]!)
      pressures[start + i] = pressure
      densities[start + i] = rho ? rho[i]! : densityFromPressure(tait, pressure)
    }
  }
}
