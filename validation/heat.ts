/**
 * Heat conduction (settings.thermodynamics) against the analytic Fourier series, in a closed box
 * full of fluid at rest, without gravity, periodic along y (no side walls there):
 * - two blocks: y < L/2 hot, y > L/2 cold, every wall adiabatic. The square wave of the period L
 *   decays as T = T_m + ΔT/2 Σ_(n odd) 4/(nπ) sin(2πny/L) exp(−α (2πn/L)² t);
 * - a slab between walls at set temperatures: floor at T1, lid at T2 (the box's height H), the
 *   fluid starting at T0, the side walls along x adiabatic: T = T1 + (T2 − T1) z/H
 *   + Σ_n b_n sin(nπz/H) exp(−α (nπ/H)² t), b_n = 2/(nπ) ((T0 − T1)(1 − (−1)^n) + (T2 − T1)(−1)^n).
 * The figure is the largest |T − T_exact| over the fluid particles relative to the temperature
 * span, at t = τ (two blocks, τ = L²/(4π²α), the first mode down to 1/e) and at t = 0.5 H²/(π²α)
 * for the slab. α = k/(ρ c_p). The slab is checked (5 %); the two blocks are reported: their
 * error does not shrink with dp in a box 4 particles across (NUMERICS.md, 'Heat conduction').
 */
import type { SolverConfig, SolverMaterial } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import { buildTankParticles, tankPeriodicY, TANK_PART_ID } from '../solver/sph/scenarios.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { metric, reported, settingsFor, withSolver } from './common.ts'

const CASE = 'heat conduction (Fourier series)'

/**
 * A fluid with α = k/(ρ c_p) = 1e-5 m²/s (the spec's largest conductivity, 10 W/(m·K)). The fluid
 * rests (no gravity, a full closed box), so its speed of sound plays no part: 0.05 m/s lets the
 * conduction limit 0.125 h²/α set the time step rather than the acoustic one.
 */
export const HEAT_MATERIAL: SolverMaterial = {
  id: 1,
  density: 1000,
  gamma: 7,
  speedOfSound: 0.05,
  kinematicViscosity: 1e-6,
  thermalConductivity: 10,
  specificHeatCapacity: 1000,
}

export interface HeatCaseOptions extends CaseOverrides {
  /** Particles along the period L (two blocks) and across the slab's height H. */
  particlesAcross: number
  /** L = H, m. */
  length?: number
  threads?: number
  /** Largest error over the temperature span that passes. */
  tolerance?: number
}

/** Σ over odd n of the square wave's series at (y, t) (without T_m, times ΔT/2). */
function squareWave(y: number, t: number, length: number, alpha: number): number {
  let sum = 0
  for (let n = 1; n < 400; n += 2) {
    const k = (2 * Math.PI * n) / length
    sum += (4 / (n * Math.PI)) * Math.sin(k * y) * Math.exp(-alpha * k * k * t)
  }
  return sum
}

/** The slab's analytic temperature at height z and time t. */
function slabTemperature(
  z: number,
  t: number,
  height: number,
  alpha: number,
  [t0, t1, t2]: [number, number, number],
): number {
  let sum = t1 + ((t2 - t1) * z) / height
  for (let n = 1; n < 400; n++) {
    const sign = n % 2 === 0 ? 1 : -1
    const b = (2 / (n * Math.PI)) * ((t0 - t1) * (1 - sign) + (t2 - t1) * sign)
    const k = (n * Math.PI) / height
    sum += b * Math.sin(k * z) * Math.exp(-alpha * k * k * t)
  }
  return sum
}

