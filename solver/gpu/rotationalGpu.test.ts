/**
 * The rotational periodic boundary on the GPU (rotationalSlice.ts) against the CPU's images
 * (periodicRotation.ts): water in a sector of a cylinder on a floor of walls, spinning about the
 * slice's axis fast enough that particles cross the cut faces within the steps, at 90° and at 60°
 * (a slice angle the particles' lattice does not map onto itself). Runs on lavapipe or
 * SwiftShader where no GPU is.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { sliceFrame } from '../../domain/periodic.ts'
import type { SolverConfig } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { RotationalSlice } from '../sph/rotationalSlice.ts'
import { angleFromBisector, insideSlice } from '../sph/rotationalSlice.ts'
import { supportedSettings, WATER } from '../sph/scenarios.ts'
import type { GpuContext } from './device.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import { forcePassAgreement, stepAgreement } from './cpuAgreement.ts'
import { gpuUnsupportedSettings } from './support.ts'
import { createRunBackend } from '../run/runBackend.ts'

let gpu: GpuContext | null = null
beforeAll(async () => {
  gpu = await findGpu()
  if (!gpu) console.warn(`GPU tests skipped: ${gpuUnavailableReason()}`)
})

const dp = 0.01
/** Solid-body spin of the water, rad/s (2.4 m/s at the rim). */
const SPIN = 40

/** The slice of `angle` degrees, turned so that some fluid lies within 2° of its leading face. */
function slice(angle: 90 | 60): RotationalSlice {
  const sliceRotation = angle === 90 ? 40 : 25
  return sliceFrame({
    center: [0.001, -0.002, 0],
    axis: [0, 0, 2],
    sliceRotation,
    sliceAngle: angle,
  })!
}

/**
 * Water 4 layers deep in a sector of a cylinder (radius 0.06 m) on a floor 3 layers thick, the
 * sites jittered so that no two distances tie, spinning about the axis at SPIN.
 */
function sectorConfig(s: RotationalSlice): SolverConfig {
  const positions: number[] = []
  const kinds: number[] = []
  const partIds: number[] = []
  const velocities: number[] = []
  let seed = 11
  const jitter = () => {
    seed = (seed * 16807) % 2147483647
    return (seed / 2147483647 - 0.5) * 0.1 * dp
  }
  for (let k = -3; k < 4; k++)
    for (let j = -8; j < 8; j++)
      for (let i = -8; i < 8; i++) {
        const x = (i + 0.5) * dp + jitter()
        const y = (j + 0.5) * dp + jitter()
        const z = (k + 0.5) * dp + jitter()
        const rx = x - s.center[0]
        const ry = y - s.center[1]
        if (Math.hypot(rx, ry) > 0.06 + (k < 0 ? 3 * dp : 0) || !insideSlice(s, x, y, z)) continue
        const fluid = k >= 0
        positions.push(x, y, z)
        kinds.push(fluid ? PARTICLE_KIND.fluid : PARTICLE_KIND.wall)
        partIds.push(fluid ? 1 : 2)
        velocities.push(fluid ? -SPIN * ry : 0, fluid ? SPIN * rx : 0, 0)
      }
  return {
    settings: supportedSettings(dp, { shifting: 'lyu21', noRiemannWall: false }),
    materials: [WATER],
    particles: {
      positions: Float64Array.from(positions),
      kinds: Uint8Array.from(kinds),
      partIds: Int32Array.from(partIds),
      velocities: Float64Array.from(velocities),
    },
    options: { hydrostaticInitialisation: true, threads: 1 },
    rotationalPeriodic: s,
  }
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

  for (const angle of [90, 60] as const) {
    it(`one force pass and 8 steps agree with the CPU, particles crossing the cuts (${angle}°)`, async (t) => {
      if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
      const s = slice(angle)
      const config = sectorConfig(s)
      const forces = await forcePassAgreement(config, gpu)
      console.log(
        `${angle}° force pass: |a| ${forces.acceleration.toExponential(2)} of ${forces.maxA.toFixed(1)} m/s², dρ/dt ${forces.densityRate.toExponential(2)}`,
      )
      expect(forces.acceleration).toBeLessThan(3e-4)
      expect(forces.densityRate).toBeLessThan(1e-4)
      const steps = await stepAgreement(config, gpu, 8, 0, true)
      const across = crossed(config, steps.cpu.positions, s)
      console.log(
        `${angle}° 8 steps: x ${(steps.errX / dp).toExponential(2)} dp, ρ ${steps.errRho.toExponential(2)}, ` +
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

  it('refuses sensors with the periodic boundary (the probe pass does not look across the cuts)', async (t) => {
    if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
    const backend = await createRunBackend('gpu', sectorConfig(slice(90)))
    expect(() => backend.sensors(Float64Array.from([0.02, 0.02, 0.01]))).toThrow(
      'sensors with a periodic boundary',
    )
    await backend.dispose()
  })
})
