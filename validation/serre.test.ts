import { describe, expect, it } from 'vitest'
import type { SerreState } from './serre.ts'
import { advanceSerre, depths, serreEnergy, serreFront, stillWater } from './serre.ts'

const G = 9.81
const D = 0.1

/** SGN's solitary wave of amplitude a centred at x0 on [0, length]: exact columns and velocities. */
function solitaryWave(a: number, x0: number, length: number, columns: number): SerreState {
  const c = Math.sqrt(G * (D + a))
  const kappa = Math.sqrt((3 * a) / (4 * D * D * (D + a)))
  const state = stillWater(D, length, columns)
  const area = (x: number) => D * x + (a / kappa) * Math.tanh(kappa * (x - x0))
  for (let i = 0; i < columns; i++) state.m[i] = area(state.x[i + 1]!) - area(state.x[i]!)
  for (let j = 0; j <= columns; j++) {
    const h = D + a / Math.cosh(kappa * (state.x[j]! - x0)) ** 2
    state.u[j] = c * (1 - D / h)
  }
  return state
}

/** The crest: the deepest column's centre, refined by a parabola through it and its neighbours. */
function crest(state: SerreState): number {
  const h = depths(state)
  let k = 1
  for (let i = 1; i < h.length - 1; i++) if (h[i]! > h[k]!) k = i
  const centre = (i: number) => 0.5 * (state.x[i]! + state.x[i + 1]!)
  const [x0, x1, x2] = [centre(k - 1), centre(k), centre(k + 1)]
  const [y0, y1, y2] = [h[k - 1]!, h[k]!, h[k + 1]!]
  const denominator = (x0 - x1) * (x0 - x2) * (x1 - x2)
  const A = (x2 * (y1 - y0) + x1 * (y0 - y2) + x0 * (y2 - y1)) / denominator
  const B = (x2 * x2 * (y0 - y1) + x1 * x1 * (y2 - y0) + x0 * x0 * (y1 - y2)) / denominator
  return -B / (2 * A)
}

describe('Serre–Green–Naghdi reference (serre.ts)', () => {
  it.each([0.2, 0.4])(
    'carries its solitary wave of amplitude %s d at √(g(d + a)) with its shape',
    (ratio) => {
      const a = ratio * D
      const state = solitaryWave(a, 1, 4, 2000)
      const before = depths(state)
      const from = crest(state)
      advanceSerre(state, 1, 5e-4, { gravity: G, leftMotion: null })
      const speed = crest(state) - from
      expect(speed / Math.sqrt(G * (D + a)) - 1).toBeCloseTo(0, 3)
      // the crest keeps its height (no dispersive tail, no numerical damping)
      const highest = (h: Float64Array) => h.reduce((top, value) => Math.max(top, value), 0)
      expect(highest(depths(state)) / highest(before)).toBeCloseTo(1, 3)
    },
  )

  it('keeps the energy of a wave reflecting between walls', () => {
    const state = solitaryWave(0.3 * D, 1.5, 3, 1200)
    state.u[0] = 0
    state.u[1200] = 0
    const before = serreEnergy(state, G)
    // the crest reaches the right wall at about 1.4 s and is back in the middle at 3.3 s
    advanceSerre(state, 3.3, 5e-4, { gravity: G, leftMotion: null })
    const after = serreEnergy(state, G)
    const potentialAtRest = 0.5 * G * D * D * 3
    expect(Math.abs(after - before) / (before - potentialAtRest)).toBeLessThan(1e-5)
  })

  it('forms an undular bore ahead of a piston, its mean level behind the shallow-water one', () => {
    const speed = 0.3
    const ramp = 0.05
    const motion = (t: number) =>
      t < ramp ? (speed * t * t) / (2 * ramp) : speed * (t - ramp / 2)
    const state = stillWater(D, 2, 1000)
    advanceSerre(state, 1.2, 5e-4, { gravity: G, leftMotion: motion })
    const h = depths(state)
    // the mean depth between the piston and the undulations: mass conservation alone makes it
    // h1 with U h1 = c (h1 − d); the momentum jump gives h1 = 0.1323 m at this speed
    let sum = 0
    let count = 0
    for (let i = 0; i < h.length; i++) {
      const centre = 0.5 * (state.x[i]! + state.x[i + 1]!)
      if (centre > state.x[0]! + 0.05 && centre < state.x[0]! + 0.35) {
        sum += h[i]!
        count++
      }
    }
    expect(sum / count).toBeGreaterThan(0.129)
    expect(sum / count).toBeLessThan(0.136)
    // undular: the leading wave stands above the level behind it
    const front = serreFront(state, D + 0.5 * (0.1323 - D))
    expect(front).toBeGreaterThan(1.3)
    const lead = h.reduce((top, value) => Math.max(top, value), 0)
    expect(lead).toBeGreaterThan(0.1323 + 0.005)
  })
})
