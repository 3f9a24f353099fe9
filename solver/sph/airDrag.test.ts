import { describe, expect, it } from 'vitest'
import { useSolvers } from './testScenarios.ts'
import type { SolverConfig } from './config.ts'
import { createSolver } from './SphSolver.ts'
import { PARTICLE_KIND } from './particles.ts'
import { supportedSettings, WATER } from './scenarios.ts'
import type { AirDragInput } from './airDragField.ts'
import {
  AIR_DENSITY,
  AIR_DYNAMIC_VISCOSITY,
  latticeFaceNeighbours,
  locateTime,
} from './airDragField.ts'
import { sphereDragCoefficient } from './airDrag.ts'
import { unsupportedSettings } from './support.ts'

const start = useSolvers()

const DP = 0.002
const still: AirDragInput = {
  min: [-1, -1, -10],
  max: [1, 1, 1],
  uniform: { timesS: [0], velocities: [0, 0, 0] },
}

/** Three spray droplets, each farther than the support from the others. */
function spray(airDrag: AirDragInput | null, options: SolverConfig['options'] = {}): SolverConfig {
  return {
    settings: supportedSettings(DP, { airDrag: airDrag !== null }),
    materials: [{ ...WATER, speedOfSound: 20 }],
    particles: {
      positions: Float64Array.from([0, 0, 0, 0.1, 0, 0, -0.1, 0, 0]),
      kinds: Uint8Array.from([0, 0, 0]),
      partIds: Int32Array.from([1, 1, 1]),
    },
    airDrag,
    options: { integrator: 'rk4', ...options },
  }
}

/** dv/dt = g − ½ ρ_a C_D(Re) π L² |v| v / m along z for one droplet (RK4, small steps). */
function dropletOde(timeS: number, air = 0): number {
  const L = Math.cbrt(3 / (4 * Math.PI)) * DP
  const mass = WATER.density * DP ** 3
  const accel = (v: number) => {
    const w = air - v
    const re = (AIR_DENSITY * Math.abs(w) * 2 * L) / AIR_DYNAMIC_VISCOSITY
    const cd = Math.abs(w) > 1e-9 ? sphereDragCoefficient(re) : 0
    return -9.81 + (0.5 * AIR_DENSITY * cd * Math.PI * L * L * Math.abs(w) * w) / mass
  }
  const steps = 20000
  const dt = timeS / steps
  let v = 0
  for (let s = 0; s < steps; s++) {
    const k1 = accel(v)
    const k2 = accel(v + 0.5 * dt * k1)
    const k3 = accel(v + 0.5 * dt * k2)
    const k4 = accel(v + dt * k3)
    v += (dt / 6) * (k1 + 2 * k2 + 2 * k3 + k4)
  }
  return v
}

