/** The synthetic flows: a free surface and a velocity/pressure field in a box tank, per scenario. */

export const GRAVITY = 9.81
export const WATER_DENSITY = 1000
const PROFILE_BINS = 1024
const TAIT_GAMMA = 7

/** A free surface and velocity field in a box tank [0, L] × [0, W] × [0, H]. */
export interface FlowModel {
  lengthM: number
  widthM: number
  heightM: number
  volumeM3: number
  maxDepthM: number
  surfaceAt(x: number): number
  /** Writes vx, vz and the dynamic pressure (Pa) at (x, z) into `out`. */
  sample(x: number, z: number, out: Float64Array): void
}

function binOf(x: number, lengthM: number): number {
  const bin = Math.floor((x / lengthM) * PROFILE_BINS)
  return bin < 0 ? 0 : bin >= PROFILE_BINS ? PROFILE_BINS - 1 : bin
}

/**
 * Dam break after Martin & Moyce: a column a = 1 m wide, h0 = 2 m high at the left of a 4 m tank.
 * Until the front reaches the far wall the surface follows Ritter's dry-bed solution
 * h = (2c0 − ξ/t)² / 9g, u = 2/3 (c0 + ξ/t); afterwards a bore runs back and forth over a level
 * that relaxes to the still depth. The profile is rescaled so the water volume stays constant.
 */
export function createDamBreak(timeS: number): FlowModel {
  const lengthM = 4
  const widthM = 1
  const heightM = 2.4
  const columnWidthM = 1
  const columnHeightM = 2
  const c0 = Math.sqrt(GRAVITY * columnHeightM)
  const hitS = (lengthM - columnWidthM) / (2 * c0)
  const stillDepthM = (columnWidthM * columnHeightM) / lengthM
  const t = Math.max(timeS, 0)
  const ritter = (x: number, at: number): [number, number] => {
    if (at <= 0) return x < columnWidthM ? [columnHeightM, 0] : [0, 0]
    const xi = x - columnWidthM
    if (xi <= -c0 * at) return [columnHeightM, 0]
    if (xi >= 2 * c0 * at) return [0, 0]
    const s = 2 * c0 - xi / at
    return [(s * s) / (9 * GRAVITY), (2 / 3) * (c0 + xi / at)]
  }
  const binWidthM = lengthM / PROFILE_BINS
  const height = new Float64Array(PROFILE_BINS)
  const velocity = new Float64Array(PROFILE_BINS)
  const afterS = t - hitS
  const boreSpeed = 1.5 * Math.sqrt(GRAVITY * stillDepthM)
  const travelled = (boreSpeed * Math.max(afterS, 0)) % (2 * lengthM)
  const boreX = travelled <= lengthM ? lengthM - travelled : travelled - lengthM
  const boreDirection = travelled <= lengthM ? -1 : 1
  for (let bin = 0; bin < PROFILE_BINS; bin++) {
    const x = (bin + 0.5) * binWidthM
    if (afterS <= 0) {
      ;[height[bin], velocity[bin]] = ritter(x, t)
      continue
    }
    const [baseHeight, baseVelocity] = ritter(x, hitS)
    const decay = Math.exp(-afterS / 1.2)
    const bore = 0.8 * Math.exp(-afterS / 1.0) * Math.exp(-(((x - boreX) / 0.35) ** 2))
    const h = stillDepthM + (baseHeight - stillDepthM) * decay + bore
    height[bin] = h
    velocity[bin] =
      baseVelocity * decay * (1 - (x / lengthM) ** 8) +
      (0.5 * boreDirection * boreSpeed * bore) / Math.max(h, 0.05)
  }
  let area = 0
  for (let bin = 0; bin < PROFILE_BINS; bin++) area += height[bin]! * binWidthM
  const scale = area > 0 ? (columnWidthM * columnHeightM) / area : 1
  for (let bin = 0; bin < PROFILE_BINS; bin++) {
    height[bin] = Math.min(height[bin]! * scale, heightM)
  }
  const slope = new Float64Array(PROFILE_BINS)
  for (let bin = 0; bin < PROFILE_BINS; bin++) {
    const left = velocity[Math.max(bin - 1, 0)]!
    const right = velocity[Math.min(bin + 1, PROFILE_BINS - 1)]!
    slope[bin] = (right - left) / (2 * binWidthM)
  }
  // Impact pressure on the far wall: peaks when the front arrives, decays within ~0.1 s.
  const impactPa = afterS >= 0 ? 0.5 * WATER_DENSITY * (2 * c0) ** 2 * Math.exp(-afterS / 0.08) : 0
  return {
    lengthM,
    widthM,
    heightM,
    volumeM3: columnWidthM * columnHeightM * widthM,
    maxDepthM: columnHeightM,
    surfaceAt: (x) => height[binOf(x, lengthM)]!,
    sample: (x, z, out) => {
      const bin = binOf(x, lengthM)
      out[0] = velocity[bin]!
      // Shallow-water continuity: w = −z ∂u/∂x.
      out[1] = -z * slope[bin]!
      out[2] = impactPa * Math.exp(-(lengthM - x) / 0.2 - z / 0.5)
    },
  }
}

