import { describe, expect, it } from 'vitest'
import type { Shape } from '../../domain/parts.ts'
import { densityFromPressure } from '../sph/equationOfState.ts'
import type { ReferencePointCloud } from '../setup.ts'
import { discretize } from './discretize.ts'
import { distributionWeights, resolveInitialDistribution } from './initialDistribution.ts'
import {
  missingCloudMessage,
  pointcloudRoleMessage,
  splittingRatioMessage,
} from './referenceClouds.ts'
import { boxShape, makePart, makeSetup } from './testSetup.ts'

const dp = 0.02

function cloudShape(overrides: Partial<Extract<Shape, { type: 'pointcloud' }>> = {}): Shape {
  return {
    type: 'pointcloud',
    translation: [0, 0, 0],
    scale: [1, 1, 1],
    rotation: [0, 0, 0],
    flipNormals: false,
    info: null,
    refSimulationId: 7,
    refSimulationOutput: 3,
    splittingRatio: 1,
    ...overrides,
  }
}

/** A 3-particle reference output with velocities; pressures and densities as given. */
function referenceCloud(
  particleDiameter: number,
  given: Pick<ReferencePointCloud, 'pressures' | 'densities'> = {
    pressures: null,
    densities: null,
  },
): ReferencePointCloud {
  return {
    refSimulationId: 7,
    refSimulationOutput: 3,
    particleDiameter,
    count: 3,
    positions: Float32Array.from([0.01, 0.01, 0.01, 0.03, 0.01, 0.01, 0.01, 0.01, 0.03]),
    velocities: Float32Array.from([1, 0, 0, 0, 2, 0, 0, 0, -3]),
    ...given,
  }
}

describe('pointcloud parts', () => {
  it("places the reference output's particles with its velocities, pressures and densities", () => {
    const cloud = referenceCloud(0.01, {
      pressures: Float32Array.from([10, 20, 30]),
      densities: Float32Array.from([1000.5, 1001, 1001.5]),
    })
    const setup = makeSetup([makePart(1, 'flow', cloudShape())], dp)
    setup.pointClouds = { 1: cloud }
    const d = discretize(setup)
    expect(d.errors).toEqual([])
    // the reference's particle diameter, not the setting's
    expect(d.particleDiameter).toBe(0.01)
    expect(d.warnings.map((w) => w.code)).toContain('invalid_settings')
    expect(d.fluidCount).toBe(3)
    expect([...d.positions]).toEqual([...cloud.positions])
    expect([...d.velocities]).toEqual([...cloud.velocities!])
    expect([...d.pressures]).toEqual([10, 20, 30])
    expect([...d.densities]).toEqual([...cloud.densities!])
    expect([...d.partIds]).toEqual([1, 1, 1])
    expect(d.summary.parts).toMatchObject([{ partId: 1, role: 'fluid', particleCount: 3 }])
    expect(d.summary.materials).toMatchObject([{ materialId: 0, particleCount: 3 }])
  })

  it('derives density from the pressure, and turns and moves the cloud with the part', () => {
    const cloud = referenceCloud(dp, {
      pressures: Float32Array.from([0, 100, 1000]),
      densities: null,
    })
    const part = makePart(
      1,
      'filling',
      cloudShape({ rotation: [0, 0, 90], translation: [1, 2, 3] }),
    )
    const setup = makeSetup([part], dp)
    setup.pointClouds = { 1: cloud }
    const d = discretize(setup)
    expect(d.errors).toEqual([])
    // (0.03, 0.01, 0.01) turned 90° about z is (−0.01, 0.03, 0.01)
    expect(d.positions[3]).toBeCloseTo(1 - 0.01, 6)
    expect(d.positions[4]).toBeCloseTo(2 + 0.03, 6)
    expect(d.positions[5]).toBeCloseTo(3 + 0.01, 6)
    // velocity (1, 0, 0) turned to (0, 1, 0)
    expect(d.velocities[0]).toBeCloseTo(0, 9)
    expect(d.velocities[1]).toBeCloseTo(1, 9)
    const tait = { referenceDensity: 1000, gamma: 7, speedOfSound: d.speedOfSound }
    expect(d.densities[2]).toBeCloseTo(densityFromPressure(tait, 1000), 9)
  })

  it('refuses a missing cloud, a rigid pointcloud part and a splitting ratio above 1', () => {
    const setup = makeSetup(
      [
        makePart(1, 'flow', cloudShape()),
        makePart(2, 'rigid', cloudShape()),
        makePart(3, 'flow', cloudShape({ splittingRatio: 2 })),
      ],
      dp,
    )
    setup.pointClouds = { 3: referenceCloud(dp) }
    const d = discretize(setup)
    expect(d.count).toBe(0)
    expect(d.errors.map((e) => e.message)).toEqual([
      missingCloudMessage('Part 1'),
      pointcloudRoleMessage('Part 2'),
      splittingRatioMessage('Part 3', 2),
    ])
  })

  it('sits beside lattice-filled fluid and walls', () => {
    const setup = makeSetup(
      [
        makePart(1, 'flow', cloudShape()),
        makePart(2, 'flow', boxShape([1, 0, 0], [1.1, 0.1, 0.1])),
      ],
      dp,
    )
    setup.pointClouds = { 1: referenceCloud(dp) }
    const d = discretize(setup)
    expect(d.errors).toEqual([])
    expect(d.fluidCount).toBe(125 + 3)
    expect(d.summary.fluidCount).toBe(128)
    expect([...d.partIds.slice(125)]).toEqual([1, 1, 1])
  })
})

