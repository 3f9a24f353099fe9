import { describe, expect, it } from 'vitest'
import {
  chooseSpeedOfSound,
  densityFromPressure,
  pressureFromDensity,
  taitStiffness,
} from './equationOfState.ts'

const water = { referenceDensity: 1000, speedOfSound: 20, gamma: 7 }

describe('Tait equation of state', () => {
  it('has zero pressure at the reference density and B = c0²ρ0/γ', () => {
    expect(pressureFromDensity(water, 1000)).toBe(0)
    expect(taitStiffness(water)).toBeCloseTo((400 * 1000) / 7, 9)
  })

  it('gives p = B((ρ/ρ0)^γ − 1) and c² = dp/dρ = c0² at ρ0', () => {
    const b = taitStiffness(water)
    expect(pressureFromDensity(water, 1010)).toBeCloseTo(b * (1.01 ** 7 - 1), 6)
    const dRho = 1e-4
    const slope =
      (pressureFromDensity(water, 1000 + dRho) - pressureFromDensity(water, 1000 - dRho)) /
      (2 * dRho)
    expect(slope).toBeCloseTo(400, 4)
  })

  it('inverts to the density of a pressure', () => {
    for (const rho of [950, 1000, 1003.5, 1040]) {
      expect(densityFromPressure(water, pressureFromDensity(water, rho))).toBeCloseTo(rho, 9)
    }
  })

  it('chooses c0 as the largest of the material speed, 10√(gH) and 10 |u0|', () => {
    const base = { gravityMagnitude: 9.81, fluidHeight: 0.4, maxInitialSpeed: 0, coefficient: 10 }
    expect(chooseSpeedOfSound({ ...base, materialSpeedOfSound: 1 })).toBeCloseTo(
      10 * Math.sqrt(9.81 * 0.4),
      9,
    )
    expect(chooseSpeedOfSound({ ...base, materialSpeedOfSound: 80 })).toBe(80)
    expect(chooseSpeedOfSound({ ...base, materialSpeedOfSound: 1, maxInitialSpeed: 5 })).toBe(50)
  })
})
