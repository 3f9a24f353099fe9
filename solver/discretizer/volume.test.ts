import { describe, expect, it } from 'vitest'
import type { Vec3 } from '../../domain/vector.ts'
import { buildBoxMesh, type TriangleMesh } from '../geometry/mesh.ts'
import { discretize } from './discretize.ts'
import { fitAxis, fitOrigin, MAX_WALL_STRETCH } from './frames.ts'
import { boxShape, fillingPart, makePart, makeSetup } from './testSetup.ts'
import type { Discretization } from './types.ts'
import { computeVolumeBelow } from './volume.ts'

/** A mesh of an axis-aligned box from min to max (outward normals). */
function boxMesh(min: Vec3, max: Vec3): TriangleMesh {
  const mesh = buildBoxMesh([max[0] - min[0], max[1] - min[1], max[2] - min[2]])
  const positions = mesh.positions.map((v, i) => v + (min[i % 3]! + max[i % 3]!) / 2)
  return { positions, indices: mesh.indices }
}

const box = (min: Vec3, max: Vec3) => (max[0] - min[0]) * (max[1] - min[1]) * (max[2] - min[2])
const relative = (a: number, b: number) => (a - b) / b

/** Range of the positions of a part's particles along one axis. */
function extent(d: Discretization, partId: number, axis: number): [number, number] {
  let lo = Infinity
  let hi = -Infinity
  for (let i = 0; i < d.count; i++) {
    if (d.partIds[i] !== partId) continue
    lo = Math.min(lo, d.positions[i * 3 + axis]!)
    hi = Math.max(hi, d.positions[i * 3 + axis]!)
  }
  return [lo, hi]
}

describe('volume below a level', () => {
  it('is exact for a box, whole or cut by a plane, with either orientation', () => {
    const mesh = boxMesh([0.1, -0.2, 0.05], [0.6, 0.1, 0.3])
    expect(computeVolumeBelow(mesh, [0, 0, 1], Infinity)).toBeCloseTo(0.5 * 0.3 * 0.25, 7)
    expect(computeVolumeBelow(mesh, [0, 0, 1], 0.15)).toBeCloseTo(0.5 * 0.3 * 0.1, 7)
    // depth measured against gravity along −x: the part below x = 0.3 is 0.2 m long
    expect(computeVolumeBelow(mesh, [1, 0, 0], 0.3)).toBeCloseTo(0.2 * 0.3 * 0.25, 7)
    const inward: TriangleMesh = {
      positions: mesh.positions,
      indices: mesh.indices.map((v, i, all) =>
        i % 3 === 1 ? all[i + 1]! : i % 3 === 2 ? all[i - 1]! : v,
      ),
    }
    expect(computeVolumeBelow(inward, [0, 0, 1], 0.15)).toBeCloseTo(0.5 * 0.3 * 0.1, 7)
  })
})

describe('lattice frames', () => {
  it('centre a box between its faces and anchor on the heavier of two planes', () => {
    // 12.4 diameters apart: 0.2 dp from a midplane on each side rather than 0.4 dp on one
    const centred = fitOrigin(
      [
        { coordinate: 0, weight: 1 },
        { coordinate: 0.248, weight: 1 },
      ],
      0.02,
    )
    expect(centred).toBeCloseTo(0.004, 9)
    const anchored = fitOrigin(
      [
        { coordinate: 0.248, weight: 10 },
        { coordinate: 0, weight: 1 },
      ],
      0.02,
    )
    expect(anchored).toBeCloseTo(0.248 - 0.24, 9)
  })

  it('stretch a wall lattice by at most 5 % to put both faces of an obstacle midway', () => {
    const obstacle = [
      { coordinate: 0.6635, weight: 1 },
      { coordinate: 0.8245, weight: 1 },
    ]
    const fit = fitAxis(obstacle, 0.04)
    expect(fit.spacing).toBeCloseTo(0.161 / 4, 12)
    for (const plane of obstacle) {
      const r = (plane.coordinate - fit.origin) / fit.spacing
      expect(Math.abs(r - Math.round(r))).toBeLessThan(1e-9)
    }
    // 2.5 diameters: a 20 % stretch is refused, the faces share the misfit instead
    const thin = fitAxis(
      [
        { coordinate: 0, weight: 1 },
        { coordinate: 0.1, weight: 1 },
      ],
      0.04,
    )
    expect(thin.spacing).toBe(0.04)
    expect(MAX_WALL_STRETCH).toBe(0.05)
  })
})

