/**
 * A dispersive shallow-water reference: the Serre–Green–Naghdi (SGN) equations over a flat bed,
 * solved in one dimension on a Lagrangian grid of water columns. SGN keep the vertical kinetic
 * energy that shallow water drops, so a weak bore is undular (its leading wave grows and speeds
 * up as it forms) where the shallow-water bore is a step moving at the jump's speed: the
 * reference the piston case's forming front is compared with (VALIDATION_FINDINGS.md, piston
 * bore). Its solitary wave h = d + a sech²(κ(x − ct)), c = √(g(d + a)), is exact (serre.test.ts).
 *
 * Discretisation (variational, so energy is kept to the integrator's order): nodes x_0 … x_N,
 * column i between x_i and x_{i+1} holding the area m_i = h_i Δ_i (Δ_i = x_{i+1} − x_i, fixed:
 * h_i = m_i/Δ_i). With s_i = Δ̇_i, the Lagrangian
 *   L = Σ_j ½ M_j ẋ_j² + Σ_i ⅙ m_i ḣ_i² − Σ_i ½ g m_i h_i,   M_j = (m_{j−1} + m_j)/2,
 * ḣ_i = −h_i s_i/Δ_i (the vertical velocity linear in z, the SGN assumption), gives with
 * k_i = m_i³/(3Δ_i⁴) the tridiagonal system for the accelerations
 *   (M_j + k_{j−1} + k_j) ẍ_j − k_{j−1} ẍ_{j−1} − k_j ẍ_{j+1} = P_{j−1} − P_j,
 *   P_i = ½ g h_i² + 2 k_i s_i²/Δ_i.
 * Node 0 may follow a prescribed motion (a piston); node N is a wall at rest.
 */

export interface SerreState {
  /** Node positions x_0 … x_N (m). */
  x: Float64Array
  /** Node velocities (m/s). */
  u: Float64Array
  /** Column areas m_i = h_i Δ_i (m²), fixed. */
  m: Float64Array
  timeS: number
}

export interface SerreOptions {
  gravity: number
  /** Position of node 0 at time t, or null for a wall at rest there. */
  leftMotion: ((t: number) => number) | null
}

/** Still water of depth d over [0, length] in `columns` equal columns. */
export function stillWater(depth: number, length: number, columns: number): SerreState {
  const x = new Float64Array(columns + 1)
  for (let j = 0; j <= columns; j++) x[j] = (length * j) / columns
  const m = new Float64Array(columns).fill((depth * length) / columns)
  return { x, u: new Float64Array(columns + 1), m, timeS: 0 }
}

/** Depth of each column, h_i = m_i/Δ_i. */
export function depths(state: SerreState): Float64Array {
  const h = new Float64Array(state.m.length)
  for (let i = 0; i < h.length; i++) h[i] = state.m[i]! / (state.x[i + 1]! - state.x[i]!)
  return h
}

/** Second difference of the left node's prescribed position (its acceleration), h = 1e-5 s. */
function leftAcceleration(motion: (t: number) => number, t: number): number {
  const e = 1e-5
  return (motion(t + e) - 2 * motion(t) + motion(t - e)) / (e * e)
}

/** The nodes' accelerations for positions x and velocities u at time t (into `out`). */
function accelerations(
  x: Float64Array,
  u: Float64Array,
  m: Float64Array,
  t: number,
  options: SerreOptions,
  out: Float64Array,
  work: { k: Float64Array; p: Float64Array; c: Float64Array; d: Float64Array },
): void {
  const n = m.length
  const { k, p, c, d } = work
  for (let i = 0; i < n; i++) {
    const width = x[i + 1]! - x[i]!
    const h = m[i]! / width
    const s = u[i + 1]! - u[i]!
    k[i] = (m[i]! * h * h) / (3 * width * width)
    p[i] = 0.5 * options.gravity * h * h + (2 * k[i]! * s * s) / width
  }
  // unknowns: nodes 1 … N−1 (node 0 prescribed or at rest, node N at rest)
  const left = options.leftMotion ? leftAcceleration(options.leftMotion, t) : 0
  out[0] = left
  out[n] = 0
  // Thomas algorithm: sub-diagonal −k_{j−1}, diagonal M_j + k_{j−1} + k_j, super −k_j
  for (let j = 1; j < n; j++) {
    const diagonal = 0.5 * (m[j - 1]! + m[j]!) + k[j - 1]! + k[j]!
    let rhs = p[j - 1]! - p[j]!
    if (j === 1) rhs += k[0]! * left
    const sub = j === 1 ? 0 : -k[j - 1]!
    const denominator = diagonal - sub * c[j - 1]!
    c[j] = -k[j]! / denominator
    d[j] = (rhs - sub * d[j - 1]!) / denominator
  }
  out[n - 1] = d[n - 1]!
  for (let j = n - 2; j >= 1; j--) out[j] = d[j]! - c[j]! * out[j + 1]!
}

