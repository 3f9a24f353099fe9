/**
 * The GPU tests' comparisons with the CPU solver on one config (the derivatives of one force pass,
 * the state after a few steps run to the same time on both backends, a checkpoint's round trip),
 * and the checks most of them make (their small dam break: solver/sph/testScenarios.ts).
 */
import { expect } from 'vitest'
import type { Vec3 } from '../../domain/vector.ts'
import type { SolverConfig, SolverPart, SolverParticles } from '../sph/config.ts'
import { createMovementMotion } from '../sph/motion.ts'
import { createSolver, solverInternals } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { TANK_PART_ID } from '../sph/scenarios.ts'
import type { GpuContext } from './device.ts'
import { createGpuSolver } from './GpuSolver.ts'

/** The part id of the piston that pistonWalls makes. */
export const PISTON_PART_ID = 9

/**
 * A tank's x < 0 wall layers as a piston (PISTON_PART_ID) moving in along x at 0.2 m/s,
 * accelerating at 2 m/s² (moving parts, wallMotion.ts): the particles' part ids and the motion.
 */
export function pistonWalls(particles: SolverParticles) {
  const { kinds, positions } = particles
  const partIds = Int32Array.from(particles.partIds)
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] !== PARTICLE_KIND.fluid && positions[3 * i]! < 0) partIds[i] = PISTON_PART_ID
  const movement = {
    type: 'translatory' as const,
    startS: 0,
    endS: null,
    velocity: 0.2,
    acceleration: 2,
    direction: [1, 0, 0] as [number, number, number],
  }
  return { partIds, wallMotion: createMovementMotion(new Map([[PISTON_PART_ID, [movement]]])) }
}

/**
 * The dam break (or a case built on it) with pistonWalls' piston, a no-slip part beside the
 * config's (the tank's, no-slip, where it names none); `piston` adds to the piston's part.
 */
export function withPiston(base: SolverConfig, piston: Partial<SolverPart> = {}): SolverConfig {
  const { partIds, wallMotion } = pistonWalls(base.particles)
  const parts = base.parts ?? [{ id: TANK_PART_ID, wallCondition: 'no_slip' }]
  return {
    ...base,
    particles: { ...base.particles, partIds },
    parts: [...parts, { id: PISTON_PART_ID, wallCondition: 'no_slip', ...piston }],
    wallMotion,
  }
}

