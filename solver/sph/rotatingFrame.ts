/**
 * The rotating system (settings.rotatingSystem, issue 16 item 5): the flow is computed in the frame
 * that turns with the constant angular velocity Ω = rotationVelocity · axis/|axis| (rad/s) about
 * the axis through rotationCenter. Walls are at rest in that frame, and every fluid particle's
 * position and velocity are the frame's. The fluid feels, beside gravity,
 *   Coriolis −2 Ω × u and centrifugal −Ω × (Ω × r) = |Ω|² r − Ω (Ω·r), r = x − centre;
 * rotationVelocity is one number, so Ω does not vary and there is no Euler term (−dΩ/dt × r).
 * The centrifugal part is a body force like gravity, so the generalized wall's pressure
 * extrapolation and Fourtakas' hydrostatic density diffusion take g + centrifugal at each
 * particle (walls.ts, forces.ts); the Coriolis part does no work and is left out there.
 */
import type { SimulationSettings } from '../../domain/settings.ts'
import { formatNumber } from '../../domain/units.ts'
import { SolverSetupError } from './options.ts'

/** The frame's constants (shared with worker threads as plain data). */
export interface RotatingFrame {
  /** Ω, rad/s (rotationVelocity along the unit axis). */
  omega: [number, number, number]
  /** A point of the axis (rotationCenter), m. */
  center: [number, number, number]
}

type RotationSettings = Pick<
  SimulationSettings,
  'rotatingSystem' | 'rotationVelocity' | 'rotationAxis' | 'rotationCenter'
>

const finite = (v: readonly (number | null)[] | null): v is [number, number, number] =>
  v !== null && v.length === 3 && v.every((c) => c !== null && Number.isFinite(c))

/**
 * Why the settings' rotating system cannot run (the settings rule 'Rotating system needs
 * velocity, a non-zero axis and a centre'); null when it can, or when it is off.
 */
export function rotatingFrameProblem(settings: RotationSettings): string | null {
  if (!settings.rotatingSystem) return null
  const { rotationVelocity: speed, rotationAxis: axis, rotationCenter: center } = settings
  const ok =
    speed !== null &&
    Number.isFinite(speed) &&
    finite(axis) &&
    Math.hypot(...axis) > 0 &&
    finite(center)
  return ok ? null : 'Rotating system needs velocity, a non-zero axis and a centre.'
}

/** The rotating frame of the settings; null when rotatingSystem is off. */
export function deriveRotatingFrame(settings: RotationSettings): RotatingFrame | null {
  if (!settings.rotatingSystem) return null
  const problem = rotatingFrameProblem(settings)
  const { rotationVelocity: speed, rotationAxis: axis, rotationCenter: center } = settings
  if (problem !== null || speed === null || !finite(axis) || !finite(center))
    throw new SolverSetupError(problem ?? 'Rotating system is not defined.')
  const s = speed / Math.hypot(...axis)
  return { omega: [axis[0] * s, axis[1] * s, axis[2] * s], center: [...center] }
}

/**
 * Adds the frame's acceleration at position (x, y, z) and velocity (vx, vy, vz) to out[0..2]:
 * centrifugal |Ω|² r − Ω (Ω·r), and with coriolis also −2 Ω × v.
 */
export function addFrameAcceleration(
  frame: RotatingFrame,
  x: number,
  y: number,
  z: number,
  vx: number,
  vy: number,
  vz: number,
  coriolis: boolean,
  out: Float64Array,
): void {
  const [wx, wy, wz] = frame.omega
  const rx = x - frame.center[0]
  const ry = y - frame.center[1]
  const rz = z - frame.center[2]
  const w2 = wx * wx + wy * wy + wz * wz
  const wr = wx * rx + wy * ry + wz * rz
  let ax = w2 * rx - wx * wr
  let ay = w2 * ry - wy * wr
  let az = w2 * rz - wz * wr
  if (coriolis) {
    ax -= 2 * (wy * vz - wz * vy)
    ay -= 2 * (wz * vx - wx * vz)
    az -= 2 * (wx * vy - wy * vx)
  }
  out[0] = out[0]! + ax
  out[1] = out[1]! + ay
  out[2] = out[2]! + az
}

/** frameAccelerationAt's result (each thread has its own module). */
const frameSum = new Float64Array(3)

/**
 * (ax, ay, az) plus, in a rotating frame, the frame's acceleration at the particle whose neighbour
 * record (position, velocity: particles.ts PACK) starts at packed[o]; the centrifugal term only
 * without coriolis; (ax, ay, az) itself when frame is null. The force passes' total acceleration
 * and hydrostatic gravity at a particle. Returns a scratch array that the next call overwrites.
 */
export function frameAccelerationAt(
  frame: RotatingFrame | null,
  ax: number,
  ay: number,
  az: number,
  packed: Float64Array,
  o: number,
  coriolis: boolean,
): Float64Array {
  frameSum[0] = ax
  frameSum[1] = ay
  frameSum[2] = az
  if (frame === null) return frameSum
  const x = packed[o]!
  const y = packed[o + 1]!
  const z = packed[o + 2]!
  addFrameAcceleration(
    frame,
    x,
    y,
    z,
    packed[o + 3]!,
    packed[o + 4]!,
    packed[o + 5]!,
    coriolis,
    frameSum,
  )
  return frameSum
}

/**
 * The frame's centrifugal head Ω²R²/2 (m²/s²), R the farthest fluid particle's distance from the
 * axis: the pressure it adds to the fluid is ρ Ω²R²/2 at most, and the surface of a tank spun from
 * rest rises by Ω²R²/(2g) at its rim. The speed of sound counts it as extra height (config.ts), so
 * that the density still varies by about 1 %.
 */
export function frameHead(
  frame: RotatingFrame | null,
  positions: ArrayLike<number>,
  isFluid: (i: number) => boolean,
): number {
  if (!frame) return 0
  const [wx, wy, wz] = frame.omega
  const w2 = wx * wx + wy * wy + wz * wz
  if (w2 === 0) return 0
  const n = positions.length / 3
  let r2max = 0
  for (let i = 0; i < n; i++) {
    if (!isFluid(i)) continue
    const rx = positions[3 * i]! - frame.center[0]
    const ry = positions[3 * i + 1]! - frame.center[1]
    const rz = positions[3 * i + 2]! - frame.center[2]
    const along = wx * rx + wy * ry + wz * rz
    const r2 = rx * rx + ry * ry + rz * rz - (along * along) / w2
    if (r2 > r2max) r2max = r2
  }
  return 0.5 * w2 * r2max
}

/**
 * The run log's line that says which frame the outputs' velocities and positions are in; null in
 * an inertial frame.
 */
export function rotatingFrameMessage(frame: RotatingFrame | null): string | null {
  if (!frame) return null
  const [wx, wy, wz] = frame.omega
  const speed = Math.hypot(wx, wy, wz)
  const unit = (c: number) => formatNumber(speed > 0 ? c / speed : c, 6)
  const point = frame.center.map((c) => formatNumber(c, 6)).join(', ')
  return (
    `Rotating system: positions and velocities are in the frame turning at ${formatNumber(speed, 6)} rad/s` +
    ` about the axis (${unit(wx)}, ${unit(wy)}, ${unit(wz)}) through (${point}) m; walls are at rest in it.`
  )
}
