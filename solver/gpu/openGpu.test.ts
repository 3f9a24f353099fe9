/**
 * Open boundaries on the GPU (openBoundaries.ts, openShaders.ts) against the CPU's
 * (solver/sph/openBoundary.ts): a channel with an inlet and an outlet (solver/sph/openChannel.ts),
 * the fluid moved 0.45 dp downstream so that within 8 steps an inlet layer enters (and a new one
 * is made behind it), the last fluid layer turns outlet buffer and the outlet's back layer
 * leaves. Runs on lavapipe or SwiftShader where no GPU is.
 */
import { describe, expect, it } from 'vitest'
import type { SolverConfig } from '../sph/config.ts'
import { buildOpenChannel, CHANNEL_INLET_ID } from '../sph/openChannel.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { OPEN_BOUNDARY_KIND } from '../sph/snapshot.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { createSolver } from '../sph/SphSolver.ts'
import { useGpu } from './testGpu.ts'
import { createGpuSolver } from './GpuSolver.ts'
import { gpuUnsupportedSettings } from './support.ts'

const device = useGpu()

const U = 0.5
const H = 0.04
const ACROSS = 4

/**
 * The channel of openBoundary.test.ts, faster, its fluid 0.45 dp downstream; the inlet's speed
 * ramps from 0 to U over 4 ms (the profile's time), the outlet at 20 Pa (its density).
 */
function channel(): SolverConfig {
  const config = buildOpenChannel(
    {
      particlesAcross: ACROSS,
      height: H,
      lengthInHeights: 2,
      depthParticles: 3,
      speed: U,
      inletRampS: 0.004,
      outletPressure: 20,
      walls: 'slip',
      material: { id: 1, density: 1000, gamma: 7, speedOfSound: 10 * U, kinematicViscosity: 1e-6 },
    },
    { endTime: 0.1 },
  )
  const { kinds } = config.particles
  const positions = Float64Array.from(config.particles.positions)
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] === PARTICLE_KIND.fluid) positions[3 * i] = positions[3 * i]! + 0.45 * (H / ACROSS)
  return { ...config, particles: { ...config.particles, positions } }
}

/**
 * The channel with heat conduction (α = 2e-4 m²/s, adiabatic walls): the inlet's water at 340 K,
 * the rest at 300 K; the particles the inlet makes carry its temperature.
 */
function heatedChannel(): SolverConfig {
  const config = channel()
  const { partIds } = config.particles
  const temperatures = Float64Array.from(partIds, (id) => (id === CHANNEL_INLET_ID ? 340 : 300))
  return {
    ...config,
    settings: { ...config.settings, thermodynamics: true, ambientTemperature: 300 },
    materials: config.materials.map((m) => ({
      ...m,
      thermalConductivity: 200,
      specificHeatCapacity: 1000,
    })),
    particles: { ...config.particles, temperatures },
  }
}

/**
 * From each particle of either snapshot to the nearest of its kind in the other: the largest
 * distance, and there the largest differences of velocity and of density over ρ0.
 */
function nearestDifference(a: SolverSnapshot, b: SolverSnapshot, rho0: number) {
  const worst = { x: 0, v: 0, rho: 0, T: 0 }
  for (const [p, q] of [
    [a, b],
    [b, a],
  ] as const)
    for (let i = 0; i < p.count; i++) {
      let best = Infinity
      let at = -1
      for (let j = 0; j < q.count; j++) {
        if (q.kind[j] !== p.kind[i]) continue
        const d = Math.hypot(
          p.positions[3 * i]! - q.positions[3 * j]!,
          p.positions[3 * i + 1]! - q.positions[3 * j + 1]!,
          p.positions[3 * i + 2]! - q.positions[3 * j + 2]!,
        )
        if (d < best) [best, at] = [d, j]
      }
      worst.x = Math.max(worst.x, best)
      if (p.kind[i] === PARTICLE_KIND.wall) continue
      const dv = [0, 1, 2].map((c) => p.velocities[3 * i + c]! - q.velocities[3 * at + c]!)
      worst.v = Math.max(worst.v, Math.hypot(...dv))
      worst.rho = Math.max(worst.rho, Math.abs(p.density[i]! - q.density[at]!) / rho0)
      if (p.temperature && q.temperature)
        worst.T = Math.max(worst.T, Math.abs(p.temperature[i]! - q.temperature[at]!))
    }
  return worst
}

