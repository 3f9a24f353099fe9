/**
 * Movement keyframes for the viewport: the keyframes of a part (GET /parts/{id}/movements/keyframes,
 * computed by domain/movements.ts computePartKeyframes, thinned to 5000 with a warning) and the
 * pose at any time between them: position interpolated linearly, rotation by spherical linear
 * interpolation. The server samples rotations at least every 5°, so slerp between neighbours
 * follows the true motion.
 */
import * as v from 'valibot'
import {
  KeyframesResultSchema,
  rotateVector,
  type Keyframe,
  type KeyframesResult,
  type Quaternion,
} from '../../domain/movements.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { KeyframeTrack as SampledKeyframeTrack } from '../setupProtocol.ts'

/** Where a part is at a time: x moves to rotate(rotation, x) + position. */
export interface Pose {
  position: Vec3
  rotation: Quaternion
}

const IDENTITY_POSE: Pose = { position: [0, 0, 0], rotation: [0, 0, 0, 1] }

/** Index of the last keyframe at or before `timeS` (-1 when before the first). Keyframes sorted by time. */
export function findKeyframeIndex(keyframes: readonly Keyframe[], timeS: number): number {
  let low = 0
  let high = keyframes.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >> 1
    if (keyframes[middle]!.time <= timeS) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  return found
}

/** Spherical linear interpolation of unit quaternions, along the shorter arc. */
export function slerpQuaternions(a: Quaternion, b: Quaternion, t: number): Quaternion {
  let [bx, by, bz, bw] = b
  let cos = a[0] * bx + a[1] * by + a[2] * bz + a[3] * bw
  if (cos < 0) {
    // q and −q are the same rotation: take the short way round.
    cos = -cos
    bx = -bx
    by = -by
    bz = -bz
    bw = -bw
  }
  let wa: number
  let wb: number
  if (cos > 0.9995) {
    // Nearly equal: linear interpolation (then normalised) avoids dividing by sin ≈ 0.
    wa = 1 - t
    wb = t
  } else {
    const angle = Math.acos(cos)
    const sin = Math.sin(angle)
    wa = Math.sin((1 - t) * angle) / sin
    wb = Math.sin(t * angle) / sin
  }
  const q: Quaternion = [
    wa * a[0] + wb * bx,
    wa * a[1] + wb * by,
    wa * a[2] + wb * bz,
    wa * a[3] + wb * bw,
  ]
  const length = Math.hypot(...q)
  return [q[0] / length, q[1] / length, q[2] / length, q[3] / length]
}

/**
 * The pose at `timeS`: the first keyframe's before it, the last one's after it, interpolated
 * between neighbours in between. No keyframes: the identity (the part does not move).
 */
export function interpolateKeyframes(keyframes: readonly Keyframe[], timeS: number): Pose {
  if (keyframes.length === 0 || Number.isNaN(timeS)) return clonePose(IDENTITY_POSE)
  const index = findKeyframeIndex(keyframes, timeS)
  if (index === -1) return poseOf(keyframes[0]!)
  if (index === keyframes.length - 1) return poseOf(keyframes[index]!)
  const a = keyframes[index]!
  const b = keyframes[index + 1]!
  const span = b.time - a.time
  const t = span > 0 ? (timeS - a.time) / span : 0
  return {
    position: [
      a.position[0] + (b.position[0] - a.position[0]) * t,
      a.position[1] + (b.position[1] - a.position[1]) * t,
      a.position[2] + (b.position[2] - a.position[2]) * t,
    ],
    rotation: slerpQuaternions(a.rotation, b.rotation, t),
  }
}

function poseOf(keyframe: Keyframe): Pose {
  return { position: [...keyframe.position], rotation: [...keyframe.rotation] }
}

function clonePose(pose: Pose): Pose {
  return { position: [...pose.position], rotation: [...pose.rotation] }
}

/** Where a point of the part's initial geometry is in a pose. */
export function applyPose(pose: Pose, point: Vec3): Vec3 {
  const moved = rotateVector(pose.rotation, point)
  return [moved[0] + pose.position[0], moved[1] + pose.position[1], moved[2] + pose.position[2]]
}

/** The pose as a column-major 4×4 matrix (three.js Matrix4.fromArray / a uniform mat4). */
export function poseToMatrix(pose: Pose): Float32Array {
  const [x, y, z, w] = pose.rotation
  const [tx, ty, tz] = pose.position
  const xx = x * x
  const yy = y * y
  const zz = z * z
  const xy = x * y
  const xz = x * z
  const yz = y * z
  const wx = w * x
  const wy = w * y
  const wz = w * z
  return new Float32Array([
    1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy), 0,
    2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx), 0,
    2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy), 0,
    tx, ty, tz, 1,
  ]) // prettier-ignore
}

/** A part's keyframes and the server's warning, with a pose lookup. */
export interface KeyframeTrack {
  partId: number
  keyframes: readonly Keyframe[]
  /** 'Maximum number of keyframes reached for part "…"! …' from 5000 keyframes on, else null. */
  warning: string | null
  poseAt(timeS: number): Pose
}

/** A track over a keyframes result (keyframes sorted by time, as the server sends them). */
export function createKeyframeTrack(partId: number, result: KeyframesResult): KeyframeTrack {
  const keyframes = [...result.keyframes].sort((a, b) => a.time - b.time) as Keyframe[]
  return {
    partId,
    keyframes,
    warning: result.warning,
    poseAt: (timeS) => interpolateKeyframes(keyframes, timeS),
  }
}

