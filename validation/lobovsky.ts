/**
 * Dam break pressures on the far wall against Lobovský, Botia-Vera, Castellana, Mas-Soler and
 * Souto-Iglesias (2014), "Experimental investigation of dynamic pressure loads during dam break",
 * J. Fluids Struct. 48, 407–434 (doi 10.1016/j.jfluidstructs.2014.03.009): a water column
 * H = 300 mm high and 600 mm long at the end of a tank 1610 mm long and 150 mm wide (quasi-2D),
 * pressure sensors on the far wall at 3, 15, 30 and 80 mm above the floor, sampled at 20 kHz.
 *
 * The measured series: one repetition ("peak event 5", their Fig. 18) of sensors 1 (3 mm) and
 * 3 (30 mm), as distributed with TNL-SPH (TNL-Project/TNL-SPH, examples/resources/damBreak2D/
 * damBreak2D_experimentalDataLobovsky2014/pressure/Fig18_peak_event_5_sensors_{5,2}.dat), in
 * T = t √(g/H) and p/(ρgH). The figures below were read from those files: the first crossing of
 * 0.1 ρgH, the first peak, and samples every 0.01 in T of sensor 1 in two windows after the
 * impact. Impact peaks scatter widely between repetitions (the paper's point); a single record's
 * peak is checked within a factor of 2 only.
 */
import type { Vec3 } from '../domain/vector.ts'
import type { SolverConfig } from '../solver/sph/config.ts'
import {
  buildTankParticles,
  TANK_PART_ID,
  tankPeriodicY,
  WATER,
} from '../solver/sph/scenarios.ts'
import type { CaseOverrides, Table, ValidationMetric } from './common.ts'
import { GRAVITY, metric, reported, settingsFor, windowMean, withSolver } from './common.ts'

const CASE = 'dam break wall pressure (Lobovský et al. 2014)'
/** Column height H, column length, tank length (m). */
export const LOBOVSKY_H = 0.3
const COLUMN_LENGTH = 0.6
const TANK_LENGTH = 1.61

/** A sensor of the record: height above the floor, first crossing of 0.1 ρgH, first peak. */
export interface LobovskySensor {
  name: string
  heightM: number
  /** T of the first crossing of p = 0.1 ρgH. */
  arrivalT: number
  /** The first peak: p/(ρgH) and its T. */
  peak: number
  peakT: number
}

export const LOBOVSKY_SENSORS: readonly LobovskySensor[] = [
  // rise from 0.0068 at T = 2.4409 through 0.033 (2.4432) and 0.16 (2.4440); peak 3.0441
  { name: 'sensor 1 (3 mm)', heightM: 0.003, arrivalT: 2.4437, peak: 3.0441, peakT: 2.4546 },
  // rise from T = 2.4755; 0.062 at 2.4998, 0.10 at 2.5106; a broad peak 1.544 at 2.671
  { name: 'sensor 3 (30 mm)', heightM: 0.03, arrivalT: 2.5105, peak: 1.5442, peakT: 2.6706 },
]

/** Sensor 1, p/(ρgH) every 0.01 in T from T = 3.685 (after the impact, as the water runs up). */
const SENSOR1_WINDOW_A: Table = [
  [3.68465, 0.774418], [3.70009, 0.782687], [3.71009, 0.780889], [3.7201, 0.783765],
  [3.73011, 0.783765], [3.74011, 0.777294], [3.75012, 0.778372], [3.76013, 0.778732],
  [3.77014, 0.776934], [3.78014, 0.773339], [3.79015, 0.77262], [3.80016, 0.765429],
  [3.81016, 0.758239], [3.82017, 0.752127], [3.83018, 0.747453], [3.84019, 0.746734],
  [3.85019, 0.743498], [3.8602, 0.737027], [3.87021, 0.731994], [3.88021, 0.725163],
  [3.89022, 0.720489], [3.90023, 0.712939], [3.91024, 0.711501], [3.92024, 0.705389],
  [3.93025, 0.702153], [3.94026, 0.698198], [3.95026, 0.69676],
]

/** Sensor 1, p/(ρgH) every 0.01 in T from T = 4.844 (the water falling back from the wall). */
const SENSOR1_WINDOW_B: Table = [
  [4.84405, 0.702872], [4.85005, 0.695681], [4.86006, 0.697479], [4.87007, 0.697479],
  [4.88008, 0.698558], [4.89008, 0.696401], [4.90009, 0.691727], [4.9101, 0.692086],
  [4.9201, 0.692805], [4.93011, 0.687772], [4.94012, 0.68202], [4.95013, 0.680222],
  [4.96013, 0.678784], [4.97014, 0.676267], [4.98015, 0.674829], [4.99015, 0.679503],
  [5.00016, 0.677705], [5.01017, 0.669077], [5.02018, 0.666919], [5.03018, 0.665122],
  [5.04019, 0.662965], [5.0502, 0.656134], [5.0602, 0.660088], [5.07021, 0.664403],
  [5.08022, 0.663684], [5.09023, 0.657931], [5.10023, 0.655415], [5.11024, 0.658291],
]

/** The later-pressure windows of sensor 1: their T range and the record's mean p/(ρgH). */
export const LOBOVSKY_WINDOWS = [SENSOR1_WINDOW_A, SENSOR1_WINDOW_B].map((samples) => ({
  fromT: samples[0]![0],
  toT: samples.at(-1)![0],
  mean: samples.reduce((sum, [, p]) => sum + p, 0) / samples.length,
}))