/**
 * Advances the state to `untilS` with classical RK4 at steps of at most `dtS` (the last one
 * shortened to land on it); node 0 follows options.leftMotion exactly.
 */
export function advanceSerre(
  state: SerreState,
  untilS: number,
  dtS: number,
  options: SerreOptions,
): void {
  const nodes = state.x.length
  const n = state.m.length
  const work = {
    k: new Float64Array(n),
    p: new Float64Array(n),
    c: new Float64Array(n),
    d: new Float64Array(n),
  }
  const us = Array.from({ length: 4 }, () => new Float64Array(nodes))
  const as = Array.from({ length: 4 }, () => new Float64Array(nodes))
  const xt = new Float64Array(nodes)
  const ut = new Float64Array(nodes)
  const { x, u, m } = state
  while (state.timeS < untilS - 1e-12) {
    const t = state.timeS
    const dt = Math.min(dtS, untilS - t)
    const stageT = [t, t + dt / 2, t + dt / 2, t + dt]
    const weight = [0, dt / 2, dt / 2, dt]
    for (let s = 0; s < 4; s++) {
      for (let j = 0; j < nodes; j++) {
        xt[j] = s === 0 ? x[j]! : x[j]! + weight[s]! * us[s - 1]![j]!
        ut[j] = s === 0 ? u[j]! : u[j]! + weight[s]! * as[s - 1]![j]!
      }
      us[s]!.set(ut)
      accelerations(xt, ut, m, stageT[s]!, options, as[s]!, work)
    }
    for (let j = 0; j < nodes; j++) {
      x[j] = x[j]! + (dt / 6) * (us[0]![j]! + 2 * us[1]![j]! + 2 * us[2]![j]! + us[3]![j]!)
      u[j] = u[j]! + (dt / 6) * (as[0]![j]! + 2 * as[1]![j]! + 2 * as[2]![j]! + as[3]![j]!)
    }
    state.timeS = t + dt
    if (options.leftMotion) {
      // the piston's node exactly on its path (RK4 of a prescribed motion is exact only for cubics)
      const e = 1e-6
      x[0] = options.leftMotion(state.timeS)
      u[0] = (options.leftMotion(state.timeS + e) - options.leftMotion(state.timeS - e)) / (2 * e)
    }
  }
}

/** Energy Σ ½ M u² + ⅙ m ḣ² + ½ g m h (per unit width and density, J/(m·kg/m³)). */
export function serreEnergy(state: SerreState, gravity: number): number {
  const { x, u, m } = state
  let energy = 0
  for (let j = 0; j < x.length; j++) {
    const mass = 0.5 * ((j > 0 ? m[j - 1]! : 0) + (j < m.length ? m[j]! : 0))
    energy += 0.5 * mass * u[j]! * u[j]!
  }
  for (let i = 0; i < m.length; i++) {
    const width = x[i + 1]! - x[i]!
    const h = m[i]! / width
    const hDot = (-h * (u[i + 1]! - u[i]!)) / width
    energy += (m[i]! * hDot * hDot) / 6 + 0.5 * gravity * m[i]! * h
  }
  return energy
}

/**
 * The largest x where the surface stands above `level`, interpolated linearly between the
 * centres of the last column above it and the next (NaN when none is above).
 */
export function serreFront(state: SerreState, level: number): number {
  const h = depths(state)
  for (let i = h.length - 1; i >= 0; i--) {
    if (!(h[i]! > level)) continue
    const centre = 0.5 * (state.x[i]! + state.x[i + 1]!)
    if (i + 1 >= h.length) return centre
    const next = 0.5 * (state.x[i + 1]! + state.x[i + 2]!)
    return centre + ((h[i]! - level) / (h[i]! - h[i + 1]!)) * (next - centre)
  }
  return Number.NaN
}
