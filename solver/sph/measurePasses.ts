/**
 * Two pieces of SphSolver kept apart: timing repeated interaction passes (the force-pass bench)
 * and a snapshot of the run's particles without open-boundary or periodic images' bookkeeping.
 */
import type { BoundaryKind } from './config.ts'
import type { HeatConstants } from './heatConfig.ts'
import type { OpenBoundaries } from './openBoundary.ts'
import type { ParticleArrays } from './particles.ts'
import type { RotationalImages } from './periodicRotation.ts'
import { buildSnapshot } from './snapshot.ts'
import type { PassMeasurement, SolverSnapshot } from './solverTypes.ts'
import type { PassStats } from './stencil.ts'
import { foldStats } from './stencil.ts'
import type { PhaseRunner } from './threads.ts'
import { PHASE } from './threads.ts'

/** What a step does around the measured passes. */
export interface MeasureStep {
  /** Air drag at this time after each force pass (null: no air drag). */
  airDragAtS?: number | null
  /** After the wall pass (a rotational periodic boundary's wall images refreshed). */
  afterWalls?: (() => void) | null
}

/**
 * Times `passes` force (or reference) passes on the sorted state, walls extrapolated once and,
 * as a step's interactions, each particle's ν of a viscosity table and surface tension's colour
 * gradient before them, the heat conduction's rates (dT/dt in dtemp) once, and air drag after
 * each force pass (MeasureStep).
 */
export function measurePasses(
  runner: PhaseRunner,
  boundary: BoundaryKind,
  kind: 'forces' | 'reference',
  passes: number,
  into: PassStats,
  k: { heat: HeatConstants; surfaceTension: number },
  { airDragAtS = null, afterWalls = null }: MeasureStep = {},
): PassMeasurement {
  runner.run(PHASE.pressures)
  if (boundary !== 'dynamic') runner.run(PHASE.walls)
  // as a step's interactions (a rotational periodic boundary's wall images refreshed)
  afterWalls?.()
  const heat = k.heat
  if (heat.viscosityModel !== 0) runner.run(PHASE.viscosity)
  if (k.surfaceTension > 0) runner.run(PHASE.colour)
  if (heat.conduction > 0) {
    runner.run(PHASE.heatWalls)
    runner.run(PHASE.heat)
  }
  const phase = kind === 'forces' ? PHASE.forces : PHASE.reference
  let interactions = 0
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  for (let k = 0; k < passes; k++) {
    runner.run(phase)
    if (kind === 'forces' && airDragAtS !== null) runner.run(PHASE.airDrag, airDragAtS)
    interactions += foldStats(runner.stats(), runner.threadCount(), into).interactions
  }
  const cpu = process.cpuUsage(cpuStarted)
  return {
    interactions,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    threads: runner.threadCount(),
  }
}

/**
 * The snapshot of particles [0, count) (pressures computed): open boundaries' buffer particles
 * marked, a rotational periodic boundary's images left out.
 */
export function runSnapshot(
  a: ParticleArrays,
  count: number,
  open: OpenBoundaries | null,
  images: RotationalImages | null,
  at: { timeS: number; step: number; partIds: readonly number[]; materialIds: readonly number[] },
): SolverSnapshot {
  return buildSnapshot(
    a,
    count - (images?.count ?? 0),
    {
      ...at,
      ...(open ? { isBufferPart: (index: number) => open.isBufferPart(index) } : {}),
      ...(images ? { isImagePart: (index: number) => images.isImagePart(index) } : {}),
    },
    count,
  )
}