/**
 * First sloshing mode of a 1 m tank filled to d = 0.5 m, linear potential flow:
 * η = A cos(kx) cos(ωt), ω² = g k tanh(kd), u = Aω cosh(kz)/sinh(kd) sin(kx) sin(ωt),
 * w = −Aω sinh(kz)/sinh(kd) cos(kx) sin(ωt), dynamic pressure ρgη (cosh(kz)/cosh(kd) − 1).
 */
export function createSloshing(timeS: number): FlowModel {
  const lengthM = 1
  const widthM = 0.4
  const heightM = 1
  const depthM = 0.5
  const amplitudeM = 0.08
  const k = Math.PI / lengthM
  const omega = Math.sqrt(GRAVITY * k * Math.tanh(k * depthM))
  const cosine = Math.cos(omega * timeS)
  const sine = Math.sin(omega * timeS)
  const sinhDepth = Math.sinh(k * depthM)
  const coshDepth = Math.cosh(k * depthM)
  return {
    lengthM,
    widthM,
    heightM,
    volumeM3: lengthM * widthM * depthM,
    maxDepthM: depthM + amplitudeM,
    surfaceAt: (x) => depthM + amplitudeM * Math.cos(k * x) * cosine,
    sample: (x, z, out) => {
      const eta = amplitudeM * Math.cos(k * x) * cosine
      out[0] = ((amplitudeM * omega * Math.cosh(k * z)) / sinhDepth) * Math.sin(k * x) * sine
      out[1] = ((-amplitudeM * omega * Math.sinh(k * z)) / sinhDepth) * Math.cos(k * x) * sine
      out[2] = WATER_DENSITY * GRAVITY * eta * (Math.cosh(k * z) / coshDepth - 1)
    },
  }
}

/** Lattice columns: nx × ny columns at spacing dp, with how many particles each holds. */

/** Hydrostatic plus dynamic pressure, Tait density. */
export interface PressureModel {
  pressureAt(x: number, z: number, noise: number, scratch: Float64Array): number
  densityOf(pressurePa: number): number
}

export function createPressureModel(flow: FlowModel): PressureModel {
  // Weakly compressible SPH: speed of sound ten times the largest shallow-water wave speed.
  const soundSpeed = 10 * Math.sqrt(GRAVITY * flow.maxDepthM)
  const taitB = (WATER_DENSITY * soundSpeed ** 2) / TAIT_GAMMA
  const noisePa = 0.01 * WATER_DENSITY * GRAVITY * flow.maxDepthM
  return {
    pressureAt: (x, z, noise, scratch) => {
      const xc = Math.min(Math.max(x, 0), flow.lengthM)
      const zc = Math.max(z, 0)
      flow.sample(xc, zc, scratch)
      const depth = flow.surfaceAt(xc) - zc
      if (depth <= 0) return 0
      return WATER_DENSITY * GRAVITY * depth + scratch[2]! + noise * noisePa
    },
    densityOf: (pressurePa) =>
      WATER_DENSITY * Math.pow(Math.max(1 + pressurePa / taitB, 0.5), 1 / TAIT_GAMMA),
  }
}
