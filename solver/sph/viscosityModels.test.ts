import { describe, expect, it } from 'vitest'
import type { SolverConfig } from './config.ts'
import { PARTICLE_KIND } from './particles.ts'
import { buildTankParticles, supportedSettings, tankPeriodicY } from './scenarios.ts'
import type { TankScenario } from './scenarios.ts'
import { createSolver } from './SphSolver.ts'
import { interpolateViscosity, orderViscosityTable } from './viscosityModels.ts'

describe('viscosity tables', () => {
  it('orders rows, refuses unusable tables, interpolates linearly and holds the ends', () => {
    expect(
      orderViscosityTable([
        { x: 3, nu: 1e-4 },
        { x: 1, nu: 3e-4 },
      ]),
    ).toEqual({ x: [1, 3], nu: [3e-4, 1e-4] })
    expect(orderViscosityTable([{ x: 1, nu: 1e-4 }])).toBe('needs at least 2 rows')
    expect(
      orderViscosityTable([
        { x: 1, nu: 1e-4 },
        { x: 1, nu: 2e-4 },
      ]),
    ).toBe('repeats the value 1')
    expect(
      orderViscosityTable([
        { x: 1, nu: 0 },
        { x: 2, nu: 2e-4 },
      ]),
    ).toBe('has a viscosity that is not greater than 0')
    const x = [1, 3, 7]
    const nu = [3e-4, 1e-4, 5e-5]
    expect(interpolateViscosity(x, nu, 2)).toBeCloseTo(2e-4, 15)
    expect(interpolateViscosity(x, nu, 5)).toBeCloseTo(7.5e-5, 15)
    expect(interpolateViscosity(x, nu, 0)).toBe(3e-4)
    expect(interpolateViscosity(x, nu, 100)).toBe(5e-5)
  })
})

// a closed box of fluid 12 particles high, periodic along y, sheared: v_y = S z
const dp = 0.01
const BOX: TankScenario = {
  dp,
  tank: [12 * dp, 4 * dp, 12 * dp],
  fluidMin: [0, 0, 0],
  fluidMax: [12 * dp, 4 * dp, 12 * dp],
  closed: true,
  wallLayers: 3,
  periodicY: true,
}

function sheared(rate: number, overrides: Partial<SolverConfig> = {}): SolverConfig {
  const particles = buildTankParticles(BOX)
  const n = particles.kinds.length
  const velocities = new Float64Array(3 * n)
  const temperatures = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    velocities[3 * i + 1] = rate * particles.positions[3 * i + 2]!
    temperatures[i] = 280 + 1000 * particles.positions[3 * i]!
  }
  return {
    settings: supportedSettings(dp, { gravity: [0, 0, 0] }),
    materials: [
      {
        id: 1,
        density: 1000,
        gamma: 7,
        speedOfSound: 10,
        kinematicViscosity: 3e-4,
        viscosityKind: 'shear_rate',
        viscosityTable: { x: [1, 3], nu: [3e-4, 1e-4] },
      },
    ],
    particles: { ...particles, velocities, temperatures },
    options: { periodicY: tankPeriodicY(BOX) },
    ...overrides,
  }
}

/** ν of the fluid particles at least 2h (3 dp) from every wall, after one short step. */
async function interiorViscosities(config: SolverConfig) {
  const solver = await createSolver(config)
  try {
    solver.step(1e-6)
    const s = solver.snapshot()
    const values: { x: number; nu: number }[] = []
    for (let i = 0; i < s.count; i++) {
      if (s.kind[i] !== PARTICLE_KIND.fluid) continue
      const x = s.positions[3 * i]!
      const z = s.positions[3 * i + 2]!
      if (Math.min(x, z, 12 * dp - x, 12 * dp - z) < 3 * dp) continue
      values.push({ x, nu: s.kinematicViscosity![i]! })
    }
    return values
  } finally {
    await solver.dispose()
  }
}

describe('viscosity models in the solver', () => {
  it('gives each particle ν of its shear rate √(2 D:D) = |dv_y/dz|', async () => {
    const values = await interiorViscosities(sheared(2))
    expect(values.length).toBeGreaterThan(10)
    // ν(2 1/s) = 2e-4 on the table (the kernel sum on a lattice is 1.0006, hence the tolerance)
    for (const { nu } of values) expect(nu).toBeCloseTo(2e-4, 6)
    const faster = await interiorViscosities(sheared(2.5))
    for (const { nu } of faster) expect(nu).toBeCloseTo(1.5e-4, 6)
  })

  it('gives each particle ν of its temperature with a temperature table', async () => {
    const base = sheared(0)
    const config: SolverConfig = {
      ...base,
      settings: { ...base.settings, thermodynamics: true, ambientTemperature: 300 },
      materials: [
        {
          ...base.materials[0]!,
          viscosityKind: 'temperature',
          viscosityTable: { x: [280, 400], nu: [3e-4, 1e-4] },
          thermalConductivity: 0.6,
          specificHeatCapacity: 4186,
        },
      ],
    }
    const values = await interiorViscosities(config)
    for (const { x, nu } of values) expect(nu).toBeCloseTo(3e-4 - (2e-4 * (1000 * x)) / 120, 8)
    // a temperature table needs the Heat Transfer Model
    await expect(
      createSolver({ ...config, settings: { ...config.settings, thermodynamics: false } }),
    ).rejects.toThrow('Temperature-dependent viscosity requires the Heat Transfer Model.')
  })
})
