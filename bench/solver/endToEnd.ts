/**
 * A small real simulation end to end through the solver, timed: CPU-seconds and wall seconds per
 * simulated second, cores busy (process CPU time ÷ wall time), particle-steps per second and force
 * passes per simulated second. Takes the solver factory as a parameter so that the same loop can
 * time an older checkout's solver (see bench/README.md, "Time to solution").
 */

/** What the loop needs of a solver (the API has kept this shape since issue 12 was filed). */
export interface TimedSolver {
  describe(): { integrator: string; threads: number; particleCount: number }
  step(maxDtS?: number): { step: number; timeS: number; particleCount: number; fluidCount: number }
  dispose(): Promise<void>
  workSplit?: () => { expectedSpeedup: number; forcesMaxOverMean: number }
}

export interface EndToEndResult {
  threads: number
  integrator: string
  particles: number
  fluidParticles: number
  simulatedS: number
  steps: number
  setupS: number
  wallS: number
  cpuS: number
  coresBusy: number
  cpuSPerSimulatedS: number
  wallSPerSimulatedS: number
  particleStepsPerS: number
  forcePassesPerSimulatedS: number
  /** The force pass's estimated split at the end (largest over mean), when the solver tells it. */
  forcesMaxOverMean: number | null
  expectedSpeedup: number | null
}

const FORCE_PASSES: Record<string, number> = { symplectic: 2, rk4: 4, rk4_dual_step: 4 }

/** Creates a solver with `create`, steps it to `endTimeS` and measures the stepping alone. */
export async function timeEndToEnd(
  create: () => Promise<TimedSolver>,
  endTimeS: number,
  onProgress?: (timeS: number, steps: number) => void,
): Promise<EndToEndResult> {
  const setupStarted = performance.now()
  const solver = await create()
  const setupS = (performance.now() - setupStarted) / 1000
  try {
    const description = solver.describe()
    let particleSteps = 0
    let steps = 0
    let timeS = 0
    let fluid = 0
    let lastProgress = performance.now()
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    while (endTimeS - timeS > 1e-9 * endTimeS) {
      const report = solver.step(endTimeS - timeS)
      timeS = report.timeS
      steps++
      particleSteps += report.particleCount
      fluid = report.fluidCount
      if (onProgress && performance.now() - lastProgress > 10_000) {
        lastProgress = performance.now()
        onProgress(timeS, steps)
      }
    }
    const cpu = process.cpuUsage(cpuStarted)
    const wallS = (performance.now() - started) / 1000
    const cpuS = (cpu.user + cpu.system) / 1e6
    const split = solver.workSplit?.() ?? null
    const passes = FORCE_PASSES[description.integrator] ?? 4
    return {
      threads: description.threads,
      integrator: description.integrator,
      particles: description.particleCount,
      fluidParticles: fluid,
      simulatedS: timeS,
      steps,
      setupS,
      wallS,
      cpuS,
      coresBusy: cpuS / wallS,
      cpuSPerSimulatedS: cpuS / timeS,
      wallSPerSimulatedS: wallS / timeS,
      particleStepsPerS: particleSteps / wallS,
      forcePassesPerSimulatedS: (steps * passes) / timeS,
      forcesMaxOverMean: split?.forcesMaxOverMean ?? null,
      expectedSpeedup: split?.expectedSpeedup ?? null,
    }
  } finally {
    await solver.dispose()
  }
}
