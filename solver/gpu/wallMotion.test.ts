/**
 * Moving parts on the GPU against the CPU: a piston (the tank's wall layers at x < 0, moving in +x
 * at 0.2 m/s) pushing a small column, 6 RK4 steps on both backends: the piston's particles at
 * the same place and speed, the fluid within float32 tolerance. Runs on SwiftShader where no GPU
 * is (vitest.config.ts); skipped, saying why, without an adapter.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { SolverConfig } from '../sph/config.ts'
import { createSolver } from '../sph/SphSolver.ts'
import type { Solver } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { buildTankParticles, supportedSettings, WATER } from '../sph/scenarios.ts'
import { useGpu } from './testGpu.ts'
import { createGpuSolver } from './GpuSolver.ts'
import { PISTON_PART_ID, pistonWalls } from './cpuAgreement.ts'
import { gpuUnsupportedSettings } from './support.ts'

const device = useGpu()

const cpuSolvers: Solver[] = []
afterAll(async () => {
  for (const solver of cpuSolvers) await solver.dispose()
})

const DP = 0.01

/** A column 6 × 6 × 8 (dp 1 cm) in an open tank 12 × 6 × 12 whose x < 0 layers are a piston. */
function piston(): SolverConfig {
  const particles = buildTankParticles({
    dp: DP,
    tank: [0.12, 0.06, 0.12],
    fluidMin: [0, 0, 0],
    fluidMax: [0.06, 0.06, 0.08],
    closed: false,
    wallLayers: 3,
  })
  const { partIds, wallMotion } = pistonWalls(particles)
  return {
    settings: supportedSettings(DP),
    materials: [WATER],
    particles: { ...particles, partIds },
    options: { hydrostaticInitialisation: true, threads: 1 },
    wallMotion,
  }
}

describe('moving parts on the GPU', () => {
  it('are no longer refused', () => {
    expect(gpuUnsupportedSettings(piston())).toEqual([])
  })

  it('a piston moves and pushes the fluid as on the CPU', async (t) => {
    const gpu = device.need(t)
    const config = piston()
    const cpu = await createSolver(config)
    cpuSolvers.push(cpu)
    for (let s = 0; s < 6; s++) cpu.step()
    const solver = await createGpuSolver(config, gpu)
    const report = await solver.runUntil(cpu.report().timeS)
    expect(report.step).toBe(6)
    const a = cpu.snapshot()
    const b = await solver.snapshot()
    await solver.dispose()
    expect(Array.from(b.particleIds)).toEqual(Array.from(a.particleIds))
    let pistonMoved = 0
    let errWall = 0
    let errWallV = 0
    let errFluid = 0
    for (let s = 0; s < a.count; s++) {
      const d = Math.hypot(
        a.positions[3 * s]! - b.positions[3 * s]!,
        a.positions[3 * s + 1]! - b.positions[3 * s + 1]!,
        a.positions[3 * s + 2]! - b.positions[3 * s + 2]!,
      )
      if (a.kind[s] === PARTICLE_KIND.fluid) errFluid = Math.max(errFluid, d)
      else {
        errWall = Math.max(errWall, d)
        errWallV = Math.max(errWallV, Math.abs(a.velocities[3 * s]! - b.velocities[3 * s]!))
        if (a.partId[s] === PISTON_PART_ID)
          pistonMoved = Math.max(
            pistonMoved,
            a.positions[3 * s]! - config.particles.positions[3 * s]!,
          )
      }
    }
    // the piston moved a visible part of dp; the backends part by float32 rounding only
    expect(pistonMoved / DP).toBeGreaterThan(0.01)
    expect(errWall / DP).toBeLessThan(1e-4)
    expect(errWallV).toBeLessThan(1e-4)
    expect(errFluid / DP).toBeLessThan(1e-4)
  })
})