describe('air drag (Gissler et al. 2017 without deformation)', () => {
  it('counts the neighbours of a particle on a flat face of the lattice', () => {
    // support 3 dp: 24 points of the plane and 34 below it closer than 3 dp
    expect(latticeFaceNeighbours(1, 3)).toBe(58)
    expect(latticeFaceNeighbours(0.002, 0.006)).toBe(58)
  })

  it('finds the row of a time and the weight of the next one, held at the ends', () => {
    const out = new Float64Array(2)
    locateTime([0, 1, 3], 2, out)
    expect([...out]).toEqual([1, 0.5])
    locateTime([0, 1, 3], 5, out)
    expect([...out]).toEqual([2, 0])
    locateTime([0, 1, 3], -1, out)
    expect([...out]).toEqual([0, 0])
  })

  it('slows a droplet falling through still air as the sphere drag law says', async () => {
    const solver = await start(spray(still))
    solver.runUntil(0.4)
    const snap = solver.snapshot()
    const expected = dropletOde(0.4)
    // the drag is felt: free fall would be −3.924 m/s
    expect(expected).toBeGreaterThan(-3.8)
    for (let i = 0; i < snap.count; i++)
      expect(snap.velocities[3 * i + 2]!).toBeCloseTo(expected, 5)
  })

  it('pushes droplets along with a wind that changes over time (velocity table)', async () => {
    const table: AirDragInput = {
      ...still,
      uniform: { timesS: [0, 0.1, 1], velocities: [0, 0, 0, 5, 0, 0, 5, 0, 0] },
    }
    const solver = await start(spray(table))
    solver.runUntil(0.1)
    const early = solver.snapshot().velocities[0]!
    solver.runUntil(0.3)
    const late = solver.snapshot().velocities[0]!
    expect(early).toBeGreaterThan(0)
    expect(late).toBeGreaterThan(early)
    expect(late).toBeLessThan(5)
  })

  it('leaves particles outside the domain in free fall', async () => {
    const solver = await start(spray({ ...still, min: [0.5, 0.5, 0.5] }))
    solver.runUntil(0.2)
    const snap = solver.snapshot()
    expect(snap.velocities[2]!).toBeCloseTo(-9.81 * 0.2, 10)
  })

  it('takes the air of a grid cell where the particle stands', async () => {
    // two cells along x: still air at x < 0, 4 m/s along +y at x ≥ 0
    const frames = new Float32Array(new SharedArrayBuffer(2 * 3 * 4))
    frames.set([0, 0, 0, 0, 4, 0])
    const grid: AirDragInput = {
      min: [-0.2, -1, -1],
      max: [0.2, 1, 1],
      grid: { cellSize: 0.2, dims: [2, 1, 1], timesS: [0], frames },
    }
    const solver = await start(spray(grid))
    solver.runUntil(0.1)
    const v = solver.snapshot().velocities
    // particle 0 sits at x = 0 (the second cell), 1 at x = 0.1, 2 at x = −0.1 (still air)
    expect(v[1]!).toBeGreaterThan(0.01)
    expect(v[4]!).toBeCloseTo(v[1]!, 12)
    expect(v[7]!).toBe(0)
  })

  it('shields particles behind others: a block in a wind is pushed by its face', async () => {
    const positions: number[] = []
    const n = 6
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) positions.push(i * DP, j * DP, k * DP)
    const count = positions.length / 3
    const config: SolverConfig = {
      settings: supportedSettings(DP, { airDrag: true, gravity: [0, 0, 0] }),
      materials: [{ ...WATER, speedOfSound: 20 }],
      particles: {
        positions: Float64Array.from(positions),
        kinds: new Uint8Array(count).fill(PARTICLE_KIND.fluid),
        partIds: new Int32Array(count).fill(1),
      },
      airDrag: { ...still, uniform: { timesS: [0], velocities: [10, 0, 0] } },
      options: { integrator: 'rk4' },
    }
    const solver = await start(config)
    solver.step()
    const snap = solver.snapshot()
    let momentum = 0
    let mass = 0
    for (let i = 0; i < snap.count; i++) {
      momentum += snap.mass[i]! * snap.velocities[3 * i]!
      mass += snap.mass[i]!
    }
    // the face's 36 particles take at most ½ ρ_a C_D A w² each (A ≤ 1.21 dp², C_D ≤ 1)
    const force = momentum / snap.timeS
    const faceBound = 36 * 0.5 * AIR_DENSITY * 1.21 * DP * DP * 100
    expect(force).toBeGreaterThan(0.5 * 0.5 * AIR_DENSITY * 36 * DP * DP * 100)
    expect(force).toBeLessThan(faceBound)
    expect(mass).toBeGreaterThan(0)
  })

  // Three tiny droplets make phases of microseconds: a worker often ran a phase before the
  // caller's notify for it, which then woke it again (phases.ts, waitForSequence; issue 16). The
  // wake itself is tested in phases.test.ts; this run is the end-to-end check.
  it('runs bit-identically on two threads', async () => {
    const windy: AirDragInput = { ...still, uniform: { timesS: [0], velocities: [3, 0, 1] } }
    const one = await start(spray(windy, { threads: 1 }))
    const two = await start(spray(windy, { threads: 2 }))
    one.runUntil(0.05)
    two.runUntil(0.05)
    const a = one.snapshot()
    const b = two.snapshot()
    expect([...b.positions]).toEqual([...a.positions])
    expect([...b.velocities]).toEqual([...a.velocities])
    expect([...b.density]).toEqual([...a.density])
    expect(b.step).toBe(a.step)
  })

  it("refuses air drag in a rotating frame (its air is the lab frame's)", () => {
    const settings = supportedSettings(DP, { airDrag: true, rotatingSystem: true })
    expect(unsupportedSettings(settings)).toContain('airDrag with rotatingSystem')
  })

  it('refuses air drag without its domain', async () => {
    const config = { ...spray(still), airDrag: null }
    await expect(createSolver(config)).rejects.toThrow('Air drag needs the air drag domain.')
  })
})
