/**
 * The small cases that the CPU tests (solver/sph) and the GPU tests (solver/gpu) share, and a test
 * file's list of solvers to dispose of. Test code only: it registers vitest hooks.
 */
import { afterEach } from 'vitest'
import { sliceFrame } from '../../domain/periodic.ts'
import type { SimulationSettings } from '../../domain/settings.ts'
import type { SolverConfig, SolverMaterial, SolverOptions } from './config.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { RotationalSlice } from './rotationalSlice.ts'
import { insideSlice } from './rotationalSlice.ts'
import type { Solver } from './SphSolver.ts'
import { createSolver } from './SphSolver.ts'
import { buildTankParticles, supportedSettings, tankPeriodicY, WATER } from './scenarios.ts'

/** A test file's solver factory: every solver it starts is disposed of after each test. */
export function useSolvers(): (config: SolverConfig) => Promise<Solver> {
  const solvers: Solver[] = []
  afterEach(async () => {
    await Promise.all(solvers.splice(0).map((solver) => solver.dispose()))
  })
  return async (config) => {
    const solver = await createSolver(config)
    solvers.push(solver)
    return solver
  }
}

/** The CPU multiphase tests' two fluids: water (id 4) and a lighter, more viscous one (id 7). */
export const HEAVY: SolverMaterial = { ...WATER, id: 4 }
export const LIGHT: SolverMaterial = { ...HEAVY, id: 7, density: 500, kinematicViscosity: 1e-5 }

/**
 * A small dam break: a column 6 × 6 × 8 particles (dp 1 cm) at one end of a tank 12 × 6 × 12
 * with three wall layers (about 2,000 particles, most of them walls); the fluid moves (a swirl)
 * so that viscosity and the walls' no-slip work too.
 */
export function damBreak(options: Partial<SolverOptions> = {}): SolverConfig {
  const dp = 0.01
  const particles = buildTankParticles({
    dp,
    tank: [0.12, 0.06, 0.12],
    fluidMin: [0, 0, 0],
    fluidMax: [0.06, 0.06, 0.08],
    closed: false,
    wallLayers: 3,
  })
  const n = particles.kinds.length
  const velocities = new Float64Array(3 * n)
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    const x = particles.positions[3 * i]!
    const z = particles.positions[3 * i + 2]!
    velocities[3 * i] = 0.3 * Math.sin(60 * z)
    velocities[3 * i + 2] = -0.3 * Math.sin(50 * x)
  }
  return {
    settings: supportedSettings(dp),
    materials: [WATER],
    particles: { ...particles, velocities },
    options: { hydrostaticInitialisation: true, threads: 1, ...options },
  }
}

/**
 * A drop of radius 3 dp of material `light` at the centre of a closed box 10 dp across full of
 * material `heavy` (3 wall layers): the particles and their material ids.
 */
export function dropInBox(dp: number, heavy: number, light: number) {
  const box = 10 * dp
  const particles = buildTankParticles({
    dp,
    tank: [box, box, box],
    fluidMin: [0, 0, 0],
    fluidMax: [box, box, box],
    closed: true,
    wallLayers: 3,
  })
  const materialIds = new Int32Array(particles.kinds.length).fill(heavy)
  for (let i = 0; i < materialIds.length; i++) {
    const [x, y, z] = [0, 1, 2].map((c) => particles.positions[3 * i + c]! - box / 2)
    if (particles.kinds[i] === PARTICLE_KIND.fluid && Math.hypot(x!, y!, z!) < 3 * dp)
      materialIds[i] = light
  }
  return { particles, materialIds }
}

/** ρ_k g times each layer's depth above z (Pa): 500 kg/m³ over 1000 kg/m³, each `depth` deep. */
export function layeredHydrostatic(z: number, depth: number): number {
  const g = 9.81
  return z > depth ? 500 * g * (2 * depth - z) : 500 * g * depth + 1000 * g * (depth - z)
}

/**
 * An open slab tank periodic along y (8 × 3 dp, 3 wall layers) with a layer of material `light`
 * over one of `heavy`, each `depth` deep, started from layeredHydrostatic's pressure: the
 * particles, their material ids and pressures, and the periodic option.
 */
