import { describe, expect, it } from 'vitest'
import {
  computePartKeyframes,
  KEYFRAME_WARNING_THRESHOLD,
  keyframeWarning,
  partTransformAt,
  movementChain,
  type Keyframe,
  type KeyframesResult,
  type Movement,
} from '../../domain/movements.ts'
import {
  applyPose,
  createKeyframeTrack,
  fetchPartKeyframes,
  findKeyframeIndex,
  interpolateKeyframes,
  MAX_TRACK_SAMPLES,
  poseAtTrack,
  poseToMatrix,
  sampleKeyframeTrack,
  slerpQuaternions,
} from './keyframes.ts'

const HALF_TURN_Z: [number, number, number, number] = [0, 0, Math.SQRT1_2, Math.SQRT1_2]

const keyframes: Keyframe[] = [
  { time: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
  { time: 1, position: [2, 0, 0], rotation: HALF_TURN_Z },
  { time: 3, position: [2, 4, 0], rotation: HALF_TURN_Z },
]

function movement(overrides: Partial<Movement>): Movement {
  return {
    id: 1,
    partId: 10,
    name: 'm',
    type: 'rotatory',
    start: 0,
    end: null,
    vel: 1,
    acc: 0,
    direction: [1, 0, 0],
    axis: [0, 0, 1],
    center: [0, 0, 0],
    parents: [],
    ...overrides,
  } as Movement
}

describe('interpolateKeyframes', () => {
  it('holds the first pose before the first keyframe and the last after the last', () => {
    expect(interpolateKeyframes(keyframes, -1)).toEqual({
      position: [0, 0, 0],
      rotation: [0, 0, 0, 1],
    })
    expect(interpolateKeyframes(keyframes, 10).position).toEqual([2, 4, 0])
  })

  it('interpolates positions linearly and rotations along the arc between neighbours', () => {
    const pose = interpolateKeyframes(keyframes, 0.5)
    expect(pose.position).toEqual([1, 0, 0])
    // Halfway to a quarter turn about z is an eighth turn.
    const angle = Math.PI / 8
    expect(pose.rotation[2]).toBeCloseTo(Math.sin(angle), 12)
    expect(pose.rotation[3]).toBeCloseTo(Math.cos(angle), 12)
    expect(interpolateKeyframes(keyframes, 2).position).toEqual([2, 2, 0])
  })

  it('is the identity without keyframes', () => {
    expect(interpolateKeyframes([], 1)).toEqual({ position: [0, 0, 0], rotation: [0, 0, 0, 1] })
  })

  it('finds the keyframe at or before a time by bisection', () => {
    expect(findKeyframeIndex(keyframes, -0.1)).toBe(-1)
    expect(findKeyframeIndex(keyframes, 0)).toBe(0)
    expect(findKeyframeIndex(keyframes, 1.5)).toBe(1)
    expect(findKeyframeIndex(keyframes, 3)).toBe(2)
  })

  it('follows a spinning part between the server keyframes to within 5° sampling', () => {
    const spin = movement({ vel: 2 * Math.PI }) // one turn per second about z through the origin
    const result = computePartKeyframes({ id: 10, name: 'Rotor' }, [spin], { endTime: 2 })
    expect(result.warning).toBeNull()
    const chain = movementChain(10, [spin])
    for (const t of [0.013, 0.25, 0.61, 1.333, 1.9]) {
      const exact = partTransformAt(chain, t, 2)
      const pose = interpolateKeyframes(result.keyframes, t)
      const point: [number, number, number] = [1, 0, 0]
      const moved = applyPose(pose, point)
      const expected = applyPose(exact, point)
      expect(moved[0]).toBeCloseTo(expected[0], 9)
      expect(moved[1]).toBeCloseTo(expected[1], 9)
    }
  })
})

describe('slerpQuaternions', () => {
  it('takes the short way when the quaternions have opposite signs', () => {
    const negated: [number, number, number, number] = [0, 0, -Math.SQRT1_2, -Math.SQRT1_2]
    const q = slerpQuaternions([0, 0, 0, 1], negated, 0.5)
    expect(Math.abs(q[2])).toBeCloseTo(Math.sin(Math.PI / 8), 12)
    expect(Math.hypot(...q)).toBeCloseTo(1, 12)
  })
})

describe('poseToMatrix', () => {
  it('maps a point like applyPose (column-major)', () => {
    const pose = { position: [1, 2, 3] as [number, number, number], rotation: HALF_TURN_Z }
    const m = poseToMatrix(pose)
    const p = [0.5, -1, 2]
    const moved = [0, 1, 2].map(
      (row) => m[row]! * p[0]! + m[4 + row]! * p[1]! + m[8 + row]! * p[2]! + m[12 + row]!,
    )
    const expected = applyPose(pose, [0.5, -1, 2])
    moved.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 6))
  })
})

