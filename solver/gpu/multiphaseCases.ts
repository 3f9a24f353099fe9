/**
 * The GPU tests' multiphase cases (multiphaseGpu.test.ts): the small swirling dam break of
 * cpuAgreement.ts with two fluids (also in a rotating frame with free-slip walls), a drop with
 * surface tension in a closed box, a stratified column at rest and a drop whose step the capillary
 * limit sets.
 */
import type { SolverConfig, SolverMaterial } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import {
  buildTankParticles,
  supportedSettings,
  TANK_PART_ID,
  tankPeriodicY,
  WATER,
} from '../sph/scenarios.ts'
import { createRandom } from '../../domain/random.ts'
import { damBreak, withRotation } from './cpuAgreement.ts'

/** μ = 0.2 Pa s (heavy) and 0.01 Pa s (light): harmonic mean 0.019, arithmetic 0.105. */
const HEAVY: SolverMaterial = { ...WATER, id: 1, kinematicViscosity: 2e-4 }
const LIGHT: SolverMaterial = { ...WATER, id: 2, density: 100, kinematicViscosity: 1e-4 }

/**
 * Each fluid particle moved by up to 1 % of dp along each axis: on the lattice pairs stand
 * exactly at the support (3 dp), where float32 and double round to either side of it and the
 * local minimum reference's p_min would take a neighbour on one backend only.
 */
function jittered(config: SolverConfig): SolverConfig {
  const { kinds } = config.particles
  const positions = Float64Array.from(config.particles.positions)
  const random = createRandom(13)
  const dp = config.settings.particleDiameter!
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] === PARTICLE_KIND.fluid)
      for (let c = 0; c < 3; c++) positions[3 * i + c]! += 0.01 * dp * (2 * random() - 1)
  return { ...config, particles: { ...config.particles, positions } }
}

/**
 * The dam break, the column's upper half (z > 4 cm) the light fluid. With Riemann walls also a
 * background pressure of 2 Pa: unphysical with a free surface (NUMERICS.md), but there the
 * kernel's consistency error is large, so p_b shows (in a full box it barely does).
 */
export function layered(riemann = false): SolverConfig {
  const base = damBreak()
  const { kinds, positions } = base.particles
  const materialIds = new Int32Array(kinds.length).fill(HEAVY.id)
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] === PARTICLE_KIND.fluid && positions[3 * i + 2]! > 0.04) materialIds[i] = LIGHT.id
  return jittered({
    ...base,
    settings: { ...base.settings, multiphase: true, noRiemannWall: !riemann },
    materials: [HEAVY, LIGHT],
    particles: { ...base.particles, materialIds },
    options: { ...base.options, backgroundPressure: riemann ? 2 : 0 },
  })
}

/**
 * A drop of radius 3 dp of the light fluid (LIGHT.id) at the centre of a closed box 10 dp across
 * full of the heavy one (3 wall layers): the particles and their material ids.
 */
function dropInBox(dp: number) {
  const box = 10 * dp
  const particles = buildTankParticles({
    dp,
    tank: [box, box, box],
    fluidMin: [0, 0, 0],
    fluidMax: [box, box, box],
    closed: true,
    wallLayers: 3,
  })
  const materialIds = new Int32Array(particles.kinds.length).fill(HEAVY.id)
  for (let i = 0; i < materialIds.length; i++) {
    const [x, y, z] = [0, 1, 2].map((c) => particles.positions[3 * i + c]! - box / 2)
    if (particles.kinds[i] === PARTICLE_KIND.fluid && Math.hypot(x!, y!, z!) < 3 * dp)
      materialIds[i] = LIGHT.id
  }
  return { particles, materialIds }
}

/**
 * A drop of radius 3 dp (500 kg/m³) at the centre of a closed box 10 dp wide full of the heavy
 * fluid (dp 1 cm, 3 wall layers), no gravity, σ = 0.5 N/m, p_b = 20 Pa; the fluid swirls.
 */
export function drop(): SolverConfig {
  const dp = 0.01
  const { particles, materialIds } = dropInBox(dp)
  const { kinds, positions } = particles
  const velocities = new Float64Array(3 * kinds.length)
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== PARTICLE_KIND.fluid) continue
    velocities[3 * i] = 0.05 * Math.sin(60 * positions[3 * i + 2]!)
    velocities[3 * i + 2] = -0.05 * Math.sin(50 * positions[3 * i]!)
  }
  return jittered({
    settings: supportedSettings(dp, {
      gravity: [0, 0, 0],
      multiphase: true,
      surfaceTension: true,
      sigma: 0.5,
    }),
    materials: [HEAVY, { ...LIGHT, density: 500 }],
    particles: { ...particles, materialIds, velocities },
    options: { threads: 1, backgroundPressure: 20 },
  })
}

/**
 * layered() in a frame turning at 6 rad/s about a tilted axis, its tank's walls free-slip and
 * mirrored into the viscous sums (freeSlipViscosity 'mirror'): the single-phase pass's terms.
 */
export function layeredRotatingFreeSlip(): SolverConfig {
  const base = withRotation(layered(), [0.3, 0, 1], [0.03, 0.03, 0])
  return {
    ...base,
    parts: [{ id: TANK_PART_ID, wallCondition: 'slip' }],
    options: { ...base.options, freeSlipViscosity: 'mirror' },
  }
}

/** The stratified column's layer depth (m): 8 particles of 1 cm. */
export const LAYER_DEPTH = 0.08

/** ρ_k g times each layer's depth above z (Pa): 500 kg/m³ over 1000 kg/m³. */
export function layeredHydrostatic(z: number): number {
  const d = LAYER_DEPTH
  return z > d ? 500 * 9.81 * (2 * d - z) : 500 * 9.81 * d + 1000 * 9.81 * (d - z)
}

/**
 * A light layer (500 kg/m³) over a heavy one (1000 kg/m³), each LAYER_DEPTH deep, in an open
 * slab tank periodic along y, started from their hydrostatic pressure.
 */
export function stratifiedColumn(): SolverConfig {
  const dp = 0.01
  const scenario = {
    dp,
    tank: [8 * dp, 3 * dp, 2 * LAYER_DEPTH + 4 * dp] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [8 * dp, 3 * dp, 2 * LAYER_DEPTH] as [number, number, number],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  const n = particles.kinds.length
  const materialIds = new Int32Array(n).fill(HEAVY.id)
  const pressures = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    const z = particles.positions[3 * i + 2]!
    if (z > LAYER_DEPTH) materialIds[i] = LIGHT.id
    pressures[i] = layeredHydrostatic(z)
  }
  return {
    settings: supportedSettings(dp, { multiphase: true }),
    materials: [{ ...LIGHT, density: 500 }, HEAVY],
    particles: { ...particles, materialIds, pressures },
    options: { periodicY: tankPeriodicY(scenario), threads: 1 },
  }
}

/**
 * A drop of radius 3 dp (dp 1 mm, 500 kg/m³) at rest in a closed box 10 dp across of the heavy
 * fluid, no gravity, σ = 5 N/m: the capillary limit (71 µs) is under the acoustic one.
 */
export function capillaryDrop(): SolverConfig {
  const dp = 0.001
  const { particles, materialIds } = dropInBox(dp)
  return {
    settings: supportedSettings(dp, {
      gravity: [0, 0, 0],
      multiphase: true,
      surfaceTension: true,
      sigma: 5,
    }),
    materials: [HEAVY, { ...LIGHT, density: 500 }],
    particles: { ...particles, materialIds },
    options: { threads: 1 },
  }
}