export function stratifiedSlab(dp: number, depth: number, light: number, heavy: number) {
  const scenario = {
    dp,
    tank: [8 * dp, 3 * dp, 2 * depth + 4 * dp] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [8 * dp, 3 * dp, 2 * depth] as [number, number, number],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  const n = particles.kinds.length
  const materialIds = new Int32Array(n).fill(heavy)
  const pressures = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    const z = particles.positions[3 * i + 2]!
    if (z > depth) materialIds[i] = light
    pressures[i] = layeredHydrostatic(z, depth)
  }
  return { particles: { ...particles, materialIds, pressures }, periodicY: tankPeriodicY(scenario) }
}

/**
 * Cell (i, j, k) of a lattice of dp (refinement tests): one particle of dp at its centre, or,
 * `split`, 8 of dp/2 on a cube stencil; `add` takes each position and spacing.
 */
export function addCell(
  add: (x: number, y: number, z: number, spacing: number) => void,
  dp: number,
  i: number,
  j: number,
  k: number,
  split: boolean,
): void {
  if (!split) {
    add((i + 0.5) * dp, (j + 0.5) * dp, (k + 0.5) * dp, dp)
    return
  }
  for (let c = 0; c < 8; c++)
    add(
      (i + 0.25 + 0.5 * (c & 1)) * dp,
      (j + 0.25 + 0.5 * ((c >> 1) & 1)) * dp,
      (k + 0.25 + 0.5 * ((c >> 2) & 1)) * dp,
      dp / 2,
    )
}

/** A slice of `angle` degrees about a vertical axis just off the origin, turned by `rotation`°. */
export function sectorSlice(angle: number, rotation = 0): RotationalSlice {
  return sliceFrame({
    center: [0.001, -0.002, 0],
    axis: [0, 0, 2],
    sliceRotation: rotation,
    sliceAngle: angle,
  })!
}

export interface SectorOptions {
  dp: number
  /** Layers of water above the floor (the floor is 3 layers thick). */
  layers: number
  /** Seed of the sites' jitter (a tenth of dp), so that no two distances tie. */
  seed: number
  /** Whether the heights are jittered too. */
  jitterZ: boolean
  /** Solid-body spin of the water, rad/s. */
  spin: number
  threads?: number
  shifting?: SimulationSettings['shifting']
}

/** Water in a sector of a cylinder (radius 0.06 m) of slice `s` on a floor 3 layers thick. */
export function sectorConfig(s: RotationalSlice, o: SectorOptions): SolverConfig {
  const { dp } = o
  const positions: number[] = []
  const kinds: number[] = []
  const partIds: number[] = []
  const velocities: number[] = []
  let seed = o.seed
  const jitter = () => {
    seed = (seed * 16807) % 2147483647
    return (seed / 2147483647 - 0.5) * 0.1 * dp
  }
  for (let k = -3; k < o.layers; k++)
    for (let j = -8; j < 8; j++)
      for (let i = -8; i < 8; i++) {
        const x = (i + 0.5) * dp + jitter()
        const y = (j + 0.5) * dp + jitter()
        const z = (k + 0.5) * dp + (o.jitterZ ? jitter() : 0)
        const rx = x - s.center[0]
        const ry = y - s.center[1]
        if (Math.hypot(rx, ry) > 0.06 + (k < 0 ? 3 * dp : 0) || !insideSlice(s, x, y, z)) continue
        const fluid = k >= 0
        positions.push(x, y, z)
        kinds.push(fluid ? PARTICLE_KIND.fluid : PARTICLE_KIND.wall)
        partIds.push(fluid ? 1 : 2)
        velocities.push(fluid ? -o.spin * ry : 0, fluid ? o.spin * rx : 0, 0)
      }
  return {
    settings: supportedSettings(dp, { shifting: o.shifting ?? 'lyu21', noRiemannWall: false }),
    materials: [WATER],
    particles: {
      positions: Float64Array.from(positions),
      kinds: Uint8Array.from(kinds),
      partIds: Int32Array.from(partIds),
      velocities: Float64Array.from(velocities),
    },
    options: { hydrostaticInitialisation: true, threads: o.threads ?? 1 },
    rotationalPeriodic: s,
  }
}
