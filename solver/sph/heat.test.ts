import { describe, expect, it } from 'vitest'
import type { SolverConfig, SolverMaterial } from './config.ts'
import { SolverSetupError } from './config.ts'
import { PARTICLE_KIND } from './particles.ts'
import { buildTankParticles, supportedSettings, tankPeriodicY, TANK_PART_ID } from './scenarios.ts'
import type { TankScenario } from './scenarios.ts'
import { createSolver } from './SphSolver.ts'
import type { SolverSnapshot } from './solverTypes.ts'
import { unsupportedParts, unsupportedSettings } from './support.ts'
import { conductionTimeStepLimit } from './heat.ts'
import { buildOutputObjects } from '../run/outputs.ts'

const dp = 0.002
const MATERIAL: SolverMaterial = {
  id: 1,
  density: 1000,
  gamma: 7,
  // at rest: c0 plays no part; small, so that the conduction limit sets the step
  speedOfSound: 0.002,
  kinematicViscosity: 1e-6,
  thermalConductivity: 10,
  specificHeatCapacity: 1000,
}
// a closed box full of fluid at rest, periodic along y: 4 × 10 × 4 particles
const BOX: TankScenario = {
  dp,
  tank: [4 * dp, 10 * dp, 4 * dp],
  fluidMin: [0, 0, 0],
  fluidMax: [4 * dp, 10 * dp, 4 * dp],
  closed: true,
  wallLayers: 3,
  periodicY: true,
}

function twoBlocks(overrides: Partial<SolverConfig> = {}, threads = 1): SolverConfig {
  const particles = buildTankParticles(BOX)
  const temperatures = new Float64Array(particles.kinds.length)
  for (let i = 0; i < temperatures.length; i++)
    temperatures[i] = particles.positions[3 * i + 1]! < 5 * dp ? 350 : 290
  return {
    settings: supportedSettings(dp, {
      gravity: [0, 0, 0],
      thermodynamics: true,
      ambientTemperature: 300,
    }),
    materials: [MATERIAL],
    particles: { ...particles, temperatures },
    options: { periodicY: tankPeriodicY(BOX), threads },
    ...overrides,
  }
}

async function run(config: SolverConfig, timeS: number): Promise<SolverSnapshot> {
  const solver = await createSolver(config)
  try {
    solver.runUntil(timeS)
    return solver.snapshot()
  } finally {
    await solver.dispose()
  }
}

function fluidSum(s: SolverSnapshot, value: (i: number) => number): number {
  let sum = 0
  for (let i = 0; i < s.count; i++) if (s.kind[i] === PARTICLE_KIND.fluid) sum += value(i)
  return sum
}

