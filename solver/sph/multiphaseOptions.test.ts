/**
 * Multiphase with the settings the single-phase pass has (the rotating frame, free-slip walls in
 * the viscous sums), its sensors (each phase's own equation of state) and surface tension's
 * capillary time step limit (issues 16 and 21).
 */
import { describe, expect, it } from 'vitest'
import type { SolverConfig, SolverOptions } from './config.ts'
import { resolveOptions } from './config.ts'
import { PARTICLE_KIND } from './particles.ts'
import { createPressureSampler } from './probes.ts'
import { solverInternals } from './solverInternals.ts'
import { supportedSettings, TANK_PART_ID } from './scenarios.ts'
import {
  damBreak,
  HEAVY,
  LIGHT,
  dropInBox,
  layeredHydrostatic,
  stratifiedSlab,
  useSolvers,
} from './testScenarios.ts'
import { capillaryTimeStepLimit, limitingRule, timeStepLimits } from './timeStep.ts'

const start = useSolvers()

/**
 * The small dam break (testScenarios.ts) in a free-slip tank, one material; artificial viscosity
 * only, no pressure reference nor p_b, so that the multiphase pass with one phase is the
 * single-phase pass term for term.
 */
function swirl(multiphase: boolean, settings = {}, options: Partial<SolverOptions> = {}) {
  const base = damBreak({
    viscosity: 'artificial',
    pressureReference: 'none',
    backgroundPressure: 0,
    ...options,
  })
  const config: SolverConfig = {
    ...base,
    settings: supportedSettings(0.01, { multiphase, ...settings }),
    materials: [HEAVY],
    parts: [{ id: TANK_PART_ID, wallCondition: 'slip' }],
  }
  return config
}

const ROTATING = {
  rotatingSystem: true,
  rotationVelocity: 6,
  rotationAxis: [0.3, 0, 1] as [number, number, number],
  rotationCenter: [0.03, 0.03, 0] as [number, number, number],
}

/** Each fluid particle's (a, dρ/dt) after one force pass, by particle id. */
async function forcePass(config: SolverConfig): Promise<Float64Array> {
  const solver = await start(config)
  solver.measureInteractionPass('forces', 1)
  const internals = solverInternals(solver)
  const a = internals.arrays
  const out = new Float64Array(4 * config.particles.kinds.length)
  for (let i = 0; i < internals.count(); i++)
    if (a.kind[i] === PARTICLE_KIND.fluid)
      out.set([a.accX[i]!, a.accY[i]!, a.accZ[i]!, a.drho[i]!], 4 * a.particleId[i]!)
  return out
}

/** The largest difference of |a| over the largest |a| of `reference`. */
function accelerationDifference(reference: Float64Array, other: Float64Array): number {
  let largest = 0
  let worst = 0
  for (let o = 0; o < reference.length; o += 4) {
    const r = [reference[o]!, reference[o + 1]!, reference[o + 2]!]
    largest = Math.max(largest, Math.hypot(...r))
    worst = Math.max(
      worst,
      Math.hypot(r[0]! - other[o]!, r[1]! - other[o + 1]!, r[2]! - other[o + 2]!),
    )
  }
  return worst / largest
}

describe('multiphase with the single-phase options', () => {
  it.each([
    ['a rotating frame (Coriolis, centrifugal)', ROTATING, {}],
    ["freeSlipViscosity 'mirror'", {}, { freeSlipViscosity: 'mirror' as const }],
  ])('takes %s as the single-phase pass does', async (_, settings, options) => {
    const single = await forcePass(swirl(false, settings, options))
    const multi = await forcePass(swirl(true, settings, options))
    expect(accelerationDifference(single, multi)).toBeLessThan(1e-9)
    // what the setting changes in the single-phase pass, which the multiphase pass must not drop
    const without = await forcePass(swirl(false))
    expect(accelerationDifference(single, without)).toBeGreaterThan(1e-3)
  })
})

/** stratifiedSlab: 500 kg/m³ over 1000 kg/m³, each layer 8 particles (dp 1 cm) deep. */
function stratified(): { config: SolverConfig; depth: number } {
  const dp = 0.01
  const depth = 8 * dp
  const { particles, periodicY } = stratifiedSlab(dp, depth, LIGHT.id, HEAVY.id)
  const config: SolverConfig = {
    settings: supportedSettings(dp, { multiphase: true }),
    materials: [LIGHT, HEAVY],
    particles,
    options: { periodicY },
  }
  return { config, depth }
}

describe('multiphase sensors', () => {
  it('read each phase with its own equation of state: a stratified column at rest', async () => {
    const { config, depth } = stratified()
    const solver = await start(config)
    // mid-depth of each layer, 4 dp (beyond the support, 3 dp) from the interface and the surface
    const points = [0.5 * depth, 1.5 * depth].map((z) => [0.04, 0.015, z] as const)
    const sampler = createPressureSampler(solver, points)
    solver.runUntil(0.05)
    sampler.sample()
    for (const [k, point] of points.entries()) {
      const expected = layeredHydrostatic(point[2], depth)
      expect(Math.abs(sampler.values[k]!.at(-1)! / expected - 1)).toBeLessThan(0.03)
    }
  }, 120_000)
})

/**
 * A drop of radius 3 dp (dp 1 mm, 500 kg/m³) in a closed box 10 dp across of the heavy fluid, no
 * gravity, at rest, surface tension σ: with σ = 5 N/m the capillary limit
 * 0.25 √(750 kg/m³ · (1.5 mm)³ / (2π · 5 N/m)) = 71 µs is under the acoustic one.
 */
function drop(sigma: number): SolverConfig {
  const dp = 0.001
  const { particles, materialIds } = dropInBox(dp, HEAVY.id, LIGHT.id)
  return {
    settings: supportedSettings(dp, {
      multiphase: true,
      surfaceTension: sigma > 0,
      sigma: sigma > 0 ? sigma : null,
      gravity: [0, 0, 0],
    }),
    materials: [HEAVY, LIGHT],
    particles: { ...particles, materialIds },
    options: { threads: 1 },
  }
}

describe('surface tension time step', () => {
  it('takes the capillary limit 0.25 √(ρ̄ h³/(2πσ)) where it is the smallest', async () => {
    const config = drop(5)
    const solver = await start(config)
    const k = solverInternals(solver).constants
    const capillary = capillaryTimeStepLimit(k)
    expect(capillary).toBeCloseTo(0.25 * Math.sqrt((750 * 0.0015 ** 3) / (2 * Math.PI * 5)), 12)
    for (let s = 0; s < 3; s++) expect(solver.step().dtS).toBe(capillary)
    // the acoustic limit alone would give a step twice as long or more
    const rates = { maxAcceleration: 0, maxViscous: 0 }
    const limits = { force: 0, acoustic: 0, viscous: 0, capillary: 0 }
    const options = resolveOptions(config.options)
    timeStepLimits(k, options, 'rk4', rates, limits)
    expect(limits.acoustic).toBeGreaterThan(2 * capillary)
    expect(limitingRule(limits)).toBe('dt.capillary')
  })

  it('has no capillary limit without σ: the step is the acoustic one', async () => {
    const config = drop(0)
    const solver = await start(config)
    const k = solverInternals(solver).constants
    expect(capillaryTimeStepLimit(k)).toBe(Infinity)
    const limits = { force: 0, acoustic: 0, viscous: 0, capillary: 0 }
    const rates = { maxAcceleration: 0, maxViscous: 0 }
    timeStepLimits(k, resolveOptions(config.options), 'rk4', rates, limits)
    expect(solver.step().dtS).toBeGreaterThan(0.9 * limits.acoustic)
  })
})
