/**
 * The numerical parameters of a run (domain/runNumerics.ts) from the solver it created: what
 * describe() reports, and how the speed of sound was chosen (which of its candidates it equals).
 */
import type { RunNumerics, SpeedOfSoundRule } from '../../domain/runNumerics.ts'
import { ACOUSTIC_CFL_FACTOR } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { frameHead } from '../sph/rotatingFrame.ts'
import type { RunBackend } from './runBackend.ts'
import type { RunSimulationOptions } from './types.ts'

/** The fluid's height along gravity (+ dp) and its fastest initial speed, as the solver sees them. */
function fluidExtent(
  options: RunSimulationOptions,
  gravity: readonly number[],
  dp: number,
): { height: number; maxSpeed: number } {
  const { positions, kinds, velocities } = options.particles
  const g = Math.hypot(gravity[0]!, gravity[1]!, gravity[2]!)
  let lo = Infinity
  let hi = -Infinity
  let maxSpeed = 0
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== PARTICLE_KIND.fluid) continue
    if (g > 0) {
      const s =
        (positions[3 * i]! * gravity[0]! +
          positions[3 * i + 1]! * gravity[1]! +
          positions[3 * i + 2]! * gravity[2]!) /
        g
      lo = Math.min(lo, s)
      hi = Math.max(hi, s)
    }
    if (velocities)
      maxSpeed = Math.max(
        maxSpeed,
        Math.hypot(velocities[3 * i]!, velocities[3 * i + 1]!, velocities[3 * i + 2]!),
      )
  }
  return { height: hi > lo ? hi - lo + dp : dp, maxSpeed }
}

const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))

/** The numerical parameters `solver` runs with (created from `options`). */
export function describeRunNumerics(
  solver: RunBackend,
  options: RunSimulationOptions,
): RunNumerics {
  const description = solver.describe()
  const { constants, options: solverOptions } = description
  const { settings } = options.setup
  const dp = constants.particleDiameter
  const gravity = constants.gravity
  const extent = fluidExtent(options, gravity, dp)
  // a rotating frame's centrifugal head counts as height (or as a speed without gravity), as the
  // solver counts it (config.ts)
  const { positions, kinds: fluidKinds } = options.particles
  const head = frameHead(
    constants.rotation,
    positions,
    (i) => fluidKinds[i] === PARTICLE_KIND.fluid,
  )
  const gMag = Math.hypot(gravity[0], gravity[1], gravity[2])
  const height = extent.height + (gMag > 0 ? head / gMag : 0)
  const maxSpeed = gMag > 0 ? extent.maxSpeed : Math.max(extent.maxSpeed, Math.sqrt(head))
  const coefficient = solverOptions.soundSpeedCoefficient
  // the fluid material: the first fluid particle's, as the solver picks it
  const { kinds, materialIds } = options.particles
  let materialId = options.setup.materials[0]?.id
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] === PARTICLE_KIND.fluid) {
      materialId = materialIds ? materialIds[i] : materialId
      break
    }
  const material = options.setup.materials.find((m) => m.id === materialId)
  const candidates = {
    material: material?.speedOfSound ?? null,
    gravityWave: coefficient * Math.sqrt(Math.hypot(...gravity) * height),
    initialSpeed: coefficient * maxSpeed,
  }
  const c0 = constants.speedOfSound
  const rule: SpeedOfSoundRule =
    candidates.gravityWave > 0 && same(c0, candidates.gravityWave)
      ? 'gravity_wave'
      : candidates.initialSpeed > 0 && same(c0, candidates.initialSpeed)
        ? 'initial_speed'
        : candidates.material !== null && same(c0, candidates.material)
          ? 'material'
          : 'solver'
  const report = solver.report()
  return {
    kernel: solverOptions.kernel,
    smoothingLengthFactor: solverOptions.smoothingLengthFactor,
    smoothingLength: constants.h,
    particleDiameter: dp,
    speedOfSound: c0,
    speedOfSoundRule: rule,
    speedOfSoundCandidates: candidates,
    speedOfSoundCoefficient: coefficient,
    fluidHeight: height,
    viscosity: solverOptions.viscosity,
    artificialViscosityAlpha: constants.alpha,
    laminarViscosity: constants.nu,
    densityDiffusion: constants.diffusionCoefficient > 0 ? solverOptions.densityDiffusion : 'none',
    densityDiffusionDelta: solverOptions.densityDiffusionDelta,
    cfl: solverOptions.cfl,
    acousticCfl:
      description.integrator === 'rk4_dual_step'
        ? ACOUSTIC_CFL_FACTOR * solverOptions.cfl
        : solverOptions.cfl,
    integrator: description.integrator,
    integrationScheme: settings.integrationScheme,
    fixedTimeStepS: description.fixedDtS,
    shifting: settings.shifting,
    wall: description.boundary,
    densityThreshold: settings.densityLimiter ? settings.densityThreshold : null,
    fluidParticles: report.fluidCount,
    wallParticles: report.particleCount - report.fluidCount,
    threads: description.threads,
    ...(solver.adapter === null ? {} : { gpu: solver.adapter }),
    ...(solver.kind === 'cpu' ? { expectedSpeedup: solver.expectedSpeedup() } : {}),
  }
}