function countKind(s: SolverSnapshot, kind: number): number {
  return s.kind.filter((k) => k === kind).length
}

describe('GPU backend, open boundaries', () => {
  it('is no longer refused, with heat conduction too', () => {
    expect(gpuUnsupportedSettings(channel())).toEqual([])
    expect(gpuUnsupportedSettings(heatedChannel())).toEqual([])
  })

  for (const heat of [false, true])
    it(`8 steps of a channel agree with the CPU: particles in and out, positions${heat ? ', temperatures' : ''}`, async (t) => {
      const gpu = device.need(t)
      const config = heat ? heatedChannel() : channel()
      const dp = H / ACROSS
      const cpu = await createSolver(config)
      const start = cpu.snapshot()
      const solver = await createGpuSolver(config, gpu)
      const worst = { x: 0, v: 0, rho: 0, T: 0 }
      for (let step = 0; step < 8; step++) {
        const a = cpu.step()
        const b = await solver.step()
        expect(Math.abs(b.timeS - a.timeS)).toBeLessThan(1e-6 * a.timeS)
        expect(b.particleCount, `step ${step + 1}`).toBe(a.particleCount)
        expect(b.fluidCount, `step ${step + 1}`).toBe(a.fluidCount)
        expect(b.deletedOutside, `step ${step + 1}`).toBe(a.deletedOutside)
        expect(b.openBoundary!.inflowMass).toBeCloseTo(a.openBoundary!.inflowMass, 12)
        expect(b.openBoundary!.outflowMass).toBeCloseTo(a.openBoundary!.outflowMass, 12)
        const s = await solver.snapshot()
        const c = cpu.snapshot()
        expect(countKind(s, OPEN_BOUNDARY_KIND)).toBe(countKind(c, OPEN_BOUNDARY_KIND))
        const d = nearestDifference(c, s, 1000)
        worst.x = Math.max(worst.x, d.x)
        worst.v = Math.max(worst.v, d.v)
        worst.rho = Math.max(worst.rho, d.rho)
        worst.T = Math.max(worst.T, d.T)
      }
      const end = cpu.report()
      console.log(
        `open channel, 8 steps: ${end.particleCount} particles (${start.count} at the start), ` +
          `${end.deletedOutside} left, inflow ${end.openBoundary!.inflowMass.toExponential(3)} kg, ` +
          `outflow ${end.openBoundary!.outflowMass.toExponential(3)} kg; positions within ${(worst.x / dp).toExponential(2)} dp, velocities ` +
          `${(worst.v / U).toExponential(2)} U, densities ${worst.rho.toExponential(2)} ρ0` +
          (heat ? `, temperatures ${worst.T.toExponential(2)} K` : ''),
      )
      expect(end.deletedOutside).toBeGreaterThan(0)
      expect(end.openBoundary!.inflowMass).toBeGreaterThan(0)
      expect(end.openBoundary!.outflowMass).toBeGreaterThan(0)
      expect(worst.x / dp).toBeLessThan(1e-4)
      expect(worst.v / U).toBeLessThan(1e-4)
      expect(worst.rho).toBeLessThan(1e-5)
      // 40 K apart at the start: a particle made with another's temperature is far off
      expect(worst.T).toBeLessThan(1e-4)
      await cpu.dispose()
      await solver.dispose()
    })

  it('the same steps as one batch (the profile on the GPU clock) agree with the CPU', async (t) => {
    const gpu = device.need(t)
    const config = channel()
    const dp = H / ACROSS
    const cpu = await createSolver(config)
    for (let step = 0; step < 12; step++) cpu.step()
    const a = cpu.report()
    const solver = await createGpuSolver(config, gpu)
    const b = await solver.runUntil(a.timeS)
    expect(b.step).toBe(a.step)
    expect(b.particleCount).toBe(a.particleCount)
    expect(b.deletedOutside).toBe(a.deletedOutside)
    expect(b.openBoundary!.inflowMass).toBeCloseTo(a.openBoundary!.inflowMass, 12)
    const d = nearestDifference(cpu.snapshot(), await solver.snapshot(), 1000)
    console.log(
      `open channel, 12 steps in a batch: ${a.deletedOutside} left; positions within ` +
        `${(d.x / dp).toExponential(2)} dp, velocities ${(d.v / U).toExponential(2)} U, densities ${d.rho.toExponential(2)} ρ0`,
    )
    expect(a.deletedOutside).toBeGreaterThan(0)
    expect(d.x / dp).toBeLessThan(1e-4)
    expect(d.v / U).toBeLessThan(1e-4)
    await cpu.dispose()
    await solver.dispose()
  })

  it('resumes from its checkpoint on the GPU and on the CPU, particles made after it', async (t) => {
    const gpu = device.need(t)
    const config = channel()
    const dp = H / ACROSS
    const straight = await createGpuSolver(config, gpu)
    for (let step = 0; step < 4; step++) await straight.step()
    const saved = await straight.checkpoint()
    for (let step = 0; step < 8; step++) await straight.step()
    const end = straight.report()
    const expected = await straight.snapshot()
    await straight.dispose()
    const resumed = await createGpuSolver(config, gpu)
    resumed.restore(saved)
    // step by step: a run to the time may take one more tiny step (dt chosen in float32)
    for (let step = 0; step < 8; step++) await resumed.step()
    const gpuEnd = resumed.report()
    const onGpu = nearestDifference(expected, await resumed.snapshot(), 1000)
    await resumed.dispose()
    const cpu = await createSolver(config)
    cpu.restore(saved)
    for (let step = 0; step < 8; step++) cpu.step()
    const onCpu = nearestDifference(expected, cpu.snapshot(), 1000)
    const cpuEnd = cpu.report()
    await cpu.dispose()
    console.log(
      `open channel resumed after 4 steps: ${end.deletedOutside} left by step 12; on the GPU ` +
        `${(onGpu.x / dp).toExponential(2)} dp, ${(onGpu.v / U).toExponential(2)} U; on the CPU ` +
        `${(onCpu.x / dp).toExponential(2)} dp, ${(onCpu.v / U).toExponential(2)} U from the straight run`,
    )
    expect(end.deletedOutside).toBeGreaterThan(0)
    for (const report of [gpuEnd, cpuEnd]) {
      expect(Math.abs(report.timeS - end.timeS)).toBeLessThan(1e-6 * end.timeS)
      expect(report.particleCount).toBe(end.particleCount)
      expect(report.fluidCount).toBe(end.fluidCount)
      // mass came in after the checkpoint (the counters start afresh on a resume)
      expect(report.openBoundary!.inflowMass).toBeGreaterThan(0)
      // (the CPU sums the checkpoint's float32 masses, the GPU counts particles of the mass)
      const inflow = gpuEnd.openBoundary!.inflowMass
      expect(Math.abs(report.openBoundary!.inflowMass - inflow)).toBeLessThan(1e-6 * inflow)
    }
    expect(onGpu.x / dp).toBeLessThan(1e-4)
    expect(onCpu.x / dp).toBeLessThan(1e-4)
    expect(onGpu.v / U).toBeLessThan(1e-4)
    expect(onCpu.v / U).toBeLessThan(1e-4)
  })
})
