/**
 * A moving wall: a piston pushing into still water of depth d at speed U makes a bore. Its mean
 * jump follows from mass and momentum conservation (shallow water):
 *   U = (h1 − d) √(g (h1 + d) / (2 h1 d)),   c = U h1 / (h1 − d),
 * h1 the depth behind the bore (the water there moves with the piston). The simple-wave relation
 * √(g h1) = √(g d) + U/2 gives h1 within 0.1 % at U/√(gd) = 0.3. Run in a thin slab periodic
 * along y; the piston accelerates smoothly to U over 0.05 s. At this Froude number (1.24) the bore
 * is undular: the front tracked is its leading wave, which still grows and speeds up over the
 * window, so the reference for the front is the same piston in the Serre–Green–Naghdi equations
 * (serre.ts; they keep the vertical acceleration that makes the undulations), and the
 * shallow-water speed is reported beside it (VALIDATION_FINDINGS.md, piston bore).
 */
import type { SolverConfig } from '../solver/sph/config.ts'
import type { RigidPose } from '../solver/sph/motion.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import {
  buildTankParticles,
  TANK_PART_ID,
  tankPeriodicY,
  WATER,
} from '../solver/sph/scenarios.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { fitSlope, GRAVITY, metric, reported, settingsFor, withSolver } from './common.ts'
import { advanceSerre, serreFront, stillWater } from './serre.ts'

const CASE = 'moving wall (piston bore)'
const PISTON_PART_ID = 3
/** Water depth d, piston speed U, its ramp time, tank length (m, m/s, s, m). */
export const PISTON_DEPTH = 0.1
export const PISTON_SPEED = 0.3
const RAMP_S = 0.05
const TANK_LENGTH = 1.0

/** Depth behind the bore from the shock relation (bisection on h1 > d). */
export function boreDepth(d: number, speed: number): number {
  let lo = d
  let hi = 3 * d
  for (let k = 0; k < 100; k++) {
    const h1 = 0.5 * (lo + hi)
    const u = (h1 - d) * Math.sqrt((GRAVITY * (h1 + d)) / (2 * h1 * d))
    if (u < speed) lo = h1
    else hi = h1
  }
  return 0.5 * (lo + hi)
}

/** Piston displacement: U t²/(2τ) while it accelerates (t < τ), then U (t − τ/2). */
export function pistonPosition(t: number): number {
  return t < RAMP_S ? (PISTON_SPEED * t * t) / (2 * RAMP_S) : PISTON_SPEED * (t - RAMP_S / 2)
}

export interface PistonOptions extends CaseOverrides {
  /** Particles across the water depth d. */
  particlesPerDepth: number
  particlesDeep: number
  /** Simulated time, s; the bore is tracked over its second two thirds. */
  endTimeS: number
  threads?: number
  speedTolerance?: number
}

export interface PistonResult {
  metrics: ValidationMetric[]
  /** [t, x] of the bore front (s, m). */
  front: [number, number][]
  /** [t, x] of the Serre–Green–Naghdi front at the same times (s, m). */
  reference: [number, number][]
}

/** Time between front samples, s. */
const SAMPLE_S = 0.01

/**
 * The front of the same piston in the Serre–Green–Naghdi equations (serre.ts), sampled every
 * SAMPLE_S to endTimeS: where the surface crosses `level` going forward. 1000 columns over the
 * tank and steps of 0.5 ms: the front agrees with 2000 columns and 0.25 ms to 0.1 mm.
 */
export function dispersiveFront(level: number, endTimeS: number): [number, number][] {
  const state = stillWater(PISTON_DEPTH, TANK_LENGTH, 1000)
  const front: [number, number][] = []
  for (let k = 1; k * SAMPLE_S <= endTimeS + 1e-9; k++) {
    advanceSerre(state, k * SAMPLE_S, 5e-4, { gravity: GRAVITY, leftMotion: pistonPosition })
    front.push([k * SAMPLE_S, serreFront(state, level)])
  }
  return front
}

/**
 * The piston case: the bore front (where the free surface, top fluid particle + dp/2 in columns dp
 * wide, crosses d + (h1 − d)/2 going forward, interpolated between column centres) is tracked every
 * 0.01 s and its speed (least squares over the second two thirds of the run) checked against c;
 * the speeds over each half of that window are reported beside it (a front still forming shows as
 * a slower first half; VALIDATION_FINDINGS.md, piston bore). The interpolation makes the front
 * move smoothly rather than in steps of dp.
 */
