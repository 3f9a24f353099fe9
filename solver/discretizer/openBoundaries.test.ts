import { describe, expect, it } from 'vitest'
import { defaultComponent, type Component, type Shape } from '../../domain/parts.ts'
import { createRunSolverConfig } from '../run/runConfig.ts'
import type { RunSimulationOptions } from '../run/types.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { discretize } from './discretize.ts'
import { OPEN_BOUNDARY_LAYERS } from './openBoundaries.ts'
import { boxShape, makePart, makeSetup, planeShape } from './testSetup.ts'

/** A 5 cm square plane at x = x0, turned from normal +z to +x (about y). */
function wallPlane(x0: number): Shape {
  return {
    ...planeShape(0.05, 0),
    rotation: [0, 90, 0],
    translation: [x0, 0.025, 0.025],
  }
}

function openPart(id: number, x0: number, io: Partial<Component>) {
  return makePart(id, 'openboundary', wallPlane(x0), {
    component: { ...defaultComponent('openboundary'), ...io } as Component,
  })
}

describe('open boundary buffers', () => {
  const dp = 0.01
  const setup = makeSetup(
    [
      makePart(1, 'filling', boxShape([0, 0, 0], [0.1, 0.05, 0.05])),
      openPart(2, 0, { ioDirection: 'inflow', ioType: 'riemann_velocity', ioVelocity: 0.3 }),
      openPart(3, 0.1, { ioDirection: 'outflow', ioType: 'riemann_pressure', ioPressure: 50 }),
    ],
    dp,
  )
  setup.settings.gravity = [0, 0, 0]

  it('lays buffer layers behind each face, on the side away from the fluid', () => {
    const d = discretize(setup)
    expect(d.errors).toEqual([])
    for (const [id, lo, hi] of [
      [2, -OPEN_BOUNDARY_LAYERS * dp, 0],
      [3, 0.1, 0.1 + OPEN_BOUNDARY_LAYERS * dp],
    ] as const) {
      const xs: number[] = []
      for (let i = 0; i < d.count; i++)
        if (d.partIds[i] === id) {
          expect(d.kinds[i]).toBe(PARTICLE_KIND.fluid)
          xs.push(d.positions[3 * i]!)
        }
      // 5 × 5 sites per layer
      expect(xs.length).toBe(25 * OPEN_BOUNDARY_LAYERS)
      for (const x of xs) {
        expect(x).toBeGreaterThan(lo)
        expect(x).toBeLessThan(hi)
      }
    }
    // the summary lists each boundary's buffer (the setup view draws its particles from it) and
    // counts them in the total, not in the fluid's count
    const buffers = d.summary.parts.filter((part) => part.role === 'open_boundary')
    expect(buffers.map((part) => [part.partId, part.particleCount])).toEqual([
      [2, 25 * OPEN_BOUNDARY_LAYERS],
      [3, 25 * OPEN_BOUNDARY_LAYERS],
    ])
    expect(d.summary.openBoundaryCount).toBe(50 * OPEN_BOUNDARY_LAYERS)
    expect(d.summary.fluidCount).toBe(250)
    expect(d.summary.particleCount).toBe(d.count)
  })

  it('gives the run the planes, normals into the fluid and the imposed values', () => {
    const d = discretize(setup)
    const options = { setup, particles: d, threads: 1 } as unknown as RunSimulationOptions
    const config = createRunSolverConfig(options)
    const [inlet, outlet] = config.openBoundaries!
    expect(inlet!.direction).toBe('inflow')
    expect(inlet!.origin[0]).toBeCloseTo(0, 6)
    expect(inlet!.normal.map((v) => Math.round(v * 1e6) / 1e6)).toEqual([1, 0, 0])
    expect(inlet!.profile.velocities[0]![0]).toBeCloseTo(0.3, 6)
    expect(inlet!.thickness).toBeCloseTo(OPEN_BOUNDARY_LAYERS * dp, 12)
    expect(outlet!.origin[0]).toBeCloseTo(0.1, 6)
    expect(outlet!.normal[0]).toBeCloseTo(-1, 6)
    expect(outlet!.profile.pressures).toEqual([50])
  })
})
