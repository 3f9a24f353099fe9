import { describe, expect, it } from 'vitest'
import { slidingLayerLoss } from './slidingLayer.ts'
import { wallShearVelocity2 } from './wallFunction.ts'

const NU = 1e-6

describe('log-law wall function', () => {
  it('gives the laminar sublayer below y+ 11.06 and the log law above it, continuous between', () => {
    // sublayer: u_τ² = ν u_t / y
    expect(wallShearVelocity2(0.01, 1e-4, NU)).toBeCloseTo((NU * 0.01) / 1e-4, 12)
    // log law: u_t / u_τ = ln(y u_τ / ν) / 0.41 + 5.2
    for (const [ut, y] of [
      [1, 0.01],
      [2, 0.005],
      [0.3, 0.02],
    ] as const) {
      const u = Math.sqrt(wallShearVelocity2(ut, y, NU))
      expect(ut / u).toBeCloseTo(Math.log((y * u) / NU) / 0.41 + 5.2, 8)
      expect((y * u) / NU).toBeGreaterThan(11.06)
    }
    // at y+ = 11.06 both laws give the same stress: ut = 11.06 u_τ with y = 11.06 ν / u_τ
    const uTau = 0.01
    const y = (11.06 * NU) / uTau
    const below = wallShearVelocity2(11.06 * uTau * 0.999, y, NU)
    const above = wallShearVelocity2(11.06 * uTau * 1.001, y, NU)
    expect(Math.abs(above - below) / (uTau * uTau)).toBeLessThan(0.01)
  })

  // a layer 3 cm thick sliding at 1 m/s along a no-slip floor for 0.05 s (slidingLayer.ts): its
  // mean velocity falls by the log law's u_τ² t / thickness at two particle sizes
  it('brakes a layer sliding on a no-slip floor by the log-law stress at the first layer, alike at two particle sizes', async () => {
    // a plug flow: every particle moves at 1 m/s, so the stress each one takes grows as its
    // distance to the wall shrinks (the log law: u_τ² 0.00302 at 3.75 mm, 0.00242 at 1 cm); the
    // weights 2|G| sit mostly on the first layer, y = dp/2
    const loss = (dp: number) => (wallShearVelocity2(1, dp / 2, NU) * 0.05) / 0.03
    const coarse = await slidingLayerLoss(0.01, 'no_slip', { wallShear: 'logLaw' })
    const fine = await slidingLayerLoss(0.0075, 'no_slip', { wallShear: 'logLaw' })
    // measured 0.00505 against 0.00471 at dp 1 cm, 0.00546 against 0.00503 at 7.5 mm (the pair
    // viscosity of the same no-slip floor instead: 0.024 at 1 cm)
    expect(coarse).toBeGreaterThan(0.85 * loss(0.01))
    expect(coarse).toBeLessThan(1.15 * loss(0.01))
    expect(fine).toBeGreaterThan(0.85 * loss(0.0075))
    expect(fine).toBeLessThan(1.15 * loss(0.0075))
  }, 90_000)
})