/** Runs both set-ups at one resolution; metrics: the largest error over the span at the end. */
export async function runHeatCase(options: HeatCaseOptions): Promise<ValidationMetric[]> {
  const length = options.length ?? 0.02
  const n = options.particlesAcross
  const dp = length / n
  const tolerance = options.tolerance ?? 0.05
  const material = HEAT_MATERIAL
  const alpha = material.thermalConductivity! / (material.density * material.specificHeatCapacity!)
  const width = 4 * dp
  const base = {
    settings: settingsFor(dp, {
      gravity: [0, 0, 0],
      thermodynamics: true,
      ambientTemperature: 300,
      endTime: 1,
      ...options.settings,
    }),
    materials: [material],
    options: { threads: options.threads ?? 1, ...options.solverOptions },
  }
  const metrics: ValidationMetric[] = []

  // two blocks along y, every wall adiabatic
  {
    const scenario = {
      dp,
      tank: [width, length, width] as [number, number, number],
      fluidMin: [0, 0, 0] as [number, number, number],
      fluidMax: [width, length, width] as [number, number, number],
      closed: true,
      wallLayers: 3,
      periodicY: true,
    }
    const particles = buildTankParticles(scenario)
    const [hot, cold] = [350, 290]
    const temperatures = new Float64Array(particles.kinds.length)
    for (let i = 0; i < temperatures.length; i++)
      temperatures[i] = particles.positions[3 * i + 1]! < 0.5 * length ? hot : cold
    const config: SolverConfig = {
      ...base,
      particles: { ...particles, temperatures },
      options: { ...base.options, periodicY: tankPeriodicY(scenario) },
    }
    const endS = (length * length) / (4 * Math.PI * Math.PI * alpha)
    const { error, energy } = await withSolver(config, async (solver) => {
      const before = await solver.snapshot()
      await solver.runUntil(endS)
      const after = await solver.snapshot()
      let worst = 0
      let sum0 = 0
      let sum1 = 0
      for (let i = 0; i < after.count; i++) {
        if (after.kind[i] !== PARTICLE_KIND.fluid) continue
        const y = after.positions[3 * i + 1]!
        const exact =
          0.5 * (hot + cold) + 0.5 * (hot - cold) * squareWave(y, endS, length, alpha)
        worst = Math.max(worst, Math.abs(after.temperature![i]! - exact))
        sum0 += before.temperature![i]! * before.mass[i]!
        sum1 += after.temperature![i]! * after.mass[i]!
      }
      return { error: worst / (hot - cold), energy: (sum1 - sum0) / sum0 }
    })
    // reported, not checked: it does not converge in this box (every particle is within 2h of
    // an adiabatic wall along which T varies; see NUMERICS.md, 'Heat conduction')
    metrics.push(
      reported(
        CASE,
        `two blocks, adiabatic walls, ${n} per period: max |T − T_exact| / ΔT at t = L²/(4π²α)`,
        error,
      ),
      reported(CASE, `two blocks, ${n} per period: change of Σ m T`, energy),
    )
  }

  // a slab between a floor at T1 and a lid at T2
  {
    const scenario = {
      dp,
      tank: [width, width, length] as [number, number, number],
      fluidMin: [0, 0, 0] as [number, number, number],
      fluidMax: [width, width, length] as [number, number, number],
      closed: true,
      wallLayers: 3,
      periodicY: true,
    }
    const tank = buildTankParticles(scenario)
    // the floor and lid as parts of their own, the side walls (x) adiabatic
    const FLOOR = 3
    const LID = 4
    const partIds = Int32Array.from(tank.partIds)
    for (let i = 0; i < partIds.length; i++) {
      if (tank.kinds[i] === PARTICLE_KIND.fluid) continue
      const x = tank.positions[3 * i]!
      const z = tank.positions[3 * i + 2]!
      if (x < 0 || x > width) continue
      if (z < 0) partIds[i] = FLOOR
      else if (z > length) partIds[i] = LID
    }
    const temps: [number, number, number] = [300, 350, 290]
    const config: SolverConfig = {
      ...base,
      settings: { ...base.settings, ambientTemperature: temps[0] },
      particles: { ...tank, partIds },
      parts: [
        { id: TANK_PART_ID, wallCondition: 'no_slip' },
        { id: FLOOR, wallCondition: 'no_slip', wallTemperature: temps[1] },
        { id: LID, wallCondition: 'no_slip', wallTemperature: temps[2] },
      ],
      options: { ...base.options, periodicY: tankPeriodicY(scenario) },
    }
    const endS = (0.5 * length * length) / (Math.PI * Math.PI * alpha)
    const error = await withSolver(config, async (solver) => {
      await solver.runUntil(endS)
      const after = await solver.snapshot()
      let worst = 0
      for (let i = 0; i < after.count; i++) {
        if (after.kind[i] !== PARTICLE_KIND.fluid) continue
        const z = after.positions[3 * i + 2]!
        const exact = slabTemperature(z, endS, length, alpha, temps)
        worst = Math.max(worst, Math.abs(after.temperature![i]! - exact))
      }
      return worst / (temps[1] - temps[2])
    })
    metrics.push(
      metric(
        CASE,
        `slab between walls at set temperatures, ${n} across: max |T − T_exact| / (T1 − T2) at t = H²/(2π²α)`,
        error,
        tolerance,
      ),
    )
  }
  return metrics
}
