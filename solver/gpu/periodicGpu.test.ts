/**
 * Periodic along y on the GPU (options.periodicY, the thin slabs of the validation cases) against
 * the CPU: one force pass and 8 steps of a small dam break whose fluid sits against the period's
 * end and moves across it. Two depths: 2 particles, narrower than the support (the stencil reaches
 * two cells through the images), and 7 (two cells along y). Runs on SwiftShader where no GPU is.
 */
import { describe, expect, it } from 'vitest'
import type { SolverConfig } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { buildTankParticles, supportedSettings, tankPeriodicY, WATER } from '../sph/scenarios.ts'
import { useGpu } from './testGpu.ts'
import { forcePassAgreement, stepAgreement } from './cpuAgreement.ts'
import { gpuGrid } from './grid.ts'

const device = useGpu()

const DP = 0.01

/**
 * A column 6 × depth × 8 particles in a tank 12 long, periodic along y, every particle moved up
 * 0.49 dp so that the last row stands 0.01 dp from the period's end; the fluid swirls and drifts
 * along +y at up to 0.3 m/s, so that rows leave through one end and come back through the other.
 */
function periodicDamBreak(depth: number): SolverConfig {
  const scenario = {
    dp: DP,
    tank: [0.12, depth * DP, 0.12] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [0.06, depth * DP, 0.08] as [number, number, number],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  const n = particles.kinds.length
  const positions = Float64Array.from(particles.positions)
  const velocities = new Float64Array(3 * n)
  for (let i = 0; i < n; i++) {
    positions[3 * i + 1] = positions[3 * i + 1]! + 0.49 * DP
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    const x = positions[3 * i]!
    const z = positions[3 * i + 2]!
    velocities[3 * i] = 0.3 * Math.sin(60 * z)
    velocities[3 * i + 1] = 0.15 + 0.15 * Math.sin(40 * x)
    velocities[3 * i + 2] = -0.3 * Math.sin(50 * x)
  }
  return {
    settings: supportedSettings(DP),
    materials: [WATER],
    particles: { ...particles, positions, velocities },
    options: { hydrostaticInitialisation: true, threads: 1, periodicY: tankPeriodicY(scenario) },
  }
}

describe('GPU backend, periodic along y', () => {
  it('spans the period in whole cells and reaches through its images', () => {
    const box = {
      min: [-1, -1, -1] as [number, number, number],
      max: [1, 1, 1] as [number, number, number],
    }
    const narrow = gpuGrid(box, 0.03, 1000, { min: 0, max: 0.02 })
    expect(narrow.dims[1]).toBe(1)
    expect(narrow.cellSizeY).toBeCloseTo(0.02, 12)
    expect(narrow.reachY).toBe(2)
    expect(narrow.origin[1]).toBe(0)
    const wide = gpuGrid(box, 0.03, 1000, { min: 0.1, max: 0.17 })
    expect(wide.dims[1]).toBe(2)
    expect(wide.cellSizeY).toBeCloseTo(0.035, 12)
    expect(wide.reachY).toBe(1)
    expect(wide.origin[1]).toBe(0.1)
  })

  for (const depth of [2, 7]) {
    it(`one force pass and 8 steps agree with the CPU (${depth} particles deep)`, async (t) => {
      const gpu = device.need(t)
      const config = periodicDamBreak(depth)
      const period = config.options!.periodicY!.max - config.options!.periodicY!.min

      // one force pass: every fluid particle has neighbours through the period's ends
      const forces = await forcePassAgreement(config, gpu)
      expect(forces.acceleration).toBeLessThan(1e-4)
      expect(forces.densityRate).toBeLessThan(1e-4)

      // 8 steps: rows cross the period's end and come back at its start on both backends
      const steps = await stepAgreement(config, gpu, 8, period)
      expect(steps.gpuSteps).toBe(8)
      const min = config.options!.periodicY!.min
      let wrapped = 0
      let wrappedGpu = 0
      const kinds = config.particles.kinds
      for (let i = 0; i < kinds.length; i++) {
        if (kinds[i] !== PARTICLE_KIND.fluid) continue
        const start = config.particles.positions[3 * i + 1]!
        const y = steps.gpu.positions[3 * i + 1]!
        if (steps.cpu.positions[3 * i + 1]! < start - 0.5 * period) wrapped++
        if (y < start - 0.5 * period) wrappedGpu++
        expect(y).toBeGreaterThanOrEqual(min - 0.1 * DP)
        expect(y).toBeLessThan(min + period + 0.1 * DP)
      }
      // the last row of each column came back through the period's start
      expect(wrapped).toBeGreaterThan(0)
      expect(wrappedGpu).toBe(wrapped)
      expect(steps.errX / DP).toBeLessThan(1e-4)
      expect(steps.errRho).toBeLessThan(1e-5)
    })
  }
})
