/**
 * A moving wall: a piston pushing into still water of depth d at speed U makes a bore whose
 * speed follows from mass and momentum conservation (shallow water):
 *   U = (h1 − d) √(g (h1 + d) / (2 h1 d)),   c = U h1 / (h1 − d),
 * h1 the depth behind the bore (the water there moves with the piston). The simple-wave relation
 * √(g h1) = √(g d) + U/2 gives h1 within 0.1 % at U/√(gd) = 0.3. Run in a thin slab periodic
 * along y; the piston accelerates smoothly to U over 0.05 s. At this Froude number (1.24) the bore
 * is undular: the front tracked is its leading wave, which still grows and speeds up over the
 * window (VALIDATION_FINDINGS.md, piston bore).
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
    for (let k = 1; k * 0.01 <= options.endTimeS + 1e-9; k++) {
      const t = k * 0.01
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
  const middle = (from + options.endTimeS) / 2
  const tracked = front.filter(([, x]) => Number.isFinite(x))
  const speed = fitSlope(tracked, from, options.endTimeS)
  const halves = [fitSlope(tracked, from, middle), fitSlope(tracked, middle, options.endTimeS)]
  const res = `d/dp ${options.particlesPerDepth}`
  return {
    front,
    metrics: [
      metric(
        CASE,
        `${res}: bore speed over t = ${from.toFixed(2)}–${options.endTimeS} s, relative error`,
        speed / celerity - 1,
        options.speedTolerance ?? 0.05,
        `simulated ${speed.toFixed(3)} m/s, shallow-water ${celerity.toFixed(3)} m/s (h1 ${h1.toFixed(4)} m; simple wave ${simpleWave.toFixed(4)} m); d ${d} m, U ${PISTON_SPEED} m/s`,
      ),
      reported(
        CASE,
        `${res}: bore speed over each half of the window, relative error`,
        halves[1]! / celerity - 1,
        `first half ${(halves[0]! / celerity - 1).toFixed(4)} (${halves[0]!.toFixed(3)} m/s), second half ${halves[1]!.toFixed(3)} m/s`,
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