describe('discretize: fluid volume', () => {
  const dp = 0.04
  const size: Vec3 = [0.5, 0.3, 0.25] // 12.5 × 7.5 × 6.25 diameters
  const volume = box([0, 0, 0], size)

  it('keeps the volume of a box whose size is not a multiple of dp, wherever it sits', () => {
    const counts: number[] = []
    for (const offset of [0, 0.013, 0.031, -0.77]) {
      const min: Vec3 = [offset, offset, offset]
      const max: Vec3 = [offset + size[0], offset + size[1], offset + size[2]]
      const d = discretize(makeSetup([makePart(1, 'flow', boxShape(min, max))], dp))
      counts.push(d.fluidCount)
      // the global lattice gave 576 to 728 particles here: −1.7 % to +24 %
      expect(Math.abs(relative(d.fluidCount * dp ** 3, volume))).toBeLessThan(
        (0.5 * dp ** 3) / volume,
      )
      const summary = d.summary.parts[0]!
      expect(summary.geometricVolume).toBeCloseTo(volume, 7)
      expect(Math.abs(summary.volumeDifference!)).toBeLessThan(0.002)
      expect(d.warnings).toEqual([])
      // the fluid stays inside its box, half a diameter from the floor
      const [zLo] = extent(d, 1, 2)
      expect(zLo - min[2]).toBeCloseTo(dp / 2, 6)
      for (const axis of [0, 1]) {
        const [lo, hi] = extent(d, 1, axis)
        // centred across: as far from one face as from the other
        expect(lo - min[axis]!).toBeCloseTo(max[axis]! - hi, 6)
      }
    }
    expect(new Set(counts)).toEqual(new Set([Math.round(volume / dp ** 3)]))
  })

  it('fills to a fill height that is not a multiple of dp with the volume below it', () => {
    const d = discretize(
      makeSetup([fillingPart(1, boxShape([0, 0, 0], [0.4, 0.2, 0.5]), 0.23)], dp),
    )
    // 10 × 5 columns, 5.75 layers: 6 layers, 12 taken off the top one (288 = 0.0184 m³ / dp³)
    expect(d.fluidCount).toBe(Math.round((0.4 * 0.2 * 0.23) / dp ** 3))
    expect(d.summary.parts[0]!.volumeCorrection).toBe(d.fluidCount - 6 * 50)
    let top = 0
    for (let i = 0; i < d.fluidCount; i++) if (d.positions[i * 3 + 2]! > 0.21) top++
    expect(top).toBe(d.fluidCount - 250)
    expect(d.warnings).toEqual([])
  })

  it('warns above 1 % with the part, both volumes and the difference', () => {
    // 12.4 × 12.4 columns of 100 layers: 12 × 12 columns, and no room above the box to even out
    const d = discretize(
      makeSetup([makePart(1, 'flow', boxShape([0, 0, 0], [0.062, 0.062, 0.5]))], 0.005),
    )
    expect(d.fluidCount).toBe(12 * 12 * 100)
    const expected = relative(14400 * 0.005 ** 3, 0.062 * 0.062 * 0.5)
    expect(expected).toBeCloseTo(-0.0635, 3)
    expect(d.summary.parts[0]!.volumeDifference).toBeCloseTo(expected, 6)
    const warning = d.warnings.find((w) => w.code === 'fluid_volume')
    expect(warning?.partId).toBe(1)
    expect(warning?.message).toBe(
      'Part "Part 1": its 14,400 particles hold 1.8 L (particles × diameter³ at 0.005 m), 6.3 % less than its volume of 1.92 L. Its size is not a whole number of particle diameters and its top could not be evened out: a smaller particle diameter reduces the difference.',
    )
  })

  it('names the walls when a solid inside the fluid takes its volume', () => {
    const d = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([0, 0, 0], [1.2, 0.8, 0.6])),
          makePart(2, 'rigid', boxShape([0.4, 0.2, 0], [0.8, 0.6, 0.4])),
        ],
        dp,
      ),
    )
    const warning = d.warnings.find((w) => w.code === 'fluid_volume')
    expect(warning?.message).toContain('11.1 % less than its volume of 576 L.')
    expect(warning?.message).toContain(
      'Walls, solids or other fluid parts overlapping it take 11.1 % of it.',
    )
    expect(d.summary.parts[0]!.volumeDifference).toBeCloseTo(-(0.4 * 0.4 * 0.4) / 0.576, 6)
  })
})

describe('discretize: walls on the real faces', () => {
  const dp = 0.04
  // SPHERIC Test 2 at 4 cm: a 3.22 m tank (80.5 diameters), a 0.161 m obstacle at x = 0.6635 m
  const obstacleMin: Vec3 = [0.6635, 0.2985, 0]
  const obstacleMax: Vec3 = [0.8245, 0.7015, 0.161]
  const d = discretize(
    makeSetup(
      [
        makePart(1, 'flow', boxShape([3.22 - 1.228, 0, 0], [3.22, 1, 0.55])),
        makePart(2, 'rigid', boxShape([0, 0, 0], [3.22, 1, 1])),
        makePart(3, 'rigid', boxShape(obstacleMin, obstacleMax)),
      ],
      dp,
    ),
  )

  it('puts the obstacle faces midway between its outer wall layer and the fluid side', () => {
    const spacing = d.summary.parts.find((p) => p.partId === 3)!.latticeSpacing
    for (const axis of [0, 1, 2]) {
      const [lo, hi] = extent(d, 3, axis)
      // the global lattice put the x faces 1.65 cm inside the real ones
      if (axis < 2) expect(lo - spacing[axis]! / 2).toBeCloseTo(obstacleMin[axis]!, 6)
      expect(hi + spacing[axis]! / 2).toBeCloseTo(obstacleMax[axis]!, 6)
      expect(Math.abs(spacing[axis]! / dp - 1)).toBeLessThanOrEqual(0.05)
    }
    expect(d.summary.parts.find((p) => p.partId === 3)!.faceMisfit).toBeLessThan(1e-6)
  })

  it('puts both end walls of a tank that is not a multiple of dp on its faces', () => {
    const tank = d.summary.parts.find((p) => p.partId === 2)!
    const [lo, hi] = extent(d, 2, 0)
    expect(lo + 2.5 * tank.latticeSpacing[0]).toBeCloseTo(0, 6)
    expect(hi - 2.5 * tank.latticeSpacing[0]).toBeCloseTo(3.22, 6)
    expect(tank.faceMisfit).toBeLessThan(1e-6)
    // the water keeps its volume and sits half a diameter from the far wall
    expect(Math.abs(d.summary.parts[0]!.volumeDifference!)).toBeLessThan(1e-3)
    expect(extent(d, 1, 0)[1]).toBeCloseTo(3.22 - dp / 2, 6)
  })
})
