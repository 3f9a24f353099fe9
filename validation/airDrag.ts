/**
 * Air drag (settings.airDrag, solver/sph/airDrag.ts) against the formula it implements: a block of
 * water (L along the wind, H high) at rest in a wind U, no gravity, between a free-slip floor and
 * lid H apart (the channel keeps the face H high: a free block spreads sideways under the face's
 * pressure ½ ρ_a U², as a drop in a wind flattens, and its frontal area grows), in a slab periodic
 * along y (4 particles deep). The formula gives the face ½ ρ_a C_D A |w| w with C_D = 1 and
 * A = H × the slab's depth (walls count as neighbours, so the face's rows next to them are whole
 * face), so the block's mean velocity V obeys M dV/dt = ½ ρ_a A (U − V)², M = ρ_w L H × depth:
 *   U − V(t) = U / (1 + k U t),  k = ρ_a / (2 ρ_w L).
 * The figure is the largest |V_SPH − V(t)| over the run relative to V at its end.
 */
import type { SolverConfig, SolverMaterial } from '../solver/sph/config.ts'
import { AIR_DENSITY } from '../solver/sph/airDragField.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'

const FLUID_PART = 1
const WALL_PART = 2
/** Wall layers of the floor and lid: at least the support, 2h = 3 dp. */
const WALL_LAYERS = 3
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { metric, reported, settingsFor, withSolver } from './common.ts'

const CASE = 'air drag on a water block in a wind (the drag formula)'

/**
 * Water with c0 = 15 m/s: the block reaches under 1 m/s (Ma < 0.07) and the face's pressure
 * ½ ρ_a U² = 241 Pa compresses it by 0.7 % of ρ0 c0²/γ.
 */
export const DRAG_WATER: SolverMaterial = {
  id: 1,
  density: 1000,
  gamma: 7,
  speedOfSound: 15,
  kinematicViscosity: 1e-6,
}

export interface AirDragCaseOptions extends CaseOverrides {
  /** Particles along the block's length and height. */
  particlesAcross: number
  /** Block length and height, m. */
  length?: number
  /** Wind speed, m/s. */
  windSpeed?: number
  endTimeS?: number
  /** Depth of the periodic slab in particles (4). */
  slabDepth?: number
  /** The water's speed of sound, m/s (15). */
  speedOfSound?: number
  threads?: number
  tolerance?: number
}

/** V(t) of the formula: U − U/(1 + kUt), k = ρ_a/(2 ρ_w L). */
export function blockSpeed(t: number, wind: number, length: number, density: number): number {
  const k = AIR_DENSITY / (2 * density * length)
  return wind - wind / (1 + k * wind * t)
}

/** Runs the block at one resolution; metrics: the velocity error, reported end figures. */
export async function runAirDragCase(options: AirDragCaseOptions): Promise<ValidationMetric[]> {
  const length = options.length ?? 0.04
  const n = options.particlesAcross
  const dp = length / n
  const wind = options.windSpeed ?? 20
  const endTimeS = options.endTimeS ?? 0.1
  const deep = options.slabDepth ?? 4
  // the channel runs from 4 dp before the block to 2.5 L after its start
  const channel = Math.round(2.5 * n) + 4
  const positions: number[] = []
  const kinds: number[] = []
  const partIds: number[] = []
  for (let i = -4; i < channel - 4; i++)
    for (let j = 0; j < deep; j++)
      for (let k = -WALL_LAYERS; k < n + WALL_LAYERS; k++) {
        const wall = k < 0 || k >= n
        if (!wall && (i < 0 || i >= n)) continue
        positions.push((i + 0.5) * dp, (j + 0.5) * dp, (k + 0.5) * dp)
        kinds.push(wall ? PARTICLE_KIND.wall : PARTICLE_KIND.fluid)
        partIds.push(wall ? WALL_PART : FLUID_PART)
      }
  const config: SolverConfig = {
    settings: settingsFor(dp, { gravity: [0, 0, 0], airDrag: true, ...options.settings }),
    materials: [{ ...DRAG_WATER, speedOfSound: options.speedOfSound ?? DRAG_WATER.speedOfSound }],
    particles: {
      positions: Float64Array.from(positions),
      kinds: Uint8Array.from(kinds),
      partIds: Int32Array.from(partIds),
    },
    parts: [{ id: WALL_PART, wallCondition: 'slip' }],
    airDrag: {
      min: [-1, -1, -1],
      max: [1, 1, 1],
      uniform: { timesS: [0], velocities: [wind, 0, 0] },
    },
    options: {
      periodicY: { min: 0, max: deep * dp },
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  return withSolver(config, async (solver) => {
    let worst = 0
    let speed = 0
    let expected = 0
    const samples = 20
    for (let s = 1; s <= samples; s++) {
      await solver.runUntil((endTimeS * s) / samples)
      const snap = await solver.snapshot()
      let momentum = 0
      let mass = 0
      for (let i = 0; i < snap.count; i++) {
        if (snap.kind[i] !== PARTICLE_KIND.fluid) continue
        momentum += snap.mass[i]! * snap.velocities[3 * i]!
        mass += snap.mass[i]!
      }
      speed = momentum / mass
      expected = blockSpeed(snap.timeS, wind, length, DRAG_WATER.density)
      worst = Math.max(worst, Math.abs(speed - expected))
    }
    const label = `${n} across`
    return [
      metric(
        CASE,
        `max |V − V_formula| / V(end), ${label}`,
        worst / expected,
        options.tolerance ?? 0.05,
      ),
      reported(CASE, `block speed at ${endTimeS} s, ${label}`, speed, 'm/s'),
      reported(CASE, `formula's speed at ${endTimeS} s`, expected, 'm/s'),
    ]
  })
}
