/**
 * An open channel for tests and validation (openBoundary.ts): a 2D slab periodic along y, the
 * fluid between a floor and a lid (z from 0 to H), an inlet at x = 0 (velocity U into +x) and an
 * outlet at x = L (pressure p_out), each with its buffer of `bufferLayers` lattice layers behind
 * the plane. Floor and lid run past both buffers by a wall thickness, so that the buffers' fluid
 * neighbours see walls too. Particles at cell centres (the wall surface halfway between layers).
 */
import { defaultSettings } from '../../domain/settings.ts'
import type { SimulationSettings } from '../../domain/settings.ts'
import type { SolverConfig, SolverMaterial, SolverOptions } from './config.ts'
import type { SolverOpenBoundary } from './openBoundary.ts'
import { PARTICLE_KIND } from './particles.ts'

export const CHANNEL_FLUID_ID = 1
export const CHANNEL_WALL_ID = 2
export const CHANNEL_INLET_ID = 3
export const CHANNEL_OUTLET_ID = 4

export interface OpenChannel {
  /** Particles across the height H. */
  particlesAcross: number
  /** Height H, m. */
  height: number
  /** Length L between inlet and outlet planes, in heights. */
  lengthInHeights: number
  /** Depth of the periodic slab, in particles. */
  depthParticles: number
  /** Inlet speed U, m/s. */
  speed: number
  /** The channel's fluid (and the outlet buffer) at the start, along +x, m/s; default U. */
  initialSpeed?: number
  /** The inlet's speed ramps linearly from 0 to U over this time (a table profile), s; default 0. */
  inletRampS?: number
  /** Outlet pressure, Pa. */
  outletPressure: number
  /** Walls free-slip ('slip': a plug flow) or no-slip. */
  walls: 'slip' | 'no_slip'
  material: SolverMaterial
  bufferLayers?: number
  wallLayers?: number
}

/** The channel's config (settings: the defaults of a new simulation, no gravity). */
export function buildOpenChannel(
  c: OpenChannel,
  settings: Partial<SimulationSettings> = {},
  options: Partial<SolverOptions> = {},
): SolverConfig {
  const dp = c.height / c.particlesAcross
  const nz = c.particlesAcross
  const nx = Math.round(c.lengthInHeights * c.particlesAcross)
  const ny = c.depthParticles
  const buffer = c.bufferLayers ?? 4
  const wall = c.wallLayers ?? 3
  const positions: number[] = []
  const kinds: number[] = []
  const partIds: number[] = []
  const velocities: number[] = []
  const start = c.initialSpeed ?? c.speed
  const add = (i: number, j: number, k: number, kind: number, part: number) => {
    positions.push((i + 0.5) * dp, (j + 0.5) * dp, (k + 0.5) * dp)
    kinds.push(kind)
    partIds.push(part)
    const inlet = c.inletRampS ? 0 : c.speed
    const u = kind === PARTICLE_KIND.wall ? 0 : part === CHANNEL_INLET_ID ? inlet : start
    velocities.push(u, 0, 0)
  }
  for (let k = -wall; k < nz + wall; k++)
    for (let j = 0; j < ny; j++)
      for (let i = -buffer - wall; i < nx + buffer + wall; i++) {
        if (k < 0 || k >= nz) add(i, j, k, PARTICLE_KIND.wall, CHANNEL_WALL_ID)
        else if (i < -buffer || i >= nx + buffer) continue
        else if (i < 0) add(i, j, k, PARTICLE_KIND.fluid, CHANNEL_INLET_ID)
        else if (i >= nx) add(i, j, k, PARTICLE_KIND.fluid, CHANNEL_OUTLET_ID)
        else add(i, j, k, PARTICLE_KIND.fluid, CHANNEL_FLUID_ID)
      }
  const length = nx * dp
  const thickness = buffer * dp
  const openBoundaries: SolverOpenBoundary[] = [
    {
      partId: CHANNEL_INLET_ID,
      direction: 'inflow',
      origin: [0, 0, 0],
      normal: [1, 0, 0],
      thickness,
      profile: c.inletRampS
        ? {
            timesS: [0, c.inletRampS],
            velocities: [
              [0, 0, 0],
              [c.speed, 0, 0],
            ],
            pressures: [0, 0],
          }
        : { timesS: [0], velocities: [[c.speed, 0, 0]], pressures: [0] },
    },
    {
      partId: CHANNEL_OUTLET_ID,
      direction: 'outflow',
      origin: [length, 0, 0],
      normal: [-1, 0, 0],
      thickness,
      profile: { timesS: [0], velocities: [[0, 0, 0]], pressures: [c.outletPressure] },
    },
  ]
  return {
    settings: {
      ...defaultSettings(),
      particleDiameter: dp,
      gravity: [0, 0, 0],
      ...settings,
    },
    materials: [c.material],
    particles: {
      positions: Float64Array.from(positions),
      kinds: Uint8Array.from(kinds),
      partIds: Int32Array.from(partIds),
      velocities: Float64Array.from(velocities),
    },
    parts: [{ id: CHANNEL_WALL_ID, wallCondition: c.walls }],
    openBoundaries,
    options: { periodicY: { min: 0, max: ny * dp }, ...options },
  }
}
