import { describe, expect, it } from 'vitest'
import { createPressureSampler, probePressure } from './probes.ts'
import { buildTankParticles, supportedSettings, tankPeriodicY, WATER } from './scenarios.ts'
import type { TankScenario } from './scenarios.ts'
import { createSolver } from './SphSolver.ts'

const G = 9.81
const dp = 0.02
const depth = 0.2

function tank(periodicY: boolean): TankScenario {
  return {
    dp,
    tank: [0.2, periodicY ? 3 * dp : 0.2, 0.3],
    fluidMin: [0, 0, 0],
    fluidMax: [0.2, periodicY ? 3 * dp : 0.2, depth],
    closed: false,
    wallLayers: 3,
    periodicY,
  }
}

async function tankAtRest(periodicY: boolean) {
  const scenario = tank(periodicY)
  return createSolver({
    settings: supportedSettings(dp),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: {
      hydrostaticInitialisation: true,
      ...(periodicY ? { periodicY: tankPeriodicY(scenario) } : {}),
    },
  })
}

describe('pressure probes', () => {
  it('read the hydrostatic pressure on the floor and a side wall of a tank at rest, and 0 in the air', async () => {
    const solver = await tankAtRest(false)
    try {
      solver.runUntil(0.05)
      const floor = probePressure(solver, [0.1, 0.1, 0])
      expect(floor / (WATER.density * G * depth)).toBeCloseTo(1, 1)
      expect(Math.abs(floor / (WATER.density * G * depth) - 1)).toBeLessThan(0.03)
      const wall = probePressure(solver, [0, 0.1, 0.1])
      expect(Math.abs(wall / (WATER.density * G * 0.1) - 1)).toBeLessThan(0.05)
      expect(probePressure(solver, [0.1, 0.1, 0.28])).toBe(0)
    } finally {
      await solver.dispose()
    }
  }, 60_000)

  it('read the same through a periodic boundary as inside the period', async () => {
    const solver = await tankAtRest(true)
    try {
      solver.runUntil(0.02)
      const inside = probePressure(solver, [0.1, dp, 0])
      // the same point one and two periods away
      expect(probePressure(solver, [0.1, dp + 3 * dp, 0])).toBeCloseTo(inside, 6)
      expect(probePressure(solver, [0.1, dp - 6 * dp, 0])).toBeCloseTo(inside, 6)
      expect(Math.abs(inside / (WATER.density * G * depth) - 1)).toBeLessThan(0.03)
    } finally {
      await solver.dispose()
    }
  }, 60_000)

  it('samples every step of a run at the solver time', async () => {
    const solver = await tankAtRest(false)
    try {
      const sampler = createPressureSampler(solver, [
        [0.1, 0.1, 0],
        [0.1, 0.1, 0.28],
      ])
      let steps = 0
      solver.runUntil(0.01, {
        onStep: () => {
          steps++
          sampler.sample()
        },
      })
      expect(sampler.timesS).toHaveLength(steps)
      expect(sampler.timesS.at(-1)).toBeCloseTo(0.01, 12)
      for (let s = 1; s < steps; s++)
        expect(sampler.timesS[s]).toBeGreaterThan(sampler.timesS[s - 1]!)
      expect(sampler.values[0]!.every((p) => p > 1500)).toBe(true)
      expect(sampler.values[1]!.every((p) => p === 0)).toBe(true)
    } finally {
      await solver.dispose()
    }
  }, 60_000)
})
