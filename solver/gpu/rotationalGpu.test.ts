/**
 * The rotational periodic boundary on the GPU (rotationalSlice.ts) against the CPU's images
 * (periodicRotation.ts): water in a sector of a cylinder on a floor of walls, spinning about the
 * slice's axis fast enough that particles cross the cut faces within the steps, at 90° and at 60°
 * (a slice angle the particles' lattice does not map onto itself), and at 60° with dynamic
 * boundary particles (their continuity over the images: the walls' dρ/dt within 5.7e-7; at 90°
 * a particle ends step 7 on the cut face within 1e-5 rad, which double wraps and float32 does
 * not: the same state, a slice apart). Runs on lavapipe or SwiftShader where no GPU is.
 */
import { describe, expect, it } from 'vitest'
import type { SolverConfig } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { RotationalSlice } from '../sph/rotationalSlice.ts'
import { angleFromBisector } from '../sph/rotationalSlice.ts'
import { sectorConfig as sector, sectorSlice } from '../sph/testScenarios.ts'
import { useGpu } from './testGpu.ts'
import { forcePassAgreement, stepAgreement } from './cpuAgreement.ts'
import { gpuUnsupportedSettings } from './support.ts'
import { cpuSensorReader } from '../run/sensorSeries.ts'
import { createSolver, solverInternals } from '../sph/SphSolver.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { SimulationSettings } from '../../domain/settings.ts'
import { createGpuSolver } from './GpuSolver.ts'

const device = useGpu()

const dp = 0.01
/** Solid-body spin of the water, rad/s (2.4 m/s at the rim). */
const SPIN = 40

/** The slice of `angle` degrees, turned so that some fluid lies within 2° of its leading face. */
function slice(angle: 90 | 60): RotationalSlice {
  return sectorSlice(angle, angle === 90 ? 40 : 25)
}

/** Water 4 layers deep in the sector, its sites jittered in 3D, spinning about the axis at SPIN. */
function sectorConfig(
  s: RotationalSlice,
  shifting: SimulationSettings['shifting'] = 'lyu21',
): SolverConfig {
  return sector(s, { dp, layers: 4, seed: 11, jitterZ: true, spin: SPIN, shifting })
}