describe('initial distribution tables', () => {
  const table = {
    headers: ['pos_x', 'pos_y', 'pos_z', 'vel_x', 'prs'],
    table: {
      pos_x: [0, 0.2],
      pos_y: [0.05, 0.05],
      pos_z: [0.05, 0.05],
      vel_x: [1, 3],
      prs: [100, 300],
    },
  }

  it('interpolates velocity and pressure onto the filled particles, exact at the rows', () => {
    const part = makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.1, 0.1]))
    if (part.component.type !== 'flow') throw new Error('flow expected')
    part.component.initialDistribution = true
    part.component.initialDistributionTableId = 5
    part.component.initialVelocity = [0, 0, -2]
    const setup = makeSetup([part], dp)
    setup.datatables = { 5: table }
    const d = discretize(setup)
    expect(d.errors).toEqual([])
    expect(d.fluidCount).toBe(250)
    for (let q = 0; q < d.fluidCount; q++) {
      const x = d.positions[q * 3]!
      const vx = d.velocities[q * 3]!
      // inverse-distance weights of two rows: monotone between 1 and 3, mirrored about x = 0.1
      expect(vx).toBeGreaterThan(1)
      expect(vx).toBeLessThan(3)
      expect(Math.sign(vx - 2)).toBe(Math.sign(Math.round((x - 0.1) * 1e9)))
      expect(d.pressures[q]).toBeCloseTo(100 * vx, 6)
      // the velocity column the table lacks keeps the part's constant
      expect(d.velocities[q * 3 + 2]).toBe(-2)
    }
  })

  it('weights a particle on a row fully to that row', () => {
    const part = makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.1, 0.1]))
    if (part.component.type !== 'flow') throw new Error('flow expected')
    part.component.initialDistribution = true
    part.component.initialDistributionTableId = 5
    const setup = makeSetup([part], dp)
    setup.datatables = { 5: table }
    const distribution = resolveInitialDistribution(part, setup, { errors: [], warnings: [] })!
    const weights = new Float64Array(2)
    distributionWeights(distribution, 0.2, 0.05, 0.05, weights)
    expect([...weights]).toEqual([0, 1])
  })

  it('refuses a missing table and one without positions', () => {
    const part = makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.1, 0.1]))
    if (part.component.type !== 'flow') throw new Error('flow expected')
    part.component.initialDistribution = true
    part.component.initialDistributionTableId = 5
    expect(discretize(makeSetup([part], dp)).errors.map((e) => e.code)).toEqual([
      'initial_conditions_not_applied',
    ])
    const setup = makeSetup([part], dp)
    setup.datatables = { 5: { headers: ['pos_x'], table: { pos_x: [0, 1] } } }
    expect(discretize(setup).errors[0]?.message).toMatch(/pos_x, pos_y and pos_z/)
  })
})
