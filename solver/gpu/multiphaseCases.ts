/**
 * The GPU tests' multiphase cases (multiphaseGpu.test.ts): the small swirling dam break of
 * solver/sph/testScenarios.ts with two fluids (also in a rotating frame with free-slip walls), a drop with
 * surface tension in a closed box, a stratified column at rest and a drop whose step the capillary
 * limit sets.
 */
import type { SolverConfig, SolverMaterial } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { supportedSettings, TANK_PART_ID, WATER } from '../sph/scenarios.ts'
import { createRandom } from '../../domain/random.ts'
import { withRotation } from './cpuAgreement.ts'
import { damBreak, dropInBox, stratifiedSlab } from '../sph/testScenarios.ts'

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
 * A drop of radius 3 dp (500 kg/m³) at the centre of a closed box 10 dp wide full of the heavy
 * fluid (dp 1 cm, 3 wall layers), no gravity, σ = 0.5 N/m, p_b = 20 Pa; the fluid swirls.
 */
export function drop(): SolverConfig {
  const dp = 0.01
  const { particles, materialIds } = dropInBox(dp, HEAVY.id, LIGHT.id)
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

/**
 * A light layer (500 kg/m³) over a heavy one (1000 kg/m³), each LAYER_DEPTH deep, in an open
 * slab tank periodic along y, started from their hydrostatic pressure (stratifiedSlab).
 */
export function stratifiedColumn(): SolverConfig {
  const dp = 0.01
  const { particles, periodicY } = stratifiedSlab(dp, LAYER_DEPTH, LIGHT.id, HEAVY.id)
  return {
    settings: supportedSettings(dp, { multiphase: true }),
    materials: [{ ...LIGHT, density: 500 }, HEAVY],
    particles,
    options: { periodicY, threads: 1 },
  }
}

/**
 * A drop of radius 3 dp (dp 1 mm, 500 kg/m³) at rest in a closed box 10 dp across of the heavy
 * fluid, no gravity, σ = 5 N/m: the capillary limit (71 µs) is under the acoustic one.
 */
export function capillaryDrop(): SolverConfig {
  const dp = 0.001
  const { particles, materialIds } = dropInBox(dp, HEAVY.id, LIGHT.id)
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