/** Options of {@link fetchPartKeyframes}. */
export interface FetchKeyframesOptions {
  fetch: typeof fetch
  /** The API root, e.g. '/api' or 'http://localhost:8080/api'. */
  apiBaseUrl: string
  accessToken: string | null
  /** Dense keyframes to interpolate between (default true), or only the breakpoints. */
  interpolate?: boolean
  signal?: AbortSignal
}

/** GET /parts/{id}/movements/keyframes, validated; throws an Error with a clear message on failure. */
export async function fetchPartKeyframes(
  partId: number,
  options: FetchKeyframesOptions,
): Promise<KeyframeTrack> {
  const interpolate = options.interpolate ?? true
  const url = `${options.apiBaseUrl.replace(/\/$/, '')}/parts/${partId}/movements/keyframes?interpolate=${interpolate}`
  const response = await options.fetch(url, {
    headers: options.accessToken ? { Authorization: `Bearer ${options.accessToken}` } : {},
    signal: options.signal,
  })
  if (!response.ok) {
    throw new Error(`The movements of part ${partId} could not be loaded (${response.status}).`)
  }
  const parsed = v.safeParse(KeyframesResultSchema, await response.json())
  if (!parsed.success) {
    throw new Error(`The movements of part ${partId} could not be read.`)
  }
  return createKeyframeTrack(partId, parsed.output)
}

// ── Sampled tracks (what the render worker plays) ───────────────────────────────────────────────

/** A track never holds more samples than this (a fine step over a long run is coarsened). */
export const MAX_TRACK_SAMPLES = 100_000

/**
 * Samples a part's keyframes every `stepS` over [0, max(endTimeS, last keyframe)], ending exactly
 * there (the step shrinks slightly to fit, and grows when the samples would exceed
 * MAX_TRACK_SAMPLES). The render worker then only looks poses up ({@link poseAtTrack}).
 */
export function sampleKeyframeTrack(
  result: KeyframesResult,
  endTimeS: number,
  stepS: number,
): SampledKeyframeTrack {
  const keyframes = [...result.keyframes].sort((a, b) => a.time - b.time) as Keyframe[]
  const lastTime = keyframes.length > 0 ? keyframes[keyframes.length - 1]!.time : 0
  const durationS = Math.max(Number.isFinite(endTimeS) ? endTimeS : 0, lastTime, 0)
  const wantedStep = Number.isFinite(stepS) && stepS > 0 ? stepS : durationS / 1000 || 1
  let sampleCount = durationS > 0 ? Math.ceil(durationS / wantedStep - 1e-9) + 1 : 1
  sampleCount = Math.min(Math.max(sampleCount, 1), MAX_TRACK_SAMPLES)
  const step = sampleCount > 1 ? durationS / (sampleCount - 1) : wantedStep
  const positions = new Float32Array(sampleCount * 3)
  const rotations = new Float32Array(sampleCount * 4)
  for (let i = 0; i < sampleCount; i++) {
    const pose = interpolateKeyframes(keyframes, i === sampleCount - 1 ? durationS : i * step)
    positions.set(pose.position, i * 3)
    rotations.set(pose.rotation, i * 4)
  }
  return {
    stepS: step,
    positions,
    rotations,
    sampleCount,
    keyframeCount: result.keyframes.length,
  }
}

/**
 * The pose of a sampled track at `timeS` (clamped to the track): positions interpolated linearly,
 * rotations normalised-linearly between neighbouring samples (close together, so as good as slerp).
 */
export function poseAtTrack(track: SampledKeyframeTrack, timeS: number): Pose {
  if (track.sampleCount === 0) return clonePose(IDENTITY_POSE)
  const last = track.sampleCount - 1
  const u =
    Number.isFinite(timeS) && track.stepS > 0 ? Math.min(Math.max(timeS / track.stepS, 0), last) : 0
  const i = Math.min(Math.floor(u), last)
  const j = Math.min(i + 1, last)
  const f = u - i
  const p = track.positions
  const r = track.rotations
  const position: Vec3 = [
    p[i * 3]! + (p[j * 3]! - p[i * 3]!) * f,
    p[i * 3 + 1]! + (p[j * 3 + 1]! - p[i * 3 + 1]!) * f,
    p[i * 3 + 2]! + (p[j * 3 + 2]! - p[i * 3 + 2]!) * f,
  ]
  const a: Quaternion = [r[i * 4]!, r[i * 4 + 1]!, r[i * 4 + 2]!, r[i * 4 + 3]!]
  const b: Quaternion = [r[j * 4]!, r[j * 4 + 1]!, r[j * 4 + 2]!, r[j * 4 + 3]!]
  const sign = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1
  const q: Quaternion = [
    a[0] + (sign * b[0] - a[0]) * f,
    a[1] + (sign * b[1] - a[1]) * f,
    a[2] + (sign * b[2] - a[2]) * f,
    a[3] + (sign * b[3] - a[3]) * f,
  ]
  const length = Math.hypot(...q) || 1
  return { position, rotation: [q[0] / length, q[1] / length, q[2] / length, q[3] / length] }
}