export async function runPistonCase(options: PistonOptions): Promise<PistonResult> {
  const d = PISTON_DEPTH
  const dp = d / options.particlesPerDepth
  const deep = options.particlesDeep * dp
  const scenario = {
    dp,
    tank: [TANK_LENGTH, deep, 2.5 * d] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [TANK_LENGTH, deep, d] as [number, number, number],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  // the piston: the left end wall above the floor (the floor stays, the piston slides on it)
  const partIds = Int32Array.from(particles.partIds)
  for (let i = 0; i < partIds.length; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.wall) continue
    if (particles.positions[3 * i]! < 0 && particles.positions[3 * i + 2]! > 0)
      partIds[i] = PISTON_PART_ID
  }
  const config: SolverConfig = {
    settings: settingsFor(dp, options.settings),
    materials: [WATER],
    particles: { ...particles, partIds },
    parts: [
      { id: TANK_PART_ID, wallCondition: 'slip' },
      { id: PISTON_PART_ID, wallCondition: 'slip' },
    ],
    wallMotion: (partId, t): RigidPose | null =>
      partId === PISTON_PART_ID && t > 0 ? { translation: [pistonPosition(t), 0, 0] } : null,
    options: {
      hydrostaticInitialisation: true,
      threads: options.threads ?? 1,
      periodicY: tankPeriodicY(scenario),
      ...options.solverOptions,
    },
  }
  const h1 = boreDepth(d, PISTON_SPEED)
  const celerity = (PISTON_SPEED * h1) / (h1 - d)
  const simpleWave = (Math.sqrt(d) + PISTON_SPEED / (2 * Math.sqrt(GRAVITY))) ** 2
  const level = d + 0.5 * (h1 - d)
  const columns = Math.round(TANK_LENGTH / dp)
  const front: [number, number][] = []
  await withSolver(config, async (solver) => {
    for (let k = 1; k * SAMPLE_S <= options.endTimeS + 1e-9; k++) {
      const t = k * SAMPLE_S
      await solver.runUntil(t)
      const s = await solver.snapshot()
      const top = new Float64Array(columns).fill(-Infinity)
      for (let i = 0; i < s.count; i++) {
        if (s.kind[i] !== PARTICLE_KIND.fluid) continue
        const c = Math.floor(s.positions[3 * i]! / dp)
        if (c >= 0 && c < columns) top[c] = Math.max(top[c]!, s.positions[3 * i + 2]! + dp / 2)
      }
      front.push([t, crossing(top, level, d, dp)])
    }
  })
  const from = options.endTimeS / 3
  const end = options.endTimeS
  const middle = (from + end) / 2
  const tracked = front.filter(([, x]) => Number.isFinite(x))
  const reference = dispersiveFront(level, end)
  const speeds = (points: [number, number][]) => ({
    window: fitSlope(points, from, end),
    halves: [fitSlope(points, from, middle), fitSlope(points, middle, end)],
  })
  const simulated = speeds(tracked)
  const dispersive = speeds(reference)
  // the largest gap between the two fronts over the window
  let gap = 0
  for (const [t, x] of tracked) {
    if (t < from - 1e-9) continue
    const r = reference.find(([tr]) => Math.abs(tr - t) < 1e-9)
    if (r) gap = Math.max(gap, Math.abs(x - r[1]))
  }
  const res = `d/dp ${options.particlesPerDepth}`
  const window = `t = ${from.toFixed(2)}–${end} s`
  return {
    front,
    reference,
    metrics: [
      metric(
        CASE,
        `${res}: front speed over ${window} against the Serre–Green–Naghdi front, relative error`,
        simulated.window / dispersive.window - 1,
        options.speedTolerance ?? 0.05,
        `simulated ${simulated.window.toFixed(3)} m/s, Serre–Green–Naghdi ${dispersive.window.toFixed(3)} m/s; d ${d} m, U ${PISTON_SPEED} m/s`,
      ),
      reported(
        CASE,
        `${res}: front speed over each half of the window against the Serre–Green–Naghdi front's, relative error`,
        simulated.halves[1]! / dispersive.halves[1]! - 1,
        `first half ${(simulated.halves[0]! / dispersive.halves[0]! - 1).toFixed(4)} (${simulated.halves[0]!.toFixed(3)} against ${dispersive.halves[0]!.toFixed(3)} m/s), second half ${simulated.halves[1]!.toFixed(3)} against ${dispersive.halves[1]!.toFixed(3)} m/s`,
      ),
      reported(
        CASE,
        `${res}: front speed over ${window} against the shallow-water bore speed, relative error`,
        simulated.window / celerity - 1,
        `shallow-water ${celerity.toFixed(3)} m/s (h1 ${h1.toFixed(4)} m; simple wave ${simpleWave.toFixed(4)} m), the mean jump's; the Serre–Green–Naghdi front ${(dispersive.window / celerity - 1).toFixed(4)} against it (its leading wave still forming)`,
      ),
      reported(
        CASE,
        `${res}: largest distance between the fronts over the window (m)`,
        gap,
        `${(gap / d).toFixed(3)} d`,
      ),
      reported(CASE, `${res}: front at the end (m)`, front.at(-1)![1]),
    ],
  }
}

/**
 * The largest x where the surface (per column of width dp, −Infinity where empty) stands above
 * level, interpolated linearly between the centres of the last column above and the next one
 * (still water d where that one is empty or past the end). NaN when no column is above.
 */
export function crossing(top: Float64Array, level: number, d: number, dp: number): number {
  for (let c = top.length - 1; c >= 0; c--) {
    if (!(top[c]! > level)) continue
    const next = c + 1 < top.length && Number.isFinite(top[c + 1]!) ? top[c + 1]! : d
    return (c + 0.5 + (top[c]! - level) / (top[c]! - next)) * dp
  }
  return Number.NaN
}
