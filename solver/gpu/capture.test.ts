/**
 * Captures of the GPU's state (GpuSolver.capture, capture.ts): taken on the GPU at once, read
 * whenever awaited, they hold the state of their moment however many steps ran since; a run's
 * outputs are read that way while the next steps run (solver/run/outputQueue.ts). Runs on
 * SwiftShader where no GPU is (vitest.config.ts); skipped, saying why, without an adapter.
 */
import { describe, expect, it } from 'vitest'
import type { SolverConfig } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { buildTankParticles, supportedSettings, WATER } from '../sph/scenarios.ts'
import { useGpu } from './testGpu.ts'
import { createGpuSolver } from './GpuSolver.ts'

const device = useGpu()

/** A small dam break (4 × 4 × 6 fluid particles, dp 2.5 cm, three wall layers), falling. */
function damBreak(): SolverConfig {
  const dp = 0.025
  return {
    settings: supportedSettings(dp),
    materials: [WATER],
    particles: buildTankParticles({
      dp,
      tank: [0.2, 0.1, 0.2],
      fluidMin: [0, 0, 0],
      fluidMax: [0.1, 0.1, 0.15],
      closed: false,
      wallLayers: 3,
    }),
    options: { threads: 1 },
  }
}

/** The largest distance a fluid particle lies from itself in the other snapshot (same ids). */
function largestFluidMove(a: SolverSnapshot, b: SolverSnapshot): number {
  let largest = 0
  for (let i = 0; i < a.count; i++) {
    if (a.kind[i] !== PARTICLE_KIND.fluid) continue
    const d = Math.hypot(
      a.positions[3 * i]! - b.positions[3 * i]!,
      a.positions[3 * i + 1]! - b.positions[3 * i + 1]!,
      a.positions[3 * i + 2]! - b.positions[3 * i + 2]!,
    )
    largest = Math.max(largest, d)
  }
  return largest
}

describe('a capture of the GPU state', () => {
  it('holds the state of its moment while the steps go on, snapshot and checkpoint', async (t) => {
    const gpu = device.need(t)
    const config = damBreak()
    const solver = await createGpuSolver(config, gpu)
    for (let s = 0; s < 3; s++) await solver.step()
    const capture = solver.capture()
    // the same moment read at once, before any further step
    const now = await solver.snapshot()
    const nowCheckpoint = await solver.checkpoint()
    for (let s = 0; s < 4; s++) await solver.step()
    const later = await solver.snapshot()
    expect(later.step).toBe(now.step + 4)
    const dp = config.settings.particleDiameter!
    // the steps since moved the fluid: reading later state would not go unseen
    expect(largestFluidMove(later, now) / dp).toBeGreaterThan(1e-4)

    expect(capture.report.step).toBe(now.step)
    const captured = await capture.snapshot()
    expect(captured.step).toBe(now.step)
    expect(captured.timeS).toBe(now.timeS)
    expect(captured.particleIds).toEqual(now.particleIds)
    expect(captured.positions).toEqual(now.positions)
    expect(captured.velocities).toEqual(now.velocities)
    expect(captured.pressure).toEqual(now.pressure)
    expect(captured.density).toEqual(now.density)
    expect(await capture.checkpoint()).toEqual(nowCheckpoint)
    capture.release()
    await expect(capture.snapshot()).rejects.toThrow('released')

    // the captured checkpoint resumes at its moment
    const resumed = await createGpuSolver(config, gpu)
    resumed.restore(nowCheckpoint)
    const restored = await resumed.snapshot()
    expect(restored.step).toBe(now.step)
    expect(restored.positions).toEqual(now.positions)
    await resumed.dispose()
    await solver.dispose()
  }, 120_000)
})
