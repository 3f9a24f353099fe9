/**
 * Particle sets for tests, validation and benchmarks: a rectangular tank (open or closed) with
 * `wallLayers` layers of wall particles and a block of fluid inside, on a lattice of spacing dp
 * with particles at cell centres, so the wall surface lies half a spacing outside the first
 * fluid layer, at the tank's inner faces.
 */
import type { Vec3 } from '../../domain/vector.ts'
import { defaultSettings } from '../../domain/settings.ts'
import type { SimulationSettings } from '../../domain/settings.ts'
import type { SolverConfig, SolverMaterial, SolverOptions, SolverParticles } from './config.ts'
import { PARTICLE_KIND } from './particles.ts'

export const FLUID_PART_ID = 1
export const TANK_PART_ID = 2
export const WATER_ID = 1

export const WATER: SolverMaterial = {
  id: WATER_ID,
  density: 1000,
  gamma: 7,
  speedOfSound: 1,
  kinematicViscosity: 1e-6,
}

export interface TankScenario {
  /** Particle diameter (lattice spacing), m. */
  dp: number
  /** Inner size of the tank, from the origin, m. */
  tank: Vec3
  /** Fluid block inside the tank (inner coordinates), m. */
  fluidMin: Vec3
  fluidMax: Vec3
  /** A lid on top (closed box). */
  closed: boolean
  /** Wall thickness in particles; at least 2h/dp. */
  wallLayers: number
  /**
   * No side walls along y: the tank is one period of a slab periodic in y (run it with
   * options.periodicY = tankPeriodicY(scenario)).
   */
  periodicY?: boolean
}

/** The periodic y range of a scenario built with periodicY: the tank's inner depth. */
export function tankPeriodicY(s: TankScenario): { min: number; max: number } {
  return { min: 0, max: Math.round(s.tank[1] / s.dp) * s.dp }
}

/** Builds the particles of a tank scenario (fluid part FLUID_PART_ID, tank part TANK_PART_ID). */
export function buildTankParticles(s: TankScenario): SolverParticles & { fluidCount: number } {
  const positions: number[] = []
  const kinds: number[] = []
  const partIds: number[] = []
  const cells = s.tank.map((length) => Math.round(length / s.dp))
  const L = s.wallLayers
  const top = s.closed ? cells[2]! + L : cells[2]!
  const side = s.periodicY ? 0 : L
  let fluidCount = 0
  for (let k = -L; k < top; k++) {
    for (let j = -side; j < cells[1]! + side; j++) {
      for (let i = -L; i < cells[0]! + L; i++) {
        const inside = i >= 0 && i < cells[0]! && j >= 0 && j < cells[1]! && k >= 0 && k < cells[2]!
        const x = (i + 0.5) * s.dp
        const y = (j + 0.5) * s.dp
        const z = (k + 0.5) * s.dp
        if (!inside) {
          positions.push(x, y, z)
          kinds.push(PARTICLE_KIND.wall)
          partIds.push(TANK_PART_ID)
          continue
        }
        if (
          x > s.fluidMin[0] &&
          x < s.fluidMax[0] &&
          y > s.fluidMin[1] &&
          y < s.fluidMax[1] &&
          z > s.fluidMin[2] &&
          z < s.fluidMax[2]
        ) {
          positions.push(x, y, z)
          kinds.push(PARTICLE_KIND.fluid)
          partIds.push(FLUID_PART_ID)
          fluidCount++
        }
      }
    }
  }
  return {
    positions: Float64Array.from(positions),
    kinds: Uint8Array.from(kinds),
    partIds: Int32Array.from(partIds),
    fluidCount,
  }
}

/** Settings the solver supports, for a scenario with particle diameter dp. */
export function supportedSettings(
  dp: number,
  overrides: Partial<SimulationSettings> = {},
): SimulationSettings {
  return {
    ...defaultSettings(),
    particleDiameter: dp,
    shifting: 'zero',
    integrationScheme: 'runge_kutta_4',
    noRiemannWall: true,
    densityLimiter: false,
    ...overrides,
  }
}

/**
 * A dam break: a water column 0.4 × 0.6 × 0.3 (length × width × height, scaled) at x = 0 in an
 * open tank 1.6 × 0.6 × 0.6, with the particle diameter chosen so that about `fluidParticles`
 * fluid particles fill the column.
 */
export function buildDamBreak(
  fluidParticles: number,
  wallLayers = 3,
): { dp: number; scenario: TankScenario } {
  const column: Vec3 = [0.4, 0.6, 0.3]
  const volume = column[0] * column[1] * column[2]
  const dp = Math.cbrt(volume / fluidParticles)
  return {
    dp,
    scenario: {
      dp,
      tank: [1.6, 0.6, 0.6],
      fluidMin: [0, 0, 0],
      fluidMax: column,
      closed: false,
      wallLayers,
    },
  }
}

/** A ready-to-run dam-break config with about `fluidParticles` fluid particles (hydrostatic start). */
export function createDamBreakConfig(
  fluidParticles: number,
  options: Partial<SolverOptions> = {},
): SolverConfig {
  const { dp, scenario } = buildDamBreak(fluidParticles)
  return {
    settings: supportedSettings(dp),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: { hydrostaticInitialisation: true, ...options },
  }
}