describe('keyframe tracks', () => {
  it('keep the server warning when a part reaches 5000 keyframes', () => {
    const fast = movement({ vel: 1000 })
    const result = computePartKeyframes({ id: 10, name: 'Fan' }, [fast], { endTime: 10 })
    expect(result.keyframes).toHaveLength(KEYFRAME_WARNING_THRESHOLD)
    const track = createKeyframeTrack(10, result)
    expect(track.warning).toBe(keyframeWarning('Fan'))
    expect(track.poseAt(10)).toEqual(interpolateKeyframes(result.keyframes, 10))
  })

  it('are fetched from GET /parts/{id}/movements/keyframes with the token, and validated', async () => {
    const calls: { url: string; authorization: string | null }[] = []
    const respond =
      (body: unknown, status = 200): typeof fetch =>
      (input, init) => {
        calls.push({
          url: input instanceof Request ? input.url : input.toString(),
          authorization: new Headers(init?.headers).get('authorization'),
        })
        return Promise.resolve(new Response(JSON.stringify(body), { status }))
      }
    const track = await fetchPartKeyframes(10, {
      fetch: respond({ keyframes, warning: null }),
      apiBaseUrl: '/api/',
      accessToken: 't',
    })
    expect(calls[0]).toEqual({
      url: '/api/parts/10/movements/keyframes?interpolate=true',
      authorization: 'Bearer t',
    })
    expect(track.poseAt(0.5).position).toEqual([1, 0, 0])
    await expect(
      fetchPartKeyframes(10, {
        fetch: respond({ keyframes: 'no' }),
        apiBaseUrl: '/api',
        accessToken: null,
      }),
    ).rejects.toThrow('The movements of part 10 could not be read.')
    await expect(
      fetchPartKeyframes(11, { fetch: respond({}, 404), apiBaseUrl: '/api', accessToken: null }),
    ).rejects.toThrow('The movements of part 11 could not be loaded (404).')
  })
})

describe('sampled keyframe tracks', () => {
  const slide: KeyframesResult = {
    keyframes: [
      { time: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { time: 2, position: [4, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] },
    ],
    warning: null,
  }

  it('samples every step up to the end time, the last sample exactly at the end', () => {
    const track = sampleKeyframeTrack(slide, 3, 0.25)
    expect(track.sampleCount).toBe(13)
    expect(track.stepS).toBeCloseTo(0.25)
    expect(track.keyframeCount).toBe(2)
    // After the last keyframe the part holds its pose.
    expect([...track.positions.slice(12 * 3, 13 * 3)]).toEqual([4, 0, 0])
    const step = sampleKeyframeTrack(slide, 1, 0.3)
    // 2 s at most 0.3 s apart: 8 samples, 2/7 s apart (the keyframes outlast the end time).
    expect(step.sampleCount).toBe(8)
    expect(step.stepS * (step.sampleCount - 1)).toBeCloseTo(2)
  })

  it('covers the keyframes when the end time is unknown, and caps the sample count', () => {
    expect(sampleKeyframeTrack(slide, 0, 0.5).sampleCount).toBe(5)
    const capped = sampleKeyframeTrack(slide, 1000, 1e-6)
    expect(capped.sampleCount).toBe(MAX_TRACK_SAMPLES)
  })

  it('looks poses up between samples and clamps outside the track', () => {
    const track = sampleKeyframeTrack(slide, 2, 0.5)
    expect(poseAtTrack(track, 0.25).position[0]).toBeCloseTo(0.5)
    expect(poseAtTrack(track, -1).position).toEqual([0, 0, 0])
    expect(poseAtTrack(track, 10).position[0]).toBeCloseTo(4)
    // Halfway: a 45° turn about z, from the normalised blend of neighbouring samples.
    const [, , z, w] = poseAtTrack(track, 1).rotation
    expect(z).toBeCloseTo(Math.sin(Math.PI / 8), 3)
    expect(w).toBeCloseTo(Math.cos(Math.PI / 8), 3)
  })
})
