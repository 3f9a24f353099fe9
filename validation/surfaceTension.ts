/**
 * Surface tension: the Laplace pressure of a drop at rest. A cylinder of one fluid (radius R)
 * inside another fills a closed square box without gravity, in a slab periodic along the axis
 * (a 2D case): at rest the pressure inside exceeds the outside by σ/R (Laplace; the 2D-slab
 * cylinder's curvature is 1/R).
 */
import type { SolverConfig, SolverMaterial } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import { buildTankParticles, tankPeriodicY } from '../solver/sph/scenarios.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { metric, reported, settingsFor, withSolver } from './common.ts'

const CASE = 'Laplace pressure of a drop'

/** The surrounding fluid and the drop: equal densities (Adami et al. 2010's static drop). */
export const OUTER_FLUID: SolverMaterial = {
  id: 1,
  density: 1000,
  gamma: 7,
  speedOfSound: 2,
  kinematicViscosity: 2e-4,
}
export const DROP_FLUID: SolverMaterial = { ...OUTER_FLUID, id: 2 }

export interface LaplaceOptions extends CaseOverrides {
  /** Particles across the box (the drop's diameter is half the box). */
  across: number
  /** Box side, m. */
  box?: number
  /** σ, N/m. */
  sigma?: number
  /** Simulated time, s; pressures are averaged over its second half. */
  endTimeS?: number
  /** Drop density, kg/m³ (default that of the surrounding fluid). */
  dropDensity?: number
  threads?: number
  tolerance?: number
}

export interface LaplaceResult {
  metrics: ValidationMetric[]
  /** Measured and expected pressure jump, Pa. */
  jumpPa: number
  expectedPa: number
  /** The drop's radius from its volume (mean over the samples), m. */
  dropRadius: number
  /** Largest fluid speed at the end (spurious currents), m/s. */
  maxSpeed: number
}

/**
 * The drop's pressure (particles deeper than 2h inside the interface) less the outside's
 * (farther than 2h outside it and 2h from the walls), averaged over particles and over 10
 * snapshots in the second half of the run, against σ/R with R the radius of the drop's own
 * cross-section, Σ m/ρ over its particles / slab depth = πR² (the lattice's staircase circle
 * holds 0.5 % more or less area than π R_set², and the drop compresses by Δp/c²; R_set, the
 * radius it was cut with, is reported beside it).
 */
export async function runLaplaceCase(options: LaplaceOptions): Promise<LaplaceResult> {
  const box = options.box ?? 0.1
  const dp = box / options.across
  const sigma = options.sigma ?? 0.5
  const endTimeS = options.endTimeS ?? 0.2
  const radius = box / 4
  const depth = 4 * dp
  const scenario = {
    dp,
    tank: [box, depth, box] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [box, depth, box] as [number, number, number],
    closed: true,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  const n = particles.kinds.length
  const materialIds = new Int32Array(n)
  const centre = box / 2
  const drop = (x: number, z: number) => Math.hypot(x - centre, z - centre) < radius
  for (let i = 0; i < n; i++) {
    const inside = drop(particles.positions[3 * i]!, particles.positions[3 * i + 2]!)
    materialIds[i] = particles.kinds[i] === PARTICLE_KIND.fluid && inside ? DROP_FLUID.id : 1
  }
  const dropFluid = { ...DROP_FLUID, density: options.dropDensity ?? DROP_FLUID.density }
  const config: SolverConfig = {
    settings: settingsFor(dp, {
      gravity: [0, 0, 0],
      multiphase: true,
      surfaceTension: true,
      sigma,
      densityLimiter: false,
      noRiemannWall: true,
      ...options.settings,
    }),
    materials: [OUTER_FLUID, dropFluid],
    particles: { ...particles, materialIds },
    options: {
      periodicY: tankPeriodicY(scenario),
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  return withSolver(config, async (solver) => {
    const { h } = solver.describe().constants
    const samples = 10
    let inside = 0
    let outside = 0
    let maxSpeed = 0
    let dropRadius = 0
    for (let k = 0; k < samples; k++) {
      await solver.runUntil(endTimeS * (0.5 + (0.5 * (k + 1)) / samples))
      const s = await solver.snapshot()
      let pIn = 0
      let nIn = 0
      let pOut = 0
      let nOut = 0
      let dropVolume = 0
      maxSpeed = 0
      for (let i = 0; i < s.count; i++) {
        if (s.kind[i] !== PARTICLE_KIND.fluid) continue
        const x = s.positions[3 * i]!
        const z = s.positions[3 * i + 2]!
        const v = s.velocities
        maxSpeed = Math.max(maxSpeed, Math.hypot(v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!))
        if (s.materialId[i] === DROP_FLUID.id) dropVolume += s.mass[i]! / s.density[i]!
        const r = Math.hypot(x - centre, z - centre)
        const fromWall = Math.min(x, z, box - x, box - z)
        if (s.materialId[i] === DROP_FLUID.id && r < radius - 2 * h) {
          pIn += s.pressure[i]!
          nIn++
        } else if (s.materialId[i] === OUTER_FLUID.id && r > radius + 2 * h && fromWall > 2 * h) {
          pOut += s.pressure[i]!
          nOut++
        }
      }
      inside += pIn / nIn / samples
      outside += pOut / nOut / samples
      dropRadius += Math.sqrt(dropVolume / depth / Math.PI) / samples
    }
    const expected = sigma / dropRadius
    const jump = inside - outside
    const res = `, ${options.across} across`
    return {
      metrics: [
        metric(
          CASE,
          `(p_in − p_out) / (σ/R) − 1${res}`,
          jump / expected - 1,
          options.tolerance ?? 0.05,
          `R = ${radius / dp} dp as cut, σ ${sigma} N/m, R ${dropRadius.toFixed(5)} m from the drop's volume (cut ${radius} m), σ/R ${expected.toFixed(2)} Pa (σ/R_cut ${(sigma / radius).toFixed(2)}), measured ${jump.toFixed(2)} Pa, mean of t = ${endTimeS / 2}–${endTimeS} s`,
        ),
        reported(CASE, `(p_in − p_out) / (σ/R_cut) − 1, R_cut the radius the drop was cut with${res}`, (jump * radius) / sigma - 1),
        reported(CASE, `largest speed at the end (spurious currents, m/s)${res}`, maxSpeed),
      ],
      jumpPa: jump,
      expectedPa: expected,
      dropRadius,
      maxSpeed,
    }
  })
}
