/**
 * What follows a step's last stage (SphSolver.step): particle shifting, then the rotational
 * images' refresh, so that sensors, probes and snapshots read the current state by a cut.
 */
import { SHIFTING_CODE, type SphConstants } from './config.ts'
import { holdBuffers, type OpenBoundaries } from './openBoundary.ts'
import type { ParticleArrays } from './particles.ts'
import type { RotationalImages } from './periodicRotation.ts'
import { maxFluidSpeed2 } from './shifting.ts'
import { addProfile, PHASE, type PhaseRunner } from './threads.ts'

/** The solver's parts the end of a step works on. */
export interface StepEndParts {
  constants: SphConstants
  arrays: ParticleArrays
  runner: PhaseRunner
  open: OpenBoundaries | null
  images: RotationalImages | null
}

/**
 * Shifts the particles (unless shifting is 'zero'), then gives every image its source's end
 * state. The passes refresh the images before they run, so without this an image kept its
 * state of the last force pass and a sensor by a cut read it a step stale (issue 16 item 7);
 * the next sort makes the images again from their sources, so no force pass sees this refresh.
 */
export function finishStep(parts: StepEndParts, count: number, dt: number): void {
  if (parts.constants.shiftingCode !== SHIFTING_CODE.zero) shift(parts, count, dt)
  parts.images?.refresh()
}

/** Particle shifting after a step (see shiftParticles), scaled by the fastest fluid particle. */
function shift(
  { constants, arrays, runner, open, images }: StepEndParts,
  count: number,
  dt: number,
) {
  const started = performance.now()
  const max2 = maxFluidSpeed2(arrays, count)
  addProfile('maxSpeed', performance.now() - started)
  if (max2 === 0) return
  holdBuffers(open, () => {
    images?.refresh()
    runner.run(PHASE.pressures)
    runner.run(PHASE.shift, 4 * constants.h * Math.sqrt(max2) * dt)
  })
}