describe('heat conduction', () => {
  it('evens out two blocks through adiabatic walls, conserving Σ m T, and sets the step', async () => {
    const config = twoBlocks()
    const solver = await createSolver(config)
    try {
      const before = solver.snapshot()
      solver.runUntil(1)
      const after = solver.snapshot()
      const t = after.temperature!
      expect(t).toBeDefined()
      const energy = (s: SolverSnapshot) => fluidSum(s, (i) => s.mass[i]! * s.temperature![i]!)
      expect(Math.abs(energy(after) / energy(before) - 1)).toBeLessThan(1e-9)
      // the hot half cooled and the cold half warmed, neither past the mean
      let hot = 0
      let cold = 0
      for (let i = 0; i < after.count; i++) {
        if (after.kind[i] !== PARTICLE_KIND.fluid) continue
        if (after.positions[3 * i + 1]! < 5 * dp) hot = Math.max(hot, t[i]!)
        else cold = Math.max(cold, 640 - t[i]!)
        expect(Number.isNaN(t[i]!)).toBe(false)
      }
      expect(hot).toBeLessThan(349)
      expect(hot).toBeGreaterThan(300)
      expect(cold).toBeLessThan(349)
      // the conduction limit 0.125 h²/α (α = 1e-5) sets the step: the acoustic one is longer
      const h = 1.5 * dp
      expect(after.step).toBe(Math.ceil(1 / conductionTimeStepLimit(h, 1e-5)))
    } finally {
      await solver.dispose()
    }
  })

  it('gives the same temperatures on two threads as on one', async () => {
    const one = await run(twoBlocks({}, 1), 0.1)
    const two = await run(twoBlocks({}, 2), 0.1)
    expect(Array.from(two.temperature!)).toEqual(Array.from(one.temperature!))
  })

  it('warms the fluid from a floor at a set temperature; adiabatic walls pass no heat', async () => {
    const tank = buildTankParticles(BOX)
    const FLOOR = 3
    const partIds = Int32Array.from(tank.partIds)
    for (let i = 0; i < partIds.length; i++)
      if (tank.kinds[i] === PARTICLE_KIND.wall && tank.positions[3 * i + 2]! < 0) partIds[i] = FLOOR
    const base = twoBlocks({ particles: { ...tank, partIds } })
    const uniform: SolverConfig = {
      ...base,
      parts: [{ id: TANK_PART_ID, wallCondition: 'no_slip' }],
      particles: { ...tank, partIds },
    }
    const heated: SolverConfig = {
      ...uniform,
      parts: [...uniform.parts!, { id: FLOOR, wallCondition: 'no_slip', wallTemperature: 400 }],
    }
    const still = await run(uniform, 0.2)
    // without temperatures every fluid particle starts at the ambient 300 K and stays there
    expect(fluidSum(still, (i) => Math.abs(still.temperature![i]! - 300))).toBeLessThan(1e-9)
    const warmed = await run(heated, 0.2)
    let bottom = 0
    let top = 0
    for (let i = 0; i < warmed.count; i++) {
      if (warmed.kind[i] !== PARTICLE_KIND.fluid) continue
      const z = warmed.positions[3 * i + 2]!
      if (z < dp) bottom = Math.max(bottom, warmed.temperature![i]!)
      if (z > 3 * dp) top = Math.max(top, warmed.temperature![i]!)
    }
    expect(bottom).toBeGreaterThan(330)
    expect(bottom).toBeLessThan(400)
    expect(top).toBeLessThan(bottom)
    expect(top).toBeGreaterThan(300)
  })

  it('needs the conductivity and heat capacity; no temperature without thermodynamics', async () => {
    const config = twoBlocks({ materials: [{ ...MATERIAL, thermalConductivity: null }] })
    await expect(createSolver(config)).rejects.toThrow(SolverSetupError)
    const off = twoBlocks()
    const snapshot = await run({ ...off, settings: { ...off.settings, thermodynamics: false } }, 0)
    expect(snapshot.temperature).toBeUndefined()
  })

  it('writes the temperature into the fluid objects of an output (Results colours by it)', async () => {
    const snapshot = await run(twoBlocks(), 0)
    const objects = buildOutputObjects(snapshot, { material: () => 'Water', part: () => 'Tank' })
    const fluid = objects.find((o) => o.input.kind === 'fluid')!
    const columns = fluid.input.columns
    expect(Object.keys(columns)).toContain('temperature')
    expect(new Set(columns.temperature)).toEqual(new Set([350, 290]))
    const wall = objects.find((o) => o.input.kind === 'wall_boundary')!
    expect(Object.keys(wall.input.columns)).not.toContain('temperature')
    const off = twoBlocks()
    const cold = await run({ ...off, settings: { ...off.settings, thermodynamics: false } }, 0)
    const plain = buildOutputObjects(cold, { material: () => 'Water', part: () => 'Tank' })
    expect(Object.keys(plain[0]!.input.columns)).not.toContain('temperature')
  })

  it('runs thermodynamics; refuses heat-flux walls with it', () => {
    const settings = supportedSettings(dp, { thermodynamics: true })
    expect(unsupportedSettings(settings)).toEqual([])
    const part = (thermoKind: 'heat_flux' | 'temperature') => ({
      name: 'Floor',
      component: {
        type: 'rigid',
        thermoKind,
        initialPreset: null,
      } as unknown as Parameters<typeof unsupportedParts>[0][number]['component'],
    })
    expect(unsupportedParts([part('heat_flux')], settings)).toEqual([
      'thermal condition heat_flux of part "Floor"',
    ])
    expect(unsupportedParts([part('temperature')], settings)).toEqual([])
    expect(unsupportedParts([part('heat_flux')], { thermodynamics: false })).toEqual([])
  })
})
