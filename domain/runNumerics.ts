/**
 * The numerical parameters a run used (issue 12: numerical choices made visible): written by the
 * solver's run at its start (the first lines of its log and a file beside it), served by
 * GET /simulations/{id}/jobs/{runId}/numerics and shown in the run's details on the Monitor page.
 * Kinds are the solver's own names (solver/sph config.ts), kept as strings here so that a new
 * kind does not make older records unreadable.
 */
import * as v from 'valibot'
import { formatCount, formatNumber } from './units.ts'

/** Which rule gave the speed of sound: the material's value, 10·√(g·H), 10·|u0|, or the solver. */
export const SPEED_OF_SOUND_RULES = ['material', 'gravity_wave', 'initial_speed', 'solver'] as const
/** One speed-of-sound rule. */
export type SpeedOfSoundRule = (typeof SPEED_OF_SOUND_RULES)[number]

/** The numerical parameters of one run. */
export const RunNumericsSchema = v.object({
  /** 'wendland' (Wendland C2) or 'cubic' (cubic spline). */
  kernel: v.string(),
  /** h / dp. */
  smoothingLengthFactor: v.number(),
  /** h, m. */
  smoothingLength: v.number(),
  /** dp, m. */
  particleDiameter: v.number(),
  /** c0, m/s. */
  speedOfSound: v.number(),
  speedOfSoundRule: v.picklist(SPEED_OF_SOUND_RULES),
  /** The candidates c0 is the largest of, m/s; the material's is null when it has none. */
  speedOfSoundCandidates: v.object({
    material: v.nullable(v.number()),
    gravityWave: v.number(),
    initialSpeed: v.number(),
  }),
  /** The coefficient of √(g·H) and |u0| (10: Mach ≈ 0.1). */
  speedOfSoundCoefficient: v.number(),
  /** H: the fluid's height along gravity at the start, m. */
  fluidHeight: v.number(),
  /** 'artificial', 'laminar' or 'artificial+laminar'. */
  viscosity: v.string(),
  /** Monaghan α (0 when artificial viscosity is off). */
  artificialViscosityAlpha: v.number(),
  /** The material's kinematic viscosity ν used by the laminar term (0 when off), m²/s. */
  laminarViscosity: v.number(),
  /** 'fourtakas', 'molteni' or 'none'. */
  densityDiffusion: v.string(),
  densityDiffusionDelta: v.number(),
  /** Courant number of the time step (the force limit; the acoustic one is acousticCfl). */
  cfl: v.number(),
  acousticCfl: v.number(),
  /** 'symplectic', 'rk4' or 'rk4_dual_step'. */
  integrator: v.string(),
  /** The setting it came from (dual_timestep_rk_4, runge_kutta_4). */
  integrationScheme: v.string(),
  /** Fixed step in s (dynamicTimeStep off), null for the variable step. */
  fixedTimeStepS: v.nullable(v.number()),
  /** 'lyu21', 'sun17' or 'zero'. */
  shifting: v.string(),
  /** 'riemann', 'generalized' (Adami) or 'dynamic'. */
  wall: v.string(),
  /** Density limiter as a fraction of ρ0, null when off. */
  densityThreshold: v.nullable(v.number()),
  fluidParticles: v.number(),
  wallParticles: v.number(),
  threads: v.number(),
  /** The GPU adapter a GPU run ran on ('NVIDIA H200'); absent for the CPU solver. */
  gpu: v.optional(v.string()),
  /**
   * The speedup over one thread that the work split allows at the start: threads ÷ the largest
   * over mean per-thread work of the force pass (issue 22). Absent in older records.
   */
  expectedSpeedup: v.optional(v.number()),
  /** Process CPU time ÷ wall time over the run's stepping, written when the run ends. */
  coresBusy: v.optional(v.number()),
  /** CPU and wall seconds of the run's stepping (coresBusy is their ratio). */
  cpuSeconds: v.optional(v.number()),
  wallSeconds: v.optional(v.number()),
})
/** The numerical parameters of one run. */
export type RunNumerics = v.InferOutput<typeof RunNumericsSchema>

/** GET /simulations/{id}/jobs/{runId}/numerics: null when the run has not started (or predates). */
export const RunNumericsReplySchema = v.object({
  runId: v.number(),
  numerics: v.nullable(RunNumericsSchema),
})
/** The numerics call's reply. */
export type RunNumericsReply = v.InferOutput<typeof RunNumericsReplySchema>

const KERNEL_NAMES: Record<string, string> = { wendland: 'Wendland C2', cubic: 'cubic spline' }
const INTEGRATOR_NAMES: Record<string, string> = {
  symplectic: 'Symplectic',
  rk4: 'RK4',
  rk4_dual_step: 'dual-step RK4',
}
const WALL_NAMES: Record<string, string> = {
  riemann: 'Riemann wall',
  generalized: 'generalized wall (Adami)',
  dynamic: 'dynamic boundary particles',
}
const DIFFUSION_NAMES: Record<string, string> = {
  fourtakas: 'Fourtakas',
  molteni: 'Molteni–Colagrossi',
  none: 'none',
}

