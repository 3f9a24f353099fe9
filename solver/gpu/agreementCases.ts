/**
 * The small cases the GPU backend is checked on against the CPU solver (GpuSolver.test.ts,
 * forceVariants.test.ts): a dam break with a swirl, the CPU's derivatives of one force pass, and
 * their comparison with the GPU's.
 */
import type { SolverConfig, SolverOptions } from '../sph/config.ts'
import { createSolver, solverInternals } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { buildTankParticles, supportedSettings, WATER } from '../sph/scenarios.ts'

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

export async function cpuForces(config: SolverConfig): Promise<Float64Array> {
  const solver = await createSolver(config)
  solver.measureInteractionPass('forces', 1)
  const internals = solverInternals(solver)
  const a = internals.arrays
  const n = internals.count()
  const out = new Float64Array(4 * n)
  for (let i = 0; i < n; i++) {
    const o = 4 * a.particleId[i]!
    out.set([a.accX[i]!, a.accY[i]!, a.accZ[i]!, a.drho[i]!], o)
  }
  await solver.dispose()
  return out
}

/** Largest difference of the fluid particles' (a, dρ/dt) over the largest CPU value of each. */
export function compareForces(
  config: SolverConfig,
  cpu: ArrayLike<number>,
  gpuValues: ArrayLike<number>,
) {
  let maxA = 0
  let maxD = 0
  let errA = 0
  let errD = 0
  const kinds = config.particles.kinds
  for (let id = 0; id < kinds.length; id++) {
    if (kinds[id] !== PARTICLE_KIND.fluid) continue
    const o = 4 * id
    maxA = Math.max(maxA, Math.hypot(cpu[o]!, cpu[o + 1]!, cpu[o + 2]!))
    maxD = Math.max(maxD, Math.abs(cpu[o + 3]!))
    errA = Math.max(
      errA,
      Math.hypot(
        cpu[o]! - gpuValues[o]!,
        cpu[o + 1]! - gpuValues[o + 1]!,
        cpu[o + 2]! - gpuValues[o + 2]!,
      ),
    )
    errD = Math.max(errD, Math.abs(cpu[o + 3]! - gpuValues[o + 3]!))
  }
  return { acceleration: errA / maxA, densityRate: errD / maxD, maxA, maxD }
}
