import { describe, expect, it } from 'vitest'
import { buildOutputObjects } from '../run/outputs.ts'
import { buildOpenChannel, CHANNEL_INLET_ID, CHANNEL_OUTLET_ID } from './openChannel.ts'
import type { OpenChannel } from './openChannel.ts'
import { interpolateProfile } from './openBoundary.ts'
import { PARTICLE_KIND } from './particles.ts'
import { OPEN_BOUNDARY_KIND } from './snapshot.ts'
import type { SolverSnapshot } from './solverTypes.ts'
import { createSolver } from './SphSolver.ts'

const U = 0.05
const CHANNEL: OpenChannel = {
  particlesAcross: 4,
  height: 0.04,
  lengthInHeights: 2,
  depthParticles: 3,
  speed: U,
  outletPressure: 0,
  walls: 'slip',
  material: { id: 1, density: 1000, gamma: 7, speedOfSound: 10 * U, kinematicViscosity: 1e-6 },
}

function fluidMass(s: SolverSnapshot): number {
  let mass = 0
  for (let i = 0; i < s.count; i++) if (s.kind[i] === PARTICLE_KIND.fluid) mass += s.mass[i]!
  return mass
}

/** The positions, velocities and densities as sorted lists (ids may differ after a restore). */
function state(s: SolverSnapshot): number[][] {
  const rows: number[][] = []
  for (let i = 0; i < s.count; i++)
    rows.push([
      s.kind[i]!,
      ...s.positions.subarray(3 * i, 3 * i + 3),
      ...s.velocities.subarray(3 * i, 3 * i + 3),
      s.density[i]!,
    ])
  return rows.sort((a, b) => a[1]! - b[1]! || a[2]! - b[2]! || a[3]! - b[3]!)
}

describe('open boundaries', () => {
  it('brings fluid in at the inlet and takes it out at the outlet, mass accounted exactly', async () => {
    // the fluid starts at rest: the inlet pushes it; 0.2 s moves the inlet 1.25 layers
    const config = buildOpenChannel({ ...CHANNEL, initialSpeed: 0 }, { endTime: 1 })
    const solver = await createSolver(config)
    try {
      const start = solver.snapshot()
      const buffers = start.kind.filter((k) => k === OPEN_BOUNDARY_KIND).length
      expect(buffers).toBe(2 * 4 * 4 * 3)
      const report = solver.runUntil(0.3)
      const end = solver.snapshot()
      const open = report.openBoundary!
      const layer = 4 * 3 * start.mass[0]!
      // every inlet layer that crossed: a whole number of layers, here at least one
      expect(open.inflowMass).toBeGreaterThanOrEqual(layer)
      expect(fluidMass(end) - fluidMass(start)).toBeCloseTo(open.inflowMass - open.outflowMass, 12)
      // the inlet's buffer keeps its particles: one new behind each that entered
      const inlet = end.partId.filter(
        (id, i) => id === CHANNEL_INLET_ID && end.kind[i] === OPEN_BOUNDARY_KIND,
      ).length
      expect(inlet).toBe(buffers / 2)
      expect(end.count).toBe(
        start.count + Math.round(open.inflowMass / start.mass[0]!) - report.deletedOutside,
      )
      // ids unique
      expect(new Set(end.particleIds).size).toBe(end.count)
      // outputs: the buffers as open-boundary objects, one per part
      const objects = buildOutputObjects(end, { material: () => 'water', part: (id) => `${id}` })
      expect(objects.map((o) => [o.input.kind, o.input.objectId])).toEqual([
        ['fluid', 'fluid-1'],
        ['wall_boundary', 'wall-2'],
        ['open_boundary', `open-${CHANNEL_INLET_ID}`],
        ['open_boundary', `open-${CHANNEL_OUTLET_ID}`],
      ])
      expect(objects[2]!.input.columns.x!.length).toBe(buffers / 2)
    } finally {
      await solver.dispose()
    }
  })

  it('lets particles out through the outlet (the count falls and rises)', async () => {
    const solver = await createSolver(buildOpenChannel(CHANNEL, { endTime: 1 }))
    try {
      const report = solver.runUntil(0.45)
      // a plug at U, dp 1 cm: 0.45 s is 2.25 layers: the buffers' first 2 layers (dp/2 and
      // 3dp/2 from the plane, or from the outlet buffer's back) went in and out
      const mass = solver.snapshot().mass[0]!
      expect(report.deletedOutside).toBe(2 * 4 * 3)
      expect(report.openBoundary!.inflowMass).toBeCloseTo(2 * 4 * 3 * mass, 12)
      expect(report.deletedInvalid).toBe(0)
      expect(report.openBoundary!.inflowMass).toBeCloseTo(report.openBoundary!.outflowMass, 12)
      const s = solver.snapshot()
      let mean = 0
      let n = 0
      for (let i = 0; i < s.count; i++)
        if (s.kind[i] === PARTICLE_KIND.fluid) {
          mean += s.velocities[3 * i]!
          n++
        }
      expect(mean / n).toBeCloseTo(U, 3)
    } finally {
      await solver.dispose()
    }
  })

  it('runs alike on 2 threads and resumes from a checkpoint', async () => {
    const config = buildOpenChannel({ ...CHANNEL, initialSpeed: 0 }, { endTime: 1 })
    const one = await createSolver(config)
    const two = await createSolver({ ...config, options: { ...config.options, threads: 2 } })
    const resumed = await createSolver(config)
    try {
      one.runUntil(0.15)
      two.runUntil(0.15)
      const saved = one.checkpoint()
      one.runUntil(0.3)
      two.runUntil(0.3)
      resumed.restore(saved)
      resumed.runUntil(0.3)
      const expected = one.snapshot()
      expect(Array.from(two.snapshot().positions)).toEqual(Array.from(expected.positions))
      expect(state(resumed.snapshot())).toEqual(state(expected))
    } finally {
      await Promise.all([one.dispose(), two.dispose(), resumed.dispose()])
    }
  })

  it('interpolates a profile linearly over time and holds its ends', () => {
    const profile = {
      timesS: [1, 3],
      velocities: [
        [0, 0, 0],
        [2, 0, -4],
      ] as [number, number, number][],
      pressures: [10, 30],
    }
    expect(interpolateProfile(profile, 0)).toEqual({ velocity: [0, 0, 0], pressure: 10 })
    expect(interpolateProfile(profile, 2)).toEqual({ velocity: [1, 0, -2], pressure: 20 })
    expect(interpolateProfile(profile, 5)).toEqual({ velocity: [2, 0, -4], pressure: 30 })
  })
})
