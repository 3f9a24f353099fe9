import { describe, expect, it } from 'vitest'
import { useSolvers } from './testScenarios.ts'
import { defaultSettings } from '../../domain/settings.ts'
import type { SolverConfig } from './config.ts'
import { solverPartOf, unsupportedParts, unsupportedSettings } from './support.ts'
import type { SolverSnapshot } from './SphSolver.ts'
import { createSolver } from './SphSolver.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { TankScenario } from './scenarios.ts'
import { buildTankParticles, supportedSettings, WATER } from './scenarios.ts'

const start = useSolvers()

function tankConfig(scenario: TankScenario, options: SolverConfig['options'] = {}): SolverConfig {
  return {
    settings: supportedSettings(scenario.dp),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: { hydrostaticInitialisation: true, integrator: 'symplectic', ...options },
  }
}

/** A small dam break: a 0.1 × 0.1 × 0.15 column in a 0.4 × 0.1 × 0.2 tank (dp 0.025). */
const smallDamBreak = (closed = false): TankScenario => ({
  dp: 0.025,
  tank: [0.4, 0.1, 0.2],
  fluidMin: [0, 0, 0],
  fluidMax: [0.1, 0.1, 0.15],
  closed,
  wallLayers: 3,
})

function fluidIndices(snapshot: SolverSnapshot): number[] {
  const result: number[] = []
  for (let i = 0; i < snapshot.count; i++)
    if (snapshot.kind[i] === PARTICLE_KIND.fluid) result.push(i)
  return result
}

function totalMass(snapshot: SolverSnapshot): number {
  let sum = 0
  for (let i = 0; i < snapshot.count; i++) sum += snapshot.mass[i]!
  return sum
}

describe('createSolver', () => {
  it('refuses the settings it does not implement, naming each of them', async () => {
    const settings = {
      ...defaultSettings(),
      multiphase: true,
      surfaceTension: true,
      airDrag: true,
      lowDissipationOperators: true,
    }
    const config = { ...tankConfig(smallDamBreak()), settings, options: {} }
    const names = [
      'densityLimiter with multiphase',
      'airDrag with multiphase',
      'lowDissipationOperators',
    ]
    expect(unsupportedSettings(settings)).toEqual(expect.arrayContaining(names))
    const refusal = createSolver(config)
    await expect(refusal).rejects.toThrow(/^Unsupported simulation settings: /)
    for (const name of names) await expect(createSolver(config)).rejects.toThrow(name)
  })

  it('accepts the default settings of a new simulation (lyu21 shifting, dual-step RK4, Riemann wall)', () => {
    const defaults = { ...defaultSettings(), particleDiameter: 0.01 }
    expect(defaults.shifting).toBe('lyu21')
    expect(defaults.integrationScheme).toBe('dual_timestep_rk_4')
    expect(defaults.noRiemannWall).toBe(false)
    expect(unsupportedSettings(defaults)).toEqual([])
    expect(unsupportedSettings(supportedSettings(0.01, { shifting: 'sun17' }))).toEqual([])
  })

  it('maps the settings to integrator and wall treatment, unless options override them', async () => {
    const defaults = { ...defaultSettings(), particleDiameter: smallDamBreak().dp }
    const base = tankConfig(smallDamBreak(), { integrator: null, boundary: null })
    const solver = await createSolver({ ...base, settings: defaults })
    expect(solver.describe().integrator).toBe('rk4_dual_step')
    expect(solver.describe().boundary).toBe('riemann')
    await solver.dispose()
    const plain = await createSolver({ ...base, settings: { ...defaults, noRiemannWall: true } })
    expect(plain.describe().boundary).toBe('generalized')
    await plain.dispose()
  })

  it('runs runge_kutta_4 settings with the RK4 integrator', async () => {
    const config = tankConfig(smallDamBreak(), { integrator: null })
    const solver = await start(config)
    expect(solver.describe().integrator).toBe('rk4')
    expect(solver.describe().boundary).toBe('generalized')
  })

  it('names the parts it cannot run and maps wall conditions', () => {
    const component = (type: string, velocityKind = 'no_slip', io = {}) =>
      ({ type, velocityKind, ...io }) as unknown as Parameters<
        typeof unsupportedParts
      >[0][number]['component']
    const parts = [
      { id: 1, name: 'Tank', component: component('rigid', 'slip') },
      {
        id: 2,
        name: 'Inlet',
        component: component('openboundary', '', {
          ioDirection: 'inflow',
          ioType: 'riemann_pressure',
        }),
      },
      { id: 3, name: 'Fine zone', component: component('refinement') },
      { id: 4, name: 'Water', component: component('filling') },
      {
        id: 5,
        name: 'Outlet',
        component: component('openboundary', '', {
          ioDirection: 'outflow',
          ioType: 'riemann_pressure',
        }),
      },
    ]
    expect(unsupportedParts(parts)).toEqual([
      'open boundary part "Inlet" (An inlet with pressure is not allowed.)',
      'refinement part "Fine zone" (no geometry)',
    ])
    expect(unsupportedParts(parts.slice(3), { thermodynamics: false, multiphase: true })).toEqual([
      'open boundary part "Outlet" with multiphase',
    ])
    expect(solverPartOf(parts[0]!)).toEqual({ id: 1, wallCondition: 'slip' })
    expect(solverPartOf({ id: 5, component: component('rigid', 'moving') })).toEqual({
      id: 5,
      wallCondition: 'no_slip',
    })
  })

  it('refuses a material whose viscosity is not constant', async () => {
    const config = tankConfig(smallDamBreak())
    config.materials = [{ ...WATER, viscosityKind: 'shear_rate' }]
    // a shear-rate viscosity runs from its table (viscosityModels.ts), which it needs
    await expect(createSolver(config)).rejects.toThrow(
      /The shear-rate viscosity table needs at least 2 rows/,
    )
  })
})

