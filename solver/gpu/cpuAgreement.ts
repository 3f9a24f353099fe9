/**
 * The GPU tests' comparisons with the CPU solver on one config (the derivatives of one force pass,
 * and the state after a few steps run to the same time on both backends) and their small case.
 */
import type { SolverConfig, SolverOptions } from '../sph/config.ts'
import { createSolver, solverInternals } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { buildTankParticles, supportedSettings, WATER } from '../sph/scenarios.ts'
import type { GpuContext } from './device.ts'
import { createGpuSolver } from './GpuSolver.ts'

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

/** The CPU's (a, dρ/dt) after one force pass, 4 per particle id. */
export async function cpuForces(config: SolverConfig): Promise<Float64Array> {
  const solver = await createSolver(config)
  solver.measureInteractionPass('forces', 1)
  const internals = solverInternals(solver)
  const a = internals.arrays
  const out = new Float64Array(4 * config.particles.kinds.length)
  for (let i = 0; i < internals.count(); i++)
    out.set([a.accX[i]!, a.accY[i]!, a.accZ[i]!, a.drho[i]!], 4 * a.particleId[i]!)
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

/** One force pass on both backends: compareForces of the two. */
export async function forcePassAgreement(config: SolverConfig, gpu: GpuContext) {
  const cpu = await cpuForces(config)
  const solver = await createGpuSolver(config, gpu)
  const { derivatives } = await solver.forcePass()
  await solver.dispose()
  return compareForces(config, cpu, derivatives)
}

/**
 * `steps` CPU steps, then the GPU run to the same time: both snapshots, the GPU's step count, and
 * over the fluid particles the largest distance moved from the start (CPU) and the largest
 * differences of position and relative density; over the walls, of the pressure. A y difference is taken to the nearest image of
 * a `periodY` (the backends may wrap a particle a step apart).
 */
export async function stepAgreement(
  config: SolverConfig,
  gpu: GpuContext,
  steps: number,
  periodY = 0,
) {
  const cpuSolver = await createSolver(config)
  for (let s = 0; s < steps; s++) cpuSolver.step()
  const end = cpuSolver.report().timeS
  const cpu: SolverSnapshot = cpuSolver.snapshot()
  await cpuSolver.dispose()
  const solver = await createGpuSolver(config, gpu)
  const report = await solver.runUntil(end)
  const gpuSnapshot = await solver.snapshot()
  await solver.dispose()
  const p0 = config.particles.positions
  let maxMove = 0
  let errX = 0
  let errRho = 0
  let errWallP = 0
  let maxWallP = 0
  for (let i = 0; i < cpu.count; i++) {
    if (cpu.kind[i] !== PARTICLE_KIND.fluid) {
      maxWallP = Math.max(maxWallP, Math.abs(cpu.pressure[i]!))
      errWallP = Math.max(errWallP, Math.abs(cpu.pressure[i]! - gpuSnapshot.pressure[i]!))
      continue
    }
    const [a, b] = [cpu.positions, gpuSnapshot.positions]
    maxMove = Math.max(
      maxMove,
      Math.hypot(
        a[3 * i]! - p0[3 * i]!,
        a[3 * i + 1]! - p0[3 * i + 1]!,
        a[3 * i + 2]! - p0[3 * i + 2]!,
      ),
    )
    let dy = a[3 * i + 1]! - b[3 * i + 1]!
    if (periodY > 0) dy -= periodY * Math.round(dy / periodY)
    errX = Math.max(errX, Math.hypot(a[3 * i]! - b[3 * i]!, dy, a[3 * i + 2]! - b[3 * i + 2]!))
    errRho = Math.max(errRho, Math.abs(cpu.density[i]! - gpuSnapshot.density[i]!) / cpu.density[i]!)
  }
  return {
    cpu,
    gpu: gpuSnapshot,
    gpuSteps: report.step,
    gpuTimeS: report.timeS,
    endTimeS: end,
    maxMove,
    errX,
    errRho,
    /** The walls' largest pressure difference over their largest CPU pressure. */
    errWallPressure: errWallP / maxWallP,
  }
}
