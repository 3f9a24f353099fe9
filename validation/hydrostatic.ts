/**
 * A tank of water at rest: the pressure must be hydrostatic, p = ρ0 g (surface − z).
 */
import type { SolverConfig } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import { buildTankParticles, WATER } from '../solver/sph/scenarios.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { GRAVITY, metric, reported, settingsFor, waterLevel, withSolver } from './common.ts'

const CASE = 'hydrostatic tank'

export interface HydrostaticOptions extends CaseOverrides {
  /** Particle diameter, m. */
  dp: number
  /** Water depth, m. */
  depth: number
  /**
   * Simulated time, s; pressures are averaged over its second half (10 samples: several periods
   * of the column's acoustic oscillation 4H/c0, about 0.06 s for 0.2 m).
   */
  endTimeS: number
  threads?: number
  /** Tolerances: relative pressure error, surface offset in dp. */
  pressureTolerance?: number
  surfaceTolerance?: number
}

export interface HydrostaticResult {
  metrics: ValidationMetric[]
  /** Per centre-line layer: depth below the mean surface, mean pressure, ρ0 g depth. */
  profile: { depthM: number; pressurePa: number; expectedPa: number }[]
}

/**
 * A square tank 10 dp wide filled to `depth` (started with hydrostatic pressure). Checks the
 * pressure on the centre line (the particles within dp of it, averaged per layer and over the
 * second half of the run) deeper than 2h against ρ0 g (surface − z), the free surface (a wave
 * gauge on the centre line: where the kernel sum falls to ½) against the fill height, and the
 * pressure a probe reads at the middle of the floor against ρ0 g depth.
 */
export async function runHydrostaticCase(options: HydrostaticOptions): Promise<HydrostaticResult> {
  const { dp, depth, endTimeS } = options
  const width = 10 * dp
  const scenario = {
    dp,
    tank: [width, width, depth + 6 * dp] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [width, width, depth] as [number, number, number],
    closed: false,
    wallLayers: 3,
  }
  const config: SolverConfig = {
    settings: settingsFor(dp, options.settings),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: {
      hydrostaticInitialisation: true,
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  return withSolver(config, async (solver) => {
    const { h, kernelAlpha } = solver.describe().constants
    const kernel = { h, alpha: kernelAlpha }
    const rho0 = WATER.density
    const samples = 10
    // centre-line particles binned by layer: mean pressure and height over particles and samples
    const bins = new Map<number, { pressure: number; z: number; count: number }>()
    let surface = 0
    let floor = 0
    // the floor's pressure at the end of each stretch: the sampler's last sample
    const floorSampler = solver.pressureSampler([[width / 2, width / 2, 0]])
    for (let k = 0; k < samples; k++) {
      await solver.runUntil(endTimeS * (0.5 + (0.5 * (k + 1)) / samples), floorSampler)
      floor += floorSampler.values[0]!.at(-1)! / samples
      const snapshot = await solver.snapshot()
      surface += waterLevel(snapshot, width / 2, width / 2, kernel) / samples
      for (let i = 0; i < snapshot.count; i++) {
        if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
        const x = snapshot.positions[3 * i]!
        const y = snapshot.positions[3 * i + 1]!
        if (Math.abs(x - width / 2) > dp || Math.abs(y - width / 2) > dp) continue
        const z = snapshot.positions[3 * i + 2]!
        const layer = Math.floor(z / dp)
        const bin = bins.get(layer) ?? { pressure: 0, z: 0, count: 0 }
        bin.pressure += snapshot.pressure[i]!
        bin.z += z
        bin.count++
        bins.set(layer, bin)
      }
    }
    const profile: HydrostaticResult['profile'] = []
    let worst = 0
    for (const bin of bins.values()) {
      const z = bin.z / bin.count
      const pressure = bin.pressure / bin.count
      const depthM = surface - z
      const expected = rho0 * GRAVITY * depthM
      profile.push({ depthM, pressurePa: pressure, expectedPa: expected })
      if (depthM > 2 * h) worst = Math.max(worst, Math.abs(pressure - expected) / expected)
    }
    profile.sort((a, b) => a.depthM - b.depthM)
    const res = `dp ${dp} m`
    return {
      metrics: [
        metric(
          CASE,
          `${res}: max |p − ρgh| / ρgh on the centre line, depth > 2h`,
          worst,
          options.pressureTolerance ?? 0.01,
          `depth ${depth} m, ${profile.length} centre-line layers, mean of t = ${endTimeS / 2}–${endTimeS} s`,
        ),
        metric(
          CASE,
          `${res}: floor pressure probe vs ρ g depth, relative error`,
          floor / (rho0 * GRAVITY * depth) - 1,
          options.pressureTolerance ?? 0.01,
        ),
        metric(
          CASE,
          `${res}: free surface − fill height (in dp)`,
          (surface - depth) / dp,
          options.surfaceTolerance ?? 1,
        ),
        reported(CASE, `${res}: smoothing length h (m)`, h),
      ],
      profile,
    }
  })
}
