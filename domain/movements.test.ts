import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  KEYFRAME_MAX_ANGLE_STEP_RAD,
  KEYFRAME_WARNING_THRESHOLD,
  MovementCreateSchema,
  MovementListSchema,
  MovementUpdateSchema,
  checkMovement,
  computePartKeyframes,
  descendantIds,
  keyframeWarning,
  leaderCandidates,
  movementChain,
  movementUnits,
  nextMovementName,
  rotateVector,
  type Keyframe,
  type Movement,
  type MovementInput,
} from './movements.ts'
import type { Vec3 } from './vector.ts'

function translation(
  id: number,
  patch: Partial<Extract<Movement, { type: 'translatory' }>> = {},
): Movement {
  return {
    id,
    partId: 1,
    type: 'translatory',
    name: `translation ${id}`,
    start: 0,
    end: null,
    acc: 0,
    vel: 1,
    virtualMovement: false,
    direction: [1, 0, 0],
    parents: [],
    followers: [],
    ...patch,
  }
}
function rotation(
  id: number,
  patch: Partial<Extract<Movement, { type: 'rotatory' }>> = {},
): Movement {
  return {
    id,
    partId: 1,
    type: 'rotatory',
    name: `rotation ${id}`,
    start: 0,
    end: null,
    acc: 0,
    vel: Math.PI / 2,
    virtualMovement: false,
    axis: [0, 0, 1],
    center: [0, 0, 0],
    parents: [],
    followers: [],
    ...patch,
  }
}
/** Where a keyframe moves the point x of the part's initial geometry. */
function apply(keyframe: Keyframe, x: Vec3): Vec3 {
  const r = rotateVector(keyframe.rotation, x)
  return [r[0] + keyframe.position[0], r[1] + keyframe.position[1], r[2] + keyframe.position[2]]
}
const near = (actual: readonly number[], expected: readonly number[]) =>
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i] as number, 9))
const last = (frames: Keyframe[]) => frames[frames.length - 1] as Keyframe
const part = { id: 1, name: 'Propeller' }

describe('movement schemas', () => {
  it('accepts a create body per type and refuses fields of the other type', () => {
    const body = {
      type: 'translatory',
      name: 't',
      start: 0,
      end: null,
      acc: 0,
      vel: 1,
      virtualMovement: false,
      direction: [1, 0, 0],
    }
    expect(v.parse(MovementCreateSchema, body).parents).toEqual([])
    expect(v.safeParse(MovementCreateSchema, { ...body, axis: [0, 0, 1] }).success).toBe(false)
  })

  it('does not let an update change the type', () => {
    expect(v.safeParse(MovementUpdateSchema, { vel: 2 }).success).toBe(true)
    expect(v.safeParse(MovementUpdateSchema, { type: 'rotatory' }).success).toBe(false)
  })

  it("says 'Movements could not be interpreted.' for a reply that is not an array", () => {
    const result = v.safeParse(MovementListSchema, { movements: [] })
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toBe('Movements could not be interpreted.')
  })
})