/** Fluid particles whose angle about the axis moved by more than half the slice (wrapped). */
function crossed(config: SolverConfig, positions: Float64Array, s: RotationalSlice): number {
  const p0 = config.particles.positions
  let n = 0
  for (let i = 0; i < config.particles.kinds.length; i++) {
    if (config.particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    const before = angleFromBisector(s, p0[3 * i]!, p0[3 * i + 1]!, p0[3 * i + 2]!).psi
    const after = angleFromBisector(
      s,
      positions[3 * i]!,
      positions[3 * i + 1]!,
      positions[3 * i + 2]!,
    ).psi
    if (Math.abs(after - before) > 0.5 * s.angle) n++
  }
  return n
}

describe('GPU backend, rotational periodic boundary', () => {
  it('is no longer refused; what the CPU refuses with it still is', () => {
    const config = sectorConfig(slice(90))
    expect(gpuUnsupportedSettings(config)).toEqual([])
    const drag = { ...config, settings: { ...config.settings, airDrag: true } }
    expect(gpuUnsupportedSettings(drag)).toContain('periodic boundary with air drag')
  })

  for (const [angle, boundary] of [
    [90, 'riemann'],
    [60, 'riemann'],
    [60, 'dynamic'],
  ] as const) {
    it(`one force pass and 8 steps agree with the CPU, particles crossing the cuts (${angle}°, ${boundary} walls)`, async (t) => {
      const gpu = device.need(t)
      const s = slice(angle)
      const sector = sectorConfig(s)
      const config = { ...sector, options: { ...sector.options, boundary } }
      const forces = await forcePassAgreement(config, gpu)
      expect(forces.wallDensityRate).toBeLessThan(1e-4)
      console.log(
        `${angle}° ${boundary} force pass: |a| ${forces.acceleration.toExponential(2)} of ${forces.maxA.toFixed(1)} m/s², dρ/dt ${forces.densityRate.toExponential(2)}, walls' dρ/dt ${forces.wallDensityRate.toExponential(2)}`,
      )
      expect(forces.acceleration).toBeLessThan(3e-4)
      expect(forces.densityRate).toBeLessThan(1e-4)
      const steps = await stepAgreement(config, gpu, 8, 0, true)
      const across = crossed(config, steps.cpu.positions, s)
      console.log(
        `${angle}° ${boundary} 8 steps: x ${(steps.errX / dp).toExponential(2)} dp, ρ ${steps.errRho.toExponential(2)}, ` +
          `wall p ${steps.errWallPressure.toExponential(2)}, moved ${(steps.maxMove / dp).toFixed(3)} dp, ${across} across the cuts`,
      )
      expect(steps.gpuSteps).toBe(8)
      expect(across).toBeGreaterThan(0)
      expect(crossed(config, steps.gpu.positions, s)).toBe(across)
      expect(steps.errX / dp).toBeLessThan(1e-4)
      expect(steps.errRho).toBeLessThan(1e-5)
      expect(steps.errWallPressure).toBeLessThan(1e-3)
    })
  }

  // shifting 'zero': the CPU's images refreshed at the end of each step (issue 16 item 7)
  for (const [angle, shifting] of [
    [90, 'lyu21'],
    [60, 'lyu21'],
    [90, 'zero'],
    [60, 'zero'],
  ] as const) {
    it(`sensors by the cuts read what the CPU's read, before and after 8 steps (${angle}°, shifting ${shifting})`, async (t) => {
      const gpu = device.need(t)
      const s = slice(angle)
      const config = sectorConfig(s, shifting)
      const points = cutPoints(s)
      const cpu = await createSolver(config)
      const solver = await createGpuSolver(config, gpu)
      const probes = solver.attachProbes(points)
      const read = cpuSensorReader(cpu)
      const flat = await createSolver({ ...config, rotationalPeriodic: undefined })
      const readFlat = cpuSensorReader(flat)
      const stiffness = solverInternals(cpu).constants.stiffness
      const worst = { pressure: 0, velocity: 0, peak: 0, speed: 0, oneSided: 0 }
      const compare = (gpuValues: ArrayLike<number>, gpuWet: boolean, k: number) => {
        const at = Array.from(points.subarray(3 * k, 3 * k + 3)) as Vec3
        const ref = new Float64Array(4)
        expect(gpuWet, `point ${k}`).toBe(read(k, at, ref))
        worst.peak = Math.max(worst.peak, Math.abs(ref[0]!))
        worst.speed = Math.max(worst.speed, Math.hypot(ref[1]!, ref[2]!, ref[3]!))
        worst.pressure = Math.max(worst.pressure, Math.abs(gpuValues[0]! - ref[0]!))
        worst.velocity = Math.max(
          worst.velocity,
          Math.hypot(gpuValues[1]! - ref[1]!, gpuValues[2]! - ref[2]!, gpuValues[3]! - ref[3]!),
        )
      }
      const start = new Float64Array(4)
      for (let k = 0; k < points.length / 3; k++) {
        const at = points.subarray(3 * k, 3 * k + 3)
        compare(start, probes.start(at, start), k)
        // the same point without the slice's images: the cut matters there
        const oneSided = new Float64Array(4)
        readFlat(k, Array.from(at) as Vec3, oneSided)
        worst.oneSided = Math.max(
          worst.oneSided,
          Math.hypot(oneSided[1]! - start[1]!, oneSided[2]! - start[2]!, oneSided[3]! - start[3]!),
        )
      }
      await flat.dispose()
      for (let step = 0; step < 8; step++) {
        cpu.step()
        await solver.step()
        // the same step (its dt chosen in float32)
        const tCpu = cpu.report().timeS
        expect(Math.abs(solver.report().timeS - tCpu)).toBeLessThan(1e-6 * tCpu)
        const values = (await probes.read([0])).get(0)!
        for (let k = 0; k < points.length / 3; k++)
          compare(values.subarray(8 * k, 8 * k + 4), values[8 * k + 4]! > 0, k)
      }
      await solver.dispose()
      // a pressure difference as the density difference that makes it (p = B ((ρ/ρ0)^γ − 1))
      const asDensity = worst.pressure / (stiffness * solverInternals(cpu).constants.gamma)
      console.log(
        `${angle}° ${shifting} sensors by the cuts: pressure ${worst.pressure.toExponential(2)} Pa (${asDensity.toExponential(2)} in ρ/ρ0; ` +
          `the largest ${worst.peak.toFixed(0)} Pa), velocity ${(worst.velocity / worst.speed).toExponential(2)} of ` +
          `${worst.speed.toFixed(3)} m/s; without the images ${worst.oneSided.toFixed(3)} m/s apart at the start`,
      )
      expect(worst.oneSided).toBeGreaterThan(1000 * worst.velocity)
      expect(asDensity).toBeLessThan(1e-5)
      expect(worst.velocity / worst.speed).toBeLessThan(1e-4)
      await cpu.dispose()
    })
  }
})

/**
 * Sensor points within 1.5 dp of either cut face, inside the slice: in the water (two radii),
 * on the floor among the wall images, and in the walls below it.
 */
function cutPoints(s: RotationalSlice): Float64Array {
  const out: number[] = []
  for (const face of [0, 1])
    for (const [radius, z] of [
      [0.03, 0.015],
      [0.05, 0.025],
      [0.04, 0],
      [0.035, -0.01],
    ] as const) {
      const inward = (1.5 * dp) / radius
      const a = s.start + (face === 0 ? inward : s.angle - inward)
      for (let c = 0; c < 3; c++)
        out.push(
          s.center[c]! +
            radius * (Math.cos(a) * s.e1[c]! + Math.sin(a) * s.e2[c]!) +
            z * s.axis[c]!,
        )
    }
  return Float64Array.from(out)
}