const n = (value: number) => formatNumber(value, 4)

/** How c0 was chosen, in words: 'c0 = 19.81 m/s: 10·√(g·H), H = 0.4 m (material 20 m/s)'. */
export function describeSpeedOfSound(numerics: RunNumerics): string {
  const { speedOfSoundCandidates: c, speedOfSoundCoefficient: k } = numerics
  const rule = {
    material: "the material's speed of sound",
    gravity_wave: `${n(k)}·√(g·H), H = ${n(numerics.fluidHeight)} m`,
    initial_speed: `${n(k)} × the fastest initial velocity`,
    solver: "the solver's rule",
  }[numerics.speedOfSoundRule]
  const others = [
    numerics.speedOfSoundRule !== 'material' && c.material !== null
      ? `material ${n(c.material)} m/s`
      : null,
    numerics.speedOfSoundRule !== 'gravity_wave' && c.gravityWave > 0
      ? `${n(k)}·√(g·H) ${n(c.gravityWave)} m/s`
      : null,
  ].filter((text): text is string => text !== null)
  return `c0 = ${n(numerics.speedOfSound)} m/s: ${rule}${others.length > 0 ? ` (${others.join(', ')})` : ''}`
}

/** Threads, the speedup their work split allows and, once the run ended, the cores it kept busy. */
export function describeThreads(numerics: RunNumerics): string {
  const parts = [String(numerics.threads)]
  if (numerics.expectedSpeedup !== undefined && numerics.threads > 1)
    parts.push(`expected speedup ${formatNumber(numerics.expectedSpeedup, 3)} ×`)
  if (numerics.coresBusy !== undefined)
    parts.push(`${formatNumber(numerics.coresBusy, 3)} of ${numerics.threads} cores busy`)
  return parts.join(', ')
}

/** The parameters as labelled lines, in the order the run's details and log show them. */
export function runNumericsLines(numerics: RunNumerics): [label: string, value: string][] {
  const viscosity = [
    numerics.artificialViscosityAlpha > 0
      ? `artificial α = ${n(numerics.artificialViscosityAlpha)}`
      : null,
    numerics.laminarViscosity > 0 ? `laminar ν = ${n(numerics.laminarViscosity)} m²/s` : null,
  ].filter((text): text is string => text !== null)
  return [
    ['Kernel', KERNEL_NAMES[numerics.kernel] ?? numerics.kernel],
    [
      'Smoothing length',
      `h = ${n(numerics.smoothingLengthFactor)} dp = ${n(numerics.smoothingLength)} m`,
    ],
    ['Particle diameter', `${n(numerics.particleDiameter)} m`],
    ['Speed of sound', describeSpeedOfSound(numerics)],
    ['Viscosity', viscosity.length > 0 ? viscosity.join(', ') : 'none'],
    [
      'Density diffusion',
      numerics.densityDiffusion === 'none'
        ? 'none'
        : `${DIFFUSION_NAMES[numerics.densityDiffusion] ?? numerics.densityDiffusion}, δ = ${n(numerics.densityDiffusionDelta)}`,
    ],
    [
      'Time step',
      numerics.fixedTimeStepS === null
        ? `variable, CFL ${n(numerics.cfl)}${numerics.acousticCfl !== numerics.cfl ? ` (acoustic ${n(numerics.acousticCfl)})` : ''}`
        : `fixed ${n(numerics.fixedTimeStepS)} s`,
    ],
    [
      'Integrator',
      `${INTEGRATOR_NAMES[numerics.integrator] ?? numerics.integrator} (${numerics.integrationScheme})`,
    ],
    ['Shifting', numerics.shifting],
    ['Walls', WALL_NAMES[numerics.wall] ?? numerics.wall],
    [
      'Density limiter',
      numerics.densityThreshold === null ? 'off' : `±${n(numerics.densityThreshold * 100)} %`,
    ],
    [
      'Particles',
      `${formatCount(numerics.fluidParticles)} fluid + ${formatCount(numerics.wallParticles)} wall`,
    ],
    numerics.gpu === undefined ? ['Threads', describeThreads(numerics)] : ['GPU', numerics.gpu],
  ]
}

/** The log message of a run's start: 'Numerical parameters: Kernel Wendland C2; …'. */
export function runNumericsMessage(numerics: RunNumerics): string {
  return `Numerical parameters: ${runNumericsLines(numerics)
    .map(([label, value]) => `${label} ${value}`)
    .join('; ')}.`
}