/** The record's sensor 1 samples (for plots). */
export const LOBOVSKY_SENSOR1_SAMPLES: Table = [...SENSOR1_WINDOW_A, ...SENSOR1_WINDOW_B]

export interface LobovskyOptions extends CaseOverrides {
  /** Particles across the column height H. */
  particlesPerHeight: number
  /** Particles across the periodic slab (y). */
  particlesDeep: number
  /** Last T = t √(g/H) (the later windows end at 5.11). */
  endT: number
  threads?: number
  /** The tank's wall condition (default free-slip). */
  wallCondition?: 'slip' | 'no_slip'
  arrivalToleranceS?: number
  /** Later pressure: relative tolerance. */
  laterTolerance?: number
}

export interface LobovskyResult {
  metrics: ValidationMetric[]
  /** Per sensor: [T, p/(ρgH)] at every step. */
  series: { name: string; points: [number, number][] }[]
}

/** First T at which a series crosses `level` (NaN if never). */
function firstCrossing(times: readonly number[], values: readonly number[], level: number) {
  for (let k = 1; k < times.length; k++) {
    if (values[k]! >= level && values[k - 1]! < level) {
      const f = (level - values[k - 1]!) / (values[k]! - values[k - 1]!)
      return times[k - 1]! + f * (times[k]! - times[k - 1]!)
    }
  }
  return Number.NaN
}

/**
 * The Lobovský case: a thin slab periodic along y, the column released at t = 0 (the gate
 * removed instantly), probes on the far wall's surface sampled at every step.
 */
export async function runLobovskyCase(options: LobovskyOptions): Promise<LobovskyResult> {
  const H = LOBOVSKY_H
  const dp = H / options.particlesPerHeight
  const deep = options.particlesDeep * dp
  const scenario = {
    dp,
    tank: [TANK_LENGTH, deep, 4 * H] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [COLUMN_LENGTH, deep, H] as [number, number, number],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  // the far wall's inner face lies at a whole number of particles from the origin
  const wallX = Math.round(TANK_LENGTH / dp) * dp
  const config: SolverConfig = {
    settings: settingsFor(dp, options.settings),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    // free-slip by default: the boundary layer (about √(νt) ≈ 1 mm) is far thinner than a
    // particle, which a no-slip wall with pair viscosity would thicken to a few dp
    parts: [{ id: TANK_PART_ID, wallCondition: options.wallCondition ?? 'slip' }],
    options: {
      hydrostaticInitialisation: true,
      threads: options.threads ?? 1,
      periodicY: tankPeriodicY(scenario),
      ...options.solverOptions,
    },
  }
  const timeScale = Math.sqrt(H / GRAVITY)
  const scale = WATER.density * GRAVITY * H
  const points: Vec3[] = LOBOVSKY_SENSORS.map((s) => [wallX, deep / 2, s.heightM])
  const sampled = await withSolver(config, async (solver) => {
    const sampler = solver.pressureSampler(points)
    await solver.runUntil(options.endT * timeScale, sampler)
    return sampler
  })
  const times = sampled.timesS.map((t) => t / timeScale)
  const series = LOBOVSKY_SENSORS.map((sensor, k) => ({
    name: sensor.name,
    points: times.map((T, s) => [T, sampled.values[k]![s]! / scale] as [number, number]),
  }))
  const res = `H/dp ${options.particlesPerHeight}`
  const metrics: ValidationMetric[] = []
  LOBOVSKY_SENSORS.forEach((sensor, k) => {
    const values = series[k]!.points.map(([, p]) => p)
    const arrivalT = firstCrossing(times, values, 0.1)
    let peak = 0
    let peakT = Number.NaN
    for (let s = 0; s < times.length; s++) {
      // the first impact: within 0.3 in T (0.05 s) of the arrival
      if (!(times[s]! >= arrivalT && times[s]! <= arrivalT + 0.3)) continue
      if (values[s]! > peak) {
        peak = values[s]!
        peakT = times[s]!
      }
    }
    metrics.push(
      metric(
        CASE,
        `${res}, ${sensor.name}: first impact's arrival (0.1 ρgH) − measured, s`,
        (arrivalT - sensor.arrivalT) * timeScale,
        options.arrivalToleranceS ?? 0.01,
        `simulated T = ${arrivalT.toFixed(3)} (t = ${(arrivalT * timeScale).toFixed(4)} s), measured T = ${sensor.arrivalT}`,
      ),
      metric(
        CASE,
        `${res}, ${sensor.name}: first peak, log2(simulated / measured) (within a factor of 2)`,
        Math.log2(peak / sensor.peak),
        1,
        `simulated ${peak.toFixed(3)} ρgH at T = ${peakT.toFixed(3)}, measured ${sensor.peak} ρgH at T = ${sensor.peakT}`,
      ),
    )
  })
  const sensor1 = series[0]!.points
  LOBOVSKY_WINDOWS.forEach((window) => {
    const simulated = windowMean(
      sensor1.map(([T]) => T),
      sensor1.map(([, p]) => p),
      window.fromT,
      window.toT,
    )
    metrics.push(
      metric(
        CASE,
        `${res}, sensor 1: mean pressure over T = ${window.fromT.toFixed(2)}–${window.toT.toFixed(2)}, relative error`,
        simulated / window.mean - 1,
        options.laterTolerance ?? 0.3,
        `simulated ${simulated.toFixed(3)} ρgH, measured ${window.mean.toFixed(3)} ρgH`,
      ),
    )
  })
  metrics.push(reported(CASE, `${res}: samples (every step)`, times.length))
  return { metrics, series }
}
