import { describe, expect, it } from 'vitest'
import type { Ray } from '../../data/bvh.ts'
import type { SetupTransform } from '../../setupProtocol.ts'
import {
  dragInViewPlane,
  nearestAxisParameter,
  rotateAngle,
  rotateTransform,
  translateDistance,
  translateTransform,
} from './gizmo.ts'
import { placementMatrix, transformPoint } from './setupMath.ts'

/** A ray straight down the −z axis through (x, y). */
const down = (x: number, y: number): Ray => ({ origin: [x, y, 10], direction: [0, 0, -1] })

const placed: SetupTransform = {
  translation: [1, 0, 0],
  rotationDeg: [0, 0, 0],
  scale: [1, 1, 1],
}

describe('gizmo drag maths', () => {
  it('translates along an axis by how far its nearest point to the pointer ray moved', () => {
    expect(nearestAxisParameter([0, 0, 0], [1, 0, 0], down(2.5, 7))).toBeCloseTo(2.5)
    const distance = translateDistance([1, 0, 0], [1, 0, 0], down(1.2, 0.3), down(3.7, -4))
    expect(distance).toBeCloseTo(2.5)
    expect(translateTransform(placed, [1, 0, 0], distance!).translation).toEqual([3.5, 0, 0])
  })

  it('does not translate along an axis seen end-on', () => {
    expect(translateDistance([0, 0, 0], [0, 0, 1], down(0, 0), down(1, 1))).toBeNull()
  })

  it('measures the signed angle of a rotate drag in the plane of the ring', () => {
    // From +x to +y about +z: a quarter turn, counter-clockwise seen from above.
    expect(rotateAngle([0, 0, 0], [0, 0, 1], down(2, 0), down(0, 2))).toBeCloseTo(Math.PI / 2)
    expect(rotateAngle([0, 0, 0], [0, 0, 1], down(0, 2), down(2, 0))).toBeCloseTo(-Math.PI / 2)
    // A ring seen edge-on gives no angle.
    expect(rotateAngle([0, 0, 0], [1, 0, 0], down(0, 1), down(0, 2))).toBeNull()
  })

  it('turns a part about the pivot: the rotation composes and the translation swings round', () => {
    const turned = rotateTransform(placed, [0, 0, 0], [0, 0, 1], Math.PI / 2)
    expect(turned.translation[0]).toBeCloseTo(0)
    expect(turned.translation[1]).toBeCloseTo(1)
    expect(turned.rotationDeg[2]).toBeCloseTo(90)
    // The placed geometry is the old one turned: every corner lands where the turn takes it.
    const before = placementMatrix({ ...placed, rotationDeg: [30, 0, 0] })
    const after = placementMatrix(
      rotateTransform({ ...placed, rotationDeg: [30, 0, 0] }, [1, 1, 0], [0, 1, 0], 0.7),
    )
    for (const corner of [
      [0, 0, 0],
      [1, 2, 3],
      [-1, 0.5, 2],
    ]) {
      const p = transformPoint(before, corner)
      // The same point turned by 0.7 rad about the y axis through (1, 1, 0).
      const [x, z] = [p[0] - 1, p[2]]
      const expected = [
        1 + x * Math.cos(0.7) + z * Math.sin(0.7),
        p[1],
        -x * Math.sin(0.7) + z * Math.cos(0.7),
      ]
      const q = transformPoint(after, corner)
      for (let k = 0; k < 3; k++) expect(q[k]).toBeCloseTo(expected[k]!, 9)
    }
  })

  it('moves a seed point in the view plane through it', () => {
    const moved = dragInViewPlane([1, 2, 3], [0, 0, -1], down(4, 5))
    expect(moved).toEqual([4, 5, 3])
    // A ray parallel to the plane cannot place it.
    expect(
      dragInViewPlane([1, 2, 3], [0, 0, -1], { origin: [0, 0, 0], direction: [1, 0, 0] }),
    ).toBeNull()
  })
})