describe('checkMovement', () => {
  const input = (m: Movement): MovementInput => m
  it('accepts a valid translation', () => {
    expect(checkMovement(input(translation(1, { start: 0, end: 1 })), { endTime: 2 })).toEqual([])
  })

  it('needs start before end, reported on both fields', () => {
    expect(checkMovement(input(translation(1, { start: 1, end: 1 })), { endTime: 2 })).toEqual([
      { level: 'error', field: 'movement.start', message: 'Start must be smaller than End.' },
      { level: 'error', field: 'movement.end', message: 'End must be greater than Start.' },
    ])
  })

  it('needs start before the simulation end time while end is automatic', () => {
    expect(checkMovement(input(translation(1, { start: 2 })), { endTime: 2 })[0]?.message).toBe(
      'Start must be smaller than simulation end time.',
    )
    expect(checkMovement(input(translation(1, { start: 1.99 })), { endTime: 2 })).toEqual([])
  })

  it('needs a start of at least 0', () => {
    expect(checkMovement(input(translation(1, { start: -0.1 })), { endTime: 2 })[0]?.message).toBe(
      'Start must be at least 0.',
    )
  })

  it('bounds translatory acceleration to ±300 and velocity to ±1000', () => {
    expect(checkMovement(input(translation(1, { acc: 300, vel: -1000 })), { endTime: 2 })).toEqual(
      [],
    )
    expect(
      checkMovement(input(translation(1, { acc: -301, vel: 1001 })), { endTime: 2 }).map(
        (i) => i.message,
      ),
    ).toEqual(['Acceleration must be at least -300.', 'Velocity must be at most 1000.'])
    expect(checkMovement(input(rotation(1, { acc: 500, vel: 2000 })), { endTime: 2 })).toEqual([])
  })

  it('reports an unset value as info and a zero direction or axis as an error', () => {
    expect(
      checkMovement(input(translation(1, { vel: Number.NaN })), { endTime: 2 })[0],
    ).toMatchObject({ level: 'info' })
    expect(
      checkMovement(input(translation(1, { direction: [0, 0, 0] })), { endTime: 2 })[0]?.message,
    ).toBe('Direction length cannot be equal to 0')
    expect(checkMovement(input(rotation(1, { axis: [0, 0, 0] })), { endTime: 2 })[0]?.message).toBe(
      'Axis length cannot be equal to 0',
    )
  })

  it('refuses a movement that leads itself', () => {
    expect(checkMovement(input(translation(1, { parents: [1] })), { endTime: 2 })[0]?.field).toBe(
      'movement.parents',
    )
  })

  it('gives units by type', () => {
    expect(movementUnits('translatory')).toEqual({ acc: 'm/s²', vel: 'm/s' })
    expect(movementUnits('rotatory')).toEqual({ acc: 'rad/s²', vel: 'rad/s' })
  })
})

describe('names and leaders', () => {
  it('names movements by type with a unique running number', () => {
    expect(nextMovementName('translatory', [])).toBe('translation 1')
    expect(nextMovementName('rotatory', ['translation 1'])).toBe('rotation 2')
    expect(nextMovementName('rotatory', ['rotation 2', 'x'])).toBe('rotation 3')
  })

  it('offers as leaders every movement but itself and its descendants', () => {
    const movements = [
      translation(1),
      translation(2, { parents: [1] }),
      rotation(3, { parents: [2] }),
      rotation(4),
    ]
    expect(leaderCandidates(1, movements).map((m) => m.id)).toEqual([4])
    expect(leaderCandidates(3, movements).map((m) => m.id)).toEqual([1, 2, 4])
    expect(leaderCandidates(null, movements)).toHaveLength(4)
  })

  it('follows follower links as well as parent links', () => {
    expect([...descendantIds(1, [translation(1, { followers: [5] }), translation(5)])]).toEqual([5])
  })

  it('orders a chain followers first, leaders last', () => {
    const movements = [
      rotation(10, { partId: 9 }),
      translation(2, { parents: [10], partId: 9 }),
      rotation(3, { parents: [2] }),
    ]
    expect(movementChain(1, movements).map((m) => m.id)).toEqual([3, 2, 10])
    const shared = [
      translation(1, { partId: 9 }),
      rotation(2, { parents: [1] }),
      rotation(3, { parents: [1] }),
    ]
    expect(movementChain(1, shared).map((m) => m.id)).toEqual([2, 3, 1])
  })
})

