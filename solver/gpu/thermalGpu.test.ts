/**
 * Heat conduction and the viscosity models on the GPU (heatShaders.ts) against the CPU: the small
 * swirling dam break of cpuAgreement.ts (a) with heat conduction, the floor a wall at a set
 * temperature above the fluid's, every other wall adiabatic, the fluid's temperature varying
 * along x; (b) with ν(T) from a table on the same temperatures; (c) with ν(γ̇) from a table; and
 * (b) with a hot moving part. One interaction (forces, dT/dt, ν) and 8 steps agree within float32
 * tolerance. Runs on lavapipe or SwiftShader where no GPU is.
 */
import { describe, expect, it } from 'vitest'
import type { SolverConfig, SolverMaterial } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { TANK_PART_ID, WATER } from '../sph/scenarios.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { useGpu } from './testGpu.ts'
import {
  checkpointRoundTrip,
  expectCpuAgreement,
  heatPassAgreement,
  withPiston,
} from './cpuAgreement.ts'
import { damBreak } from '../sph/testScenarios.ts'
import { gpuUnsupportedSettings } from './support.ts'

const device = useGpu()

const FLOOR = 3

/**
 * The dam break with thermodynamics: the fluid from 300 K at x = 0 to 340 K at its front, each
 * particle up to 20 K above that (so that neighbours' ν differ), the floor at 360 K.
 * α = k/(ρ c_p) = 2e-4 m²/s: heat moves visibly in 8 steps (0.5 K; its limit 0.125 h²/α, 0.14 s,
 * is far above the step: the validation's heat case is where it sets dt).
 */
function heated(material: Partial<SolverMaterial> = {}): SolverConfig {
  const base = damBreak()
  const { kinds, positions } = base.particles
  const partIds = Int32Array.from(base.particles.partIds)
  const temperatures = new Float64Array(kinds.length)
  for (let i = 0; i < kinds.length; i++) {
    temperatures[i] = 300 + (40 * positions[3 * i]!) / 0.06 + (20 * ((7919 * i) % 13)) / 12
    if (kinds[i] !== PARTICLE_KIND.fluid && positions[3 * i + 2]! < 0) partIds[i] = FLOOR
  }
  return {
    ...base,
    settings: { ...base.settings, thermodynamics: true, ambientTemperature: 300 },
    materials: [{ ...WATER, thermalConductivity: 200, specificHeatCapacity: 1000, ...material }],
    particles: { ...base.particles, partIds, temperatures },
    parts: [
      { id: TANK_PART_ID, wallCondition: 'no_slip' },
      { id: FLOOR, wallCondition: 'no_slip', wallTemperature: 360 },
    ],
  }
}

/** ν(T) falling fourfold from 300 to 360 K; the table's largest ν sets dt (0.125 h²/ν, 7e-5 s). */
function temperatureViscosity(): SolverConfig {
  return heated({
    kinematicViscosity: 4e-4,
    viscosityKind: 'temperature',
    viscosityTable: { x: [300, 320, 360], nu: [4e-4, 2e-4, 1e-4] },
  })
}

/**
 * A shear-thinning power law ν = K γ̇^(−0.5), tabulated from 1 to 100 1/s (the swirl's range);
 * the table's largest ν sets dt.
 */
function shearRateViscosity(): SolverConfig {
  const base = damBreak()
  const x = [1, 3, 10, 30, 100]
  return {
    ...base,
    materials: [
      {
        ...WATER,
        kinematicViscosity: 4e-4,
        viscosityKind: 'shear_rate',
        viscosityTable: { x, nu: x.map((rate) => 4e-4 / Math.sqrt(rate)) },
      },
    ],
  }
}

/**
 * Water's α = 1.4e-7 m²/s: a step changes T by 1e-4 K or less, a few float32 ulps at 300 K (the
 * GPU keeps θ = T − T_ref as a float32 pair for this).
 */
function water(): SolverConfig {
  return heated({ thermalConductivity: 0.6, specificHeatCapacity: 4186 })
}

/**
 * A gearbox's case in small: ν(T) as above, the tank's x < 0 wall layers a piston at 380 K
 * moving into the fluid at 0.2 m/s, accelerating at 2 m/s² (moving parts, wallMotion.ts).
 */
function hotPiston(): SolverConfig {
  return withPiston(temperatureViscosity(), { wallTemperature: 380 })
}

/** The cases, and the smallest change of T over the 8 steps each must show (K). */
const CASES = [
  { name: 'conduction, a hot wall and adiabatic walls', config: heated, change: 0.1 },
  { name: 'conduction in water, changes of a few float32 ulps', config: water, change: 1e-4 },
  { name: 'ν(T) from a table', config: temperatureViscosity, change: 0.1 },
  { name: 'ν(γ̇) from a table', config: shearRateViscosity, change: 0 },
  { name: 'ν(T), a hot moving piston', config: hotPiston, change: 0.1 },
] as const

describe('GPU backend, heat conduction and viscosity models', () => {
  it('is no longer refused', () => {
    for (const { config } of CASES) expect(gpuUnsupportedSettings(config())).toEqual([])
  })

  for (const { name, config: make, change } of CASES) {
    it(`one interaction and 8 steps agree with the CPU (${name})`, async (t) => {
      const gpu = device.need(t)
      const config = make()
      const heat = await heatPassAgreement(config, gpu)
      expect(heat.temperatureRate).toBeLessThan(1e-4)
      expect(heat.viscosity).toBeLessThan(1e-4)
      // step by step: ν as of each backend's last stage (see stepAgreement)
      const { steps } = await expectCpuAgreement(config, gpu, { stepwise: true })
      expect(steps.temperatureChange).toBeGreaterThanOrEqual(change)
      expect(steps.errTemperature).toBeLessThan(1e-4)
      expect(steps.errViscosity).toBeLessThan(1e-4)
    })
  }

  it('resumes on the GPU and on the CPU from its checkpoint with the temperatures', async (t) => {
    const gpu = device.need(t)
    const { expected, atCheckpoint, onCpu, after } = await checkpointRoundTrip(heated(), gpu)
    // the CPU reads the GPU's temperatures, the walls' set ones (NaN: adiabatic) with them
    expect(largestDifference(onCpu, atCheckpoint)).toBeLessThan(1e-9)
    expect(after.timeS).toBeCloseTo(expected.timeS, 12)
    // the sort's order within a cell differs after a restore: summation order, float32 rounding
    const moved = largestDifference(expected, atCheckpoint)
    expect(moved).toBeGreaterThan(0.01)
    expect(largestDifference(after, expected)).toBeLessThan(1e-6 * moved)
  })
})

/** The largest temperature difference of the fluid particles of two snapshots (id order), K. */
function largestDifference(a: SolverSnapshot, b: SolverSnapshot): number {
  let worst = 0
  for (let i = 0; i < a.count; i++)
    if (a.kind[i] === PARTICLE_KIND.fluid)
      worst = Math.max(worst, Math.abs(a.temperature![i]! - b.temperature![i]!))
  return worst
}