/** A case in a frame turning at 6 rad/s about `axis` through `center` (settings.rotatingSystem). */
export function withRotation(base: SolverConfig, axis: Vec3, center: Vec3): SolverConfig {
  return {
    ...base,
    settings: {
      ...base.settings,
      rotatingSystem: true,
      rotationVelocity: 6,
      rotationAxis: axis,
      rotationCenter: center,
    },
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
    // (a rotational periodic boundary's images have no id)
    if (a.particleId[i]! >= 0)
      out.set([a.accX[i]!, a.accY[i]!, a.accZ[i]!, a.drho[i]!], 4 * a.particleId[i]!)
  await solver.dispose()
  return out
}

/**
 * Largest difference of the fluid particles' (a, dρ/dt) over the largest CPU value of each, and
 * of the walls' dρ/dt (dynamic boundary particles; 0 where every wall's is 0).
 */
export function compareForces(
  config: SolverConfig,
  cpu: ArrayLike<number>,
  gpuValues: ArrayLike<number>,
) {
  let maxA = 0
  let maxD = 0
  let errA = 0
  let errD = 0
  let maxWallD = 0
  let errWallD = 0
  const kinds = config.particles.kinds
  for (let id = 0; id < kinds.length; id++) {
    const o = 4 * id
    if (kinds[id] !== PARTICLE_KIND.fluid) {
      maxWallD = Math.max(maxWallD, Math.abs(cpu[o + 3]!))
      errWallD = Math.max(errWallD, Math.abs(cpu[o + 3]! - gpuValues[o + 3]!))
      continue
    }
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
  return {
    acceleration: errA / maxA,
    densityRate: errD / maxD,
    wallDensityRate: maxWallD > 0 ? errWallD / maxWallD : 0,
    maxA,
    maxD,
    maxWallD,
  }
}

/**
 * One interaction on both backends with heat conduction or a viscosity table: over the fluid
 * particles the largest difference of dT/dt and of ν, each over its largest CPU value (0 where
 * the run has neither).
 */
export async function heatPassAgreement(config: SolverConfig, gpu: GpuContext) {
  const cpuSolver = await createSolver(config)
  cpuSolver.measureInteractionPass('forces', 1)
  const internals = solverInternals(cpuSolver)
  const a = internals.arrays
  const cpu = new Float64Array(2 * config.particles.kinds.length)
  for (let i = 0; i < internals.count(); i++)
    if (a.kind[i] === PARTICLE_KIND.fluid) cpu.set([a.dtemp[i]!, a.visc[i]!], 2 * a.particleId[i]!)
  await cpuSolver.dispose()
  const solver = await createGpuSolver(config, gpu)
  const { therm } = await solver.forcePass()
  await solver.dispose()
  if (!therm) throw new Error('The GPU run has no temperatures or viscosities.')
  let maxRate = 0
  let maxNu = 0
  let errRate = 0
  let errNu = 0
  const kinds = config.particles.kinds
  for (let id = 0; id < kinds.length; id++) {
    if (kinds[id] !== PARTICLE_KIND.fluid) continue
    maxRate = Math.max(maxRate, Math.abs(cpu[2 * id]!))
    maxNu = Math.max(maxNu, Math.abs(cpu[2 * id + 1]!))
    errRate = Math.max(errRate, Math.abs(cpu[2 * id]! - therm[4 * id + 2]!))
    errNu = Math.max(errNu, Math.abs(cpu[2 * id + 1]! - therm[4 * id + 3]!))
  }
  return {
    temperatureRate: maxRate > 0 ? errRate / maxRate : 0,
    viscosity: maxNu > 0 ? errNu / maxNu : 0,
    maxRate,
    maxNu,
  }
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
 * differences of position and relative density; over the walls, of the pressure; with heat
 * conduction or a viscosity table, of the temperature and ν. A y difference is taken to the
 * nearest image of a `periodY` (the backends may wrap a particle a step apart). With `stepwise`
 * the GPU takes its steps one by one (a batch's steps past its target, dt 0, interact once more:
 * the GPU's ν is then the end state's, the CPU's its last stage's).
 */
export async function stepAgreement(
  config: SolverConfig,
  gpu: GpuContext,
  steps: number,
  periodY = 0,
  stepwise = false,
) {
  const cpuSolver = await createSolver(config)
  for (let s = 0; s < steps; s++) cpuSolver.step()
  const end = cpuSolver.report().timeS
  const cpu: SolverSnapshot = cpuSolver.snapshot()
  await cpuSolver.dispose()
  const solver = await createGpuSolver(config, gpu)
  if (stepwise) for (let s = 0; s < steps; s++) await solver.step()
  const report = stepwise ? solver.report() : await solver.runUntil(end)
  const gpuSnapshot = await solver.snapshot()
  await solver.dispose()
  const p0 = config.particles.positions
  let maxMove = 0
  let errX = 0
  let errRho = 0
  let errWallP = 0
  let maxWallP = 0
  const heat = { errT: 0, changeT: 0, errNu: 0, maxNu: 0 }
  for (let i = 0; i < cpu.count; i++) {
    if (cpu.kind[i] === PARTICLE_KIND.fluid) thermalDifference(config, cpu, gpuSnapshot, i, heat)
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
    /** The fluid's largest temperature difference over the largest change of T on the CPU. */
    errTemperature: heat.changeT > 0 ? heat.errT / heat.changeT : 0,
    /** The largest change of T on the CPU over the steps, K. */
    temperatureChange: heat.changeT,
    /** The fluid's largest difference of ν over the largest ν on the CPU. */
    errViscosity: heat.maxNu > 0 ? heat.errNu / heat.maxNu : 0,
  }
}

/**
 * The checks most GPU tests make of a case: one force pass agrees with the CPU within `forces`
 * (the fluid's a and dρ/dt over their largest CPU values), and after 8 steps to the same time
 * (`stepwise`: see stepAgreement) the fluid moved a visible part of dp while the backends part by
 * float32 rounding only: positions within 1e-4 dp, densities within `density`, the walls'
 * pressure within 1e-3. Both comparisons come back for the test's own checks.
 */
export async function expectCpuAgreement(
  config: SolverConfig,
  gpu: GpuContext,
  { forces: forceLimit = 1e-4, density = 1e-5, stepwise = false } = {},
) {
  const forces = await forcePassAgreement(config, gpu)
  expect(forces.acceleration).toBeLessThan(forceLimit)
  expect(forces.densityRate).toBeLessThan(forceLimit)
  const steps = await stepAgreement(config, gpu, 8, 0, stepwise)
  expect(steps.gpuSteps).toBe(8)
  const dp = config.settings.particleDiameter!
  expect(steps.maxMove / dp).toBeGreaterThan(0.01)
  expect(steps.errX / dp).toBeLessThan(1e-4)
  expect(steps.errRho).toBeLessThan(density)
  expect(steps.errWallPressure).toBeLessThan(1e-3)
  return { forces, steps }
}

/**
 * A GPU run of 8 steps, and the same run checkpointed after 4: the checkpoint restored on the CPU,
 * and resumed on the GPU for the other 4. Snapshots: `expected` (the straight run's end),
 * `atCheckpoint`, `onCpu` (the CPU's restore of it) and `after` (the resumed run's end).
 */
export async function checkpointRoundTrip(config: SolverConfig, gpu: GpuContext) {
  const straight = await createGpuSolver(config, gpu)
  for (let s = 0; s < 8; s++) await straight.step()
  const expected = await straight.snapshot()
  await straight.dispose()
  const first = await createGpuSolver(config, gpu)
  for (let s = 0; s < 4; s++) await first.step()
  const atCheckpoint = await first.snapshot()
  const bytes = await first.checkpoint()
  await first.dispose()
  const cpu = await createSolver(config)
  cpu.restore(bytes)
  const onCpu = cpu.snapshot()
  await cpu.dispose()
  const resumed = await createGpuSolver(config, gpu)
  resumed.restore(bytes)
  for (let s = 0; s < 4; s++) await resumed.step()
  const after = await resumed.snapshot()
  await resumed.dispose()
  return { expected, atCheckpoint, onCpu, after }
}

/**
 * Over all particles of two snapshots (id order): the largest distance (m), the largest relative
 * density difference, and the largest pressure difference over the first's largest pressure.
 */
export function snapshotDifferences(a: SolverSnapshot, b: SolverSnapshot) {
  let position = 0
  let density = 0
  let pressure = 0
  let maxP = 0
  const [p, q] = [a.positions, b.positions]
  for (let i = 0; i < a.count; i++) {
    const [x, y, z] = [3 * i, 3 * i + 1, 3 * i + 2]
    position = Math.max(position, Math.hypot(p[x]! - q[x]!, p[y]! - q[y]!, p[z]! - q[z]!))
    density = Math.max(density, Math.abs(a.density[i]! - b.density[i]!) / a.density[i]!)
    pressure = Math.max(pressure, Math.abs(a.pressure[i]! - b.pressure[i]!))
    maxP = Math.max(maxP, Math.abs(a.pressure[i]!))
  }
  return { position, density, pressure: pressure / maxP }
}

/** Fluid slot i's temperature and ν differences (snapshots in id order) into `into`. */
function thermalDifference(
  config: SolverConfig,
  cpu: SolverSnapshot,
  gpu: SolverSnapshot,
  i: number,
  into: { errT: number; changeT: number; errNu: number; maxNu: number },
): void {
  const t = cpu.temperature
  if (t) {
    const start = config.particles.temperatures?.[i] ?? config.settings.ambientTemperature ?? 0
    into.changeT = Math.max(into.changeT, Math.abs(t[i]! - start))
    into.errT = Math.max(into.errT, Math.abs(t[i]! - (gpu.temperature?.[i] ?? NaN)))
  }
  const nu = cpu.kinematicViscosity
  if (nu) {
    into.maxNu = Math.max(into.maxNu, nu[i]!)
    into.errNu = Math.max(into.errNu, Math.abs(nu[i]! - (gpu.kinematicViscosity?.[i] ?? NaN)))
  }
}