describe('computePartKeyframes', () => {
  it('moves along the normalised direction by vel·t + acc·t²/2', () => {
    const { keyframes, warning } = computePartKeyframes(
      part,
      [translation(1, { direction: [0, 2, 0], vel: 1, acc: 2 })],
      { endTime: 2 },
    )
    expect(warning).toBeNull()
    expect(keyframes).toHaveLength(21)
    const atOne = keyframes.find((k) => k.time === 1) as Keyframe
    near(atOne.position, [0, 2, 0])
    near(last(keyframes).position, [0, 6, 0])
    near(last(keyframes).rotation, [0, 0, 0, 1])
  })

  it('holds still before start and after end', () => {
    const { keyframes } = computePartKeyframes(part, [translation(1, { start: 1, end: 2 })], {
      endTime: 3,
    })
    expect(keyframes.map((k) => k.time)).toEqual([0, 1, 2, 3])
    expect(keyframes.map((k) => k.position[0])).toEqual([0, 0, 1, 1])
  })

  it('rotates about the axis through the centre, sampled at most 5° apart', () => {
    const { keyframes } = computePartKeyframes(part, [rotation(1, { center: [1, 0, 0] })], {
      endTime: 1,
    })
    expect(keyframes).toHaveLength(Math.ceil(Math.PI / 2 / KEYFRAME_MAX_ANGLE_STEP_RAD) + 1)
    near(apply(last(keyframes), [0, 0, 0]), [1, -1, 0])
    near(apply(last(keyframes), [1, 0, 0]), [1, 0, 0])
  })

  it("rotates about the part's centre when the movement has none", () => {
    const { keyframes } = computePartKeyframes(
      part,
      [rotation(1, { center: null, vel: Math.PI })],
      {
        endTime: 1,
        partCenter: (id) => (id === 1 ? [0, 1, 0] : null),
      },
    )
    near(apply(last(keyframes), [0, 0, 0]), [0, 2, 0])
  })

  it('returns only the breakpoints without interpolation', () => {
    const frames = computePartKeyframes(part, [rotation(1), translation(2, { start: 0.5 })], {
      endTime: 1,
      interpolate: false,
    })
    expect(frames.keyframes.map((k) => k.time)).toEqual([0, 0.5, 1])
  })

  it('carries a follower with its leader: the follower turns, then the leader moves it', () => {
    const boat = translation(1, { partId: 7, vel: 1 })
    const propeller = rotation(2, { partId: 1, parents: [1] })
    const { keyframes } = computePartKeyframes(part, [boat, propeller], { endTime: 1 })
    near(apply(last(keyframes), [1, 0, 0]), [1, 1, 0])
    const boatFrames = computePartKeyframes({ id: 7, name: 'Boat' }, [boat, propeller], {
      endTime: 1,
    }).keyframes
    near(last(boatFrames).rotation, [0, 0, 0, 1])
  })

  it('composes a chain of leaders', () => {
    const hull = translation(1, { partId: 8, vel: 1, direction: [0, 0, 1] })
    const arm = rotation(2, { partId: 9, parents: [1] })
    const tool = translation(3, { partId: 1, parents: [2], vel: 1 })
    const { keyframes } = computePartKeyframes(part, [hull, arm, tool], { endTime: 1 })
    // tool: +x 1 → [1,0,0]; arm: 90° about z → [0,1,0]; hull: +z 1 → [0,1,1]
    near(apply(last(keyframes), [0, 0, 0]), [0, 1, 1])
  })

  it('keeps a part without movements at rest', () => {
    const { keyframes } = computePartKeyframes(part, [translation(1, { partId: 2 })], {
      endTime: 1,
    })
    expect(keyframes).toEqual([
      { time: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { time: 1, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    ])
  })

  it('warns and thins to 5000 keyframes for a fast spin', () => {
    const { keyframes, warning } = computePartKeyframes(part, [rotation(1, { vel: 100 })], {
      endTime: 10,
    })
    expect(keyframes).toHaveLength(KEYFRAME_WARNING_THRESHOLD)
    expect(warning).toBe(
      'Maximum number of keyframes reached for part "Propeller"! Movement visualization might look odd in some cases, but simulation results are unaffected.',
    )
    expect(keyframes[0]?.time).toBe(0)
    expect(last(keyframes).time).toBe(10)
    expect(keyframes.every((k, i) => i === 0 || k.time > (keyframes[i - 1] as Keyframe).time)).toBe(
      true,
    )
  })

  it('warns from exactly 5000 keyframes on', () => {
    const spin = (steps: number) =>
      rotation(1, { vel: (steps - 0.5) * KEYFRAME_MAX_ANGLE_STEP_RAD })
    const at = computePartKeyframes(part, [spin(KEYFRAME_WARNING_THRESHOLD - 1)], { endTime: 1 })
    expect(at.keyframes).toHaveLength(KEYFRAME_WARNING_THRESHOLD)
    expect(at.warning).toBe(keyframeWarning('Propeller'))
    const below = computePartKeyframes(part, [spin(KEYFRAME_WARNING_THRESHOLD - 2)], { endTime: 1 })
    expect(below.keyframes).toHaveLength(KEYFRAME_WARNING_THRESHOLD - 1)
    expect(below.warning).toBeNull()
  })
})