describe('SPH solver', () => {
  it('conserves the particle count and total mass exactly in a closed box, and no fluid leaves it', async () => {
    const scenario = smallDamBreak(true)
    const solver = await start(tankConfig(scenario))
    const before = solver.snapshot()
    solver.runUntil(0.25)
    const after = solver.snapshot()
    expect(after.count).toBe(before.count)
    expect(totalMass(after)).toBe(totalMass(before))
    for (const i of fluidIndices(after)) {
      for (let c = 0; c < 3; c++) {
        expect(after.positions[3 * i + c]).toBeGreaterThan(0)
        expect(after.positions[3 * i + c]).toBeLessThan(scenario.tank[c]!)
      }
    }
  })

  it('holds a hydrostatic pressure within a few percent of ρgh in a tank at rest', async () => {
    const dp = 0.025
    const height = 0.2
    const width = 0.15
    const solver = await start(
      tankConfig({
        dp,
        tank: [width, width, height + 2 * dp],
        fluidMin: [0, 0, 0],
        fluidMax: [width, width, height],
        closed: false,
        wallLayers: 3,
      }),
    )
    const h = solver.describe().constants.h
    // time-average over the last 0.1 s: the column still rings acoustically at a few percent
    const sums = new Map<number, { pressure: number; z: number; n: number }>()
    for (let t = 0.15; t <= 0.25 + 1e-9; t += 0.01) {
      solver.runUntil(t)
      const s = solver.snapshot()
      for (const i of fluidIndices(s)) {
        const x = s.positions[3 * i]!
        const y = s.positions[3 * i + 1]!
        if (Math.abs(x - width / 2) > dp || Math.abs(y - width / 2) > dp) continue
        const entry = sums.get(s.particleIds[i]!) ?? { pressure: 0, z: 0, n: 0 }
        entry.pressure += s.pressure[i]!
        entry.z += s.positions[3 * i + 2]!
        entry.n++
        sums.set(s.particleIds[i]!, entry)
      }
    }
    let checked = 0
    for (const entry of sums.values()) {
      const depth = height - entry.z / entry.n
      if (depth < 2 * h) continue
      const expected = 1000 * 9.81 * depth
      expect(Math.abs(entry.pressure / entry.n - expected) / expected).toBeLessThan(0.05)
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(12)
  })

  it('moves the front of a dam break forward, no faster than the dry-bed wave', async () => {
    const scenario = smallDamBreak()
    const solver = await start(tankConfig(scenario))
    const front = () => {
      const s = solver.snapshot()
      return Math.max(...fluidIndices(s).map((i) => s.positions[3 * i]!))
    }
    const initial = front()
    solver.runUntil(0.15)
    const moved = front() - initial
    expect(moved).toBeGreaterThan(0.05)
    // Ritter: the front of a dam break on a dry bed runs at most 2√(gH)
    expect(moved).toBeLessThan(2 * Math.sqrt(9.81 * 0.15) * 0.15)
  })

  it('continues from a checkpoint exactly as an uninterrupted run', async () => {
    const config = tankConfig(smallDamBreak())
    const uninterrupted = await start(config)
    for (let k = 0; k < 20; k++) uninterrupted.step()
    const bytes = uninterrupted.checkpoint()
    for (let k = 0; k < 20; k++) uninterrupted.step()
    const resumed = await start(config)
    resumed.restore(bytes)
    expect(resumed.snapshot().step).toBe(20)
    for (let k = 0; k < 20; k++) resumed.step()
    const a = uninterrupted.snapshot()
    const b = resumed.snapshot()
    expect(b.timeS).toBe(a.timeS)
    expect(b.positions).toEqual(a.positions)
    expect(b.velocities).toEqual(a.velocities)
    expect(b.density).toEqual(a.density)
  })

  it('refuses a checkpoint of a different setup', async () => {
    const solver = await start(tankConfig(smallDamBreak()))
    const other = await start(tankConfig({ ...smallDamBreak(), dp: 0.02 }))
    expect(() => other.restore(solver.checkpoint())).toThrow(/does not match/)
  })

  it.each([
    [
      'Symplectic with generalized walls',
      { integrator: 'symplectic' as const, boundary: 'generalized' as const },
    ],
    [
      'RK4 with dynamic boundary particles',
      { integrator: 'rk4' as const, boundary: 'dynamic' as const },
    ],
  ])('gives the same numbers on two threads as on one (%s)', async (_, options) => {
    const config = tankConfig(smallDamBreak(), options)
    const single = await start(config)
    const threaded = await start({ ...config, options: { ...config.options, threads: 2 } })
    expect(threaded.describe().threads).toBe(2)
    for (let k = 0; k < 50; k++) {
      single.step()
      threaded.step()
    }
    const a = single.snapshot()
    const b = threaded.snapshot()
    expect(b.positions).toEqual(a.positions)
    expect(b.velocities).toEqual(a.velocities)
    expect(b.pressure).toEqual(a.pressure)
  })

  it('agrees between the RK4 and Symplectic integrators on a short run', async () => {
    const symplectic = await start(tankConfig(smallDamBreak()))
    const rk4 = await start(tankConfig(smallDamBreak(), { integrator: 'rk4' }))
    symplectic.runUntil(0.05)
    rk4.runUntil(0.05)
    const a = symplectic.snapshot()
    const b = rk4.snapshot()
    let largest = 0
    for (let k = 0; k < a.positions.length; k++)
      largest = Math.max(largest, Math.abs(a.positions[k]! - b.positions[k]!))
    expect(largest).toBeGreaterThan(0)
    expect(largest).toBeLessThan(0.01 * 0.025)
  })

  it('keeps fluid above the floor with dynamic boundary particles', async () => {
    const solver = await start(tankConfig(smallDamBreak(), { boundary: 'dynamic' }))
    solver.runUntil(0.15)
    const s = solver.snapshot()
    for (const i of fluidIndices(s)) expect(s.positions[3 * i + 2]).toBeGreaterThan(0)
  })

  it('deletes and counts fluid particles that leave the calculation domain', async () => {
    const scenario = smallDamBreak()
    const config = tankConfig(scenario)
    config.settings = {
      ...config.settings,
      calcDomainActive: true,
      calcDomainMin: [-0.1, -0.1, -0.1],
      calcDomainMax: [0.15, 0.2, 0.3],
    }
    const solver = await start(config)
    const before = solver.snapshot()
    const report = solver.runUntil(0.15)
    const after = solver.snapshot()
    expect(report.deletedOutside).toBeGreaterThan(0)
    expect(before.count - after.count).toBe(report.deletedOutside)
    // the mass lost is that of the deleted particles (fluid masses differ: ρ dp³ at the start)
    const kept = new Set(after.particleIds)
    let deletedMass = 0
    for (let i = 0; i < before.count; i++)
      if (!kept.has(before.particleIds[i]!)) deletedMass += before.mass[i]!
    expect(totalMass(before) - totalMass(after)).toBeCloseTo(deletedMass, 9)
    for (const i of fluidIndices(after)) expect(after.positions[3 * i]).toBeLessThanOrEqual(0.15)
  })

  it('keeps densities within the limiter bounds', async () => {
    const config = tankConfig(smallDamBreak())
    config.settings = { ...config.settings, densityLimiter: true, densityThreshold: 0.002 }
    const solver = await start(config)
    solver.runUntil(0.05)
    const s = solver.snapshot()
    for (const i of fluidIndices(s)) {
      expect(s.density[i]).toBeGreaterThanOrEqual(998 - 1e-9)
      expect(s.density[i]).toBeLessThanOrEqual(1002 + 1e-9)
    }
  })

  it('takes fixed time steps when the dynamic time step is off', async () => {
    const config = tankConfig(smallDamBreak())
    config.settings = { ...config.settings, dynamicTimeStep: false }
    const solver = await start(config)
    const fixed = solver.describe().fixedDtS
    expect(fixed).toBeGreaterThan(0)
    for (let k = 0; k < 5; k++) expect(solver.step().dtS).toBe(fixed)
  })
})
