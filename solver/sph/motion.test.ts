import { describe, expect, it } from 'vitest'
import type { Movement, RigidTransform } from './motion.ts'
import type { Movement as DomainMovement } from '../../domain/movements.ts'
import {
  createDomainMovementMotion,
  createMovementMotion,
  identityTransform,
  movementTravel,
  poseToTransform,
} from './motion.ts'

function apply(transform: RigidTransform, p: [number, number, number]): number[] {
  const m = transform.matrix
  const o = transform.offset
  return [0, 1, 2].map(
    (r) => m[3 * r]! * p[0] + m[3 * r + 1]! * p[1] + m[3 * r + 2]! * p[2] + o[r]!,
  )
}

describe('wall motion', () => {
  it('rests before the start, accelerates during the movement and holds after the end', () => {
    const movement: Movement = {
      type: 'translatory',
      startS: 1,
      endS: 3,
      velocity: 2,
      acceleration: 1,
      direction: [1, 0, 0],
    }
    expect(movementTravel(movement, 0.5)).toBe(0)
    expect(movementTravel(movement, 2)).toBeCloseTo(2 + 0.5, 12)
    expect(movementTravel(movement, 5)).toBeCloseTo(4 + 2, 12)
  })

  it('rotates about the given centre, then translates', () => {
    const transform = identityTransform()
    poseToTransform(
      {
        translation: [0, 0, 1],
        rotation: { axis: [0, 0, 2], angleRad: Math.PI / 2, center: [1, 0, 0] },
      },
      transform,
    )
    const moved = apply(transform, [2, 0, 0])
    expect(moved[0]).toBeCloseTo(1, 12)
    expect(moved[1]).toBeCloseTo(1, 12)
    expect(moved[2]).toBeCloseTo(1, 12)
  })

  it('composes a part’s movements in order and leaves other parts at rest', () => {
    const motion = createMovementMotion(
      new Map<number, Movement[]>([
        [
          4,
          [
            {
              type: 'translatory',
              startS: 0,
              endS: null,
              velocity: 1,
              acceleration: 0,
              direction: [0, 2, 0],
            },
            {
              type: 'rotatory',
              startS: 0,
              endS: null,
              velocity: Math.PI,
              acceleration: 0,
              axis: [0, 0, 1],
              center: [0, 0, 0],
            },
          ],
        ],
      ]),
    )
    expect(motion(5, 1)).toBeNull()
    const transform = identityTransform()
    poseToTransform(motion(4, 0.5), transform)
    // translate by (0, 0.5, 0), then turn a quarter about z: (1, 0, 0) → (1, 0.5, 0) → (−0.5, 1, 0)
    const moved = apply(transform, [1, 0, 0])
    expect(moved[0]).toBeCloseTo(-0.5, 12)
    expect(moved[1]).toBeCloseTo(1, 12)
    expect(moved[2]).toBeCloseTo(0, 12)
  })

  it('reads a quaternion pose like the same axis–angle rotation', () => {
    const half = Math.PI / 6
    const a = identityTransform()
    const b = identityTransform()
    poseToTransform(
      { translation: [1, 2, 3], quaternion: [Math.sin(half), 0, 0, Math.cos(half)] },
      a,
    )
    poseToTransform(
      {
        translation: [1, 2, 3],
        rotation: { axis: [1, 0, 0], angleRad: 2 * half, center: [0, 0, 0] },
      },
      b,
    )
    for (let k = 0; k < 9; k++) expect(a.matrix[k]).toBeCloseTo(b.matrix[k]!, 12)
    expect([...a.offset]).toEqual([...b.offset])
  })

  it('follows the spec movements of a part, with virtual movements moving only the velocity', () => {
    const base = { name: 'm', parents: [], followers: [], acc: 0 }
    const movements: DomainMovement[] = [
      {
        ...base,
        id: 1,
        partId: 3,
        type: 'translatory',
        start: 0,
        end: null,
        vel: 0.5,
        virtualMovement: false,
        direction: [0, 0, 1],
      },
      {
        ...base,
        id: 2,
        partId: 4,
        type: 'translatory',
        start: 0,
        end: null,
        vel: 2,
        virtualMovement: true,
        direction: [1, 0, 0],
      },
    ]
    const motion = createDomainMovementMotion(movements, 10)
    expect(motion(3, 2)).toMatchObject({ translation: [0, 0, 1] })
    expect(motion(3, 2)?.velocityPose).toBeUndefined()
    const belt = motion(4, 1)
    expect(belt).toMatchObject({ translation: [0, 0, 0], velocityPose: { translation: [2, 0, 0] } })
    expect(motion(5, 1)).toBeNull()
  })
})
