import { describe, expect, it } from 'vitest'
import { PARTICLE_KIND } from './particles.ts'
import {
  buildTankParticles,
  supportedSettings,
  TANK_PART_ID,
  tankPeriodicY,
  WATER,
} from './scenarios.ts'
import type { TankScenario } from './scenarios.ts'
import type { SolverConfig } from './config.ts'
import { createSolver } from './SphSolver.ts'
import type { SolverSnapshot } from './solverTypes.ts'

const dp = 0.02

/** A small dam break in a slab `deep` particles deep, periodic along y (no side walls). */
function slabDamBreak(deep: number, options: SolverConfig['options'] = {}): SolverConfig {
  const scenario: TankScenario = {
    dp,
    tank: [0.4, deep * dp, 0.3],
    fluidMin: [0, 0, 0],
    fluidMax: [0.1, deep * dp, 0.2],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  return {
    settings: supportedSettings(dp, { shifting: 'lyu21', noRiemannWall: false }),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: { hydrostaticInitialisation: true, periodicY: tankPeriodicY(scenario), ...options },
  }
}

function fluidStats(s: SolverSnapshot) {
  let n = 0
  let x = 0
  let z = 0
  let front = -Infinity
  let kinetic = 0
  for (let i = 0; i < s.count; i++) {
    if (s.kind[i] !== PARTICLE_KIND.fluid) continue
    n++
    x += s.positions[3 * i]!
    z += s.positions[3 * i + 2]!
    front = Math.max(front, s.positions[3 * i]!)
    const v = s.velocities
    kinetic += 0.5 * (v[3 * i]! ** 2 + v[3 * i + 1]! ** 2 + v[3 * i + 2]! ** 2)
  }
  return { n, x: x / n, z: z / n, front, kinetic: kinetic / n }
}

describe('periodic slab along y', () => {
  it('runs a y-uniform flow the same in a slab 3 and 6 particles deep', async () => {
    const stats: ReturnType<typeof fluidStats>[] = []
    for (const deep of [3, 6]) {
      const solver = await createSolver(slabDamBreak(deep))
      try {
        solver.runUntil(0.1)
        stats.push(fluidStats(solver.snapshot()))
      } finally {
        await solver.dispose()
      }
    }
    const [thin, thick] = stats as [ReturnType<typeof fluidStats>, ReturnType<typeof fluidStats>]
    expect(thick.n).toBe(2 * thin.n)
    // the column has moved (the comparison means something) ...
    expect(thin.front).toBeGreaterThan(0.1 + 0.02)
    // ... and both slabs moved it the same way
    expect(thick.x).toBeCloseTo(thin.x, 7)
    expect(thick.z).toBeCloseTo(thin.z, 7)
    expect(thick.front).toBeCloseTo(thin.front, 7)
    expect(thick.kinetic).toBeCloseTo(thin.kinetic, 7)
  }, 120_000)

  it('carries fluid moving along y across the boundary without loss, keeping its density', async () => {
    const config = slabDamBreak(3)
    // the column, weightless in a free-slip tank, all moving along y at 0.5 m/s: nothing but the
    // wrap changes
    const n = config.particles.kinds.length
    const velocities = new Float64Array(3 * n)
    for (let i = 0; i < n; i++)
      if (config.particles.kinds[i] === PARTICLE_KIND.fluid) velocities[3 * i + 1] = 0.5
    const solver = await createSolver({
      ...config,
      particles: { ...config.particles, velocities },
      settings: { ...config.settings, gravity: [0, 0, 0] },
      parts: [{ id: TANK_PART_ID, wallCondition: 'slip' }],
    })
    try {
      const before = fluidStats(solver.snapshot())
      // 0.5 m/s over 0.15 s: 1.25 periods of 0.06 m
      solver.runUntil(0.15)
      const after = solver.snapshot()
      expect(fluidStats(after).n).toBe(before.n)
      for (let i = 0; i < after.count; i++) {
        if (after.kind[i] !== PARTICLE_KIND.fluid) continue
        const y = after.positions[3 * i + 1]!
        // wrapped at the last sort, then moved by at most one step
        expect(y).toBeGreaterThan(-0.005)
        expect(y).toBeLessThan(3 * dp + 0.005)
        expect(after.velocities[3 * i + 1]).toBeCloseTo(0.5, 4)
        expect(Math.abs(after.density[i]! / WATER.density - 1)).toBeLessThan(1e-3)
      }
    } finally {
      await solver.dispose()
    }
  }, 60_000)

  it('gives bit-identical results on two threads', async () => {
    const snapshots: SolverSnapshot[] = []
    for (const threads of [1, 2]) {
      const solver = await createSolver(slabDamBreak(3, { threads }))
      try {
        solver.runUntil(0.03)
        snapshots.push(solver.snapshot())
      } finally {
        await solver.dispose()
      }
    }
    expect(snapshots[1]!.positions).toEqual(snapshots[0]!.positions)
    expect(snapshots[1]!.density).toEqual(snapshots[0]!.density)
  }, 60_000)
})
