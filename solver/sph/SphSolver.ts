/**
 * The weakly-compressible SPH solver: createSolver(config) → Solver with step(), runUntil(),
 * snapshot(), checkpoint() and restore(). One step of the Symplectic scheme (DualSPHysics) is:
 * sort by cell → interactions at t → predictor to t + dt/2 → interactions → corrector to t + dt.
 */
import type { Box } from './grid.ts'
import { CellSorter, viewGrid } from './grid.ts'
import type {
  BoundaryKind,
  Integrator,
  SolverConfig,
  SolverOptions,
  SphConstants,
} from './config.ts'
import {
  deriveConstants,
  findFluidMaterial,
  resolveBoundary,
  resolveIntegrator,
  resolveOptions,
  SolverSetupError,
} from './config.ts'
import { unsupportedSettings } from './support.ts'
import type { PassStats } from './stencil.ts'
import { foldStats } from './stencil.ts'
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { PreparedParticles } from './prepare.ts'
import { prepareParticles } from './prepare.ts'
import { addProfile, PHASE, PhaseRunner } from './threads.ts'
import { WallMover } from './wallMover.ts'
import { setSolverInternals } from './solverInternals.ts'
import { runSnapshot } from './measurePasses.ts'
import { withHeatFields } from './heat.ts'
import type { TimeStepLimits } from './timeStep.ts'
import { initialTimeStep, limitingRule, variableTimeStep } from './timeStep.ts'
import { createOpenBoundaries, type OpenBoundaries } from './openBoundary.ts'
import { finishStep, type StepEndParts } from './stepEnd.ts'
import type { RotationalImages } from './periodicRotation.ts'
import { measurePasses } from './measurePasses.ts'
import { createRotationalImages, rotationalPeriodicRefusals } from './periodicRotation.ts'
import type { CheckpointHeader } from './checkpoint.ts'
import {
  checkFingerprint,
  decodeCheckpointArrays,
  decodeCheckpointHeader,
  encodeCheckpoint,
  solverFingerprint,
} from './checkpoint.ts'
import type {
  PassMeasurement,
  RunHooks,
  Solver,
  SolverDescription,
  SolverSnapshot,
  SolverStepReport,
  WorkSplitReport,
} from './solverTypes.ts'

export type * from './solverTypes.ts'

export { solverInternals } from './solverInternals.ts'
export type { SolverInternals } from './solverInternals.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid

/**
 * Creates a solver. Refuses (SolverSetupError) settings it does not implement, listing them, and
 * invalid input. Resolves once the worker threads (options.threads − 1) are running.
 */
export async function createSolver(config: SolverConfig): Promise<Solver> {
  const refused = unsupportedSettings(config.settings, config.options)
  refused.push(...rotationalPeriodicRefusals(config))
  if (refused.length > 0)
    throw new SolverSetupError(`Unsupported simulation settings: ${refused.join(', ')}.`)
  const options = resolveOptions(config.options)
  const material = findFluidMaterial(config)
  const constants = deriveConstants(config, options, material)
  const setup = prepareParticles(config, options, constants)
  const runner = await PhaseRunner.start({
    threads: options.threads,
    particles: setup.buffers,
    grid: setup.grid,
    constants,
  })
  const materialIds = constants.phases?.materialIds ?? [material.id]
  return new SphSolver(config, options, constants, materialIds, setup, runner)
}

class SphSolver implements Solver {
  #options: SolverOptions
  #integrator: Integrator
  #boundary: BoundaryKind
  #constants: SphConstants
  /** Material id of each phase (one without multiphase). */
  #materialIds: readonly number[]
  #arrays: ParticleArrays
  #sorter: CellSorter
  #runner: PhaseRunner
  #referenceBox: Box
  #deletionBox: Box | null
  #partIds: number[]
  #walls: WallMover
  /** Inlets and outlets (openBoundary.ts; particles leaving through them are NaN); or null. */
  #open: OpenBoundaries | null
  /** The rotational periodic boundary's images across the cut faces (periodicRotation.ts); or null. */
  #images: RotationalImages | null
  #grid: ReturnType<typeof viewGrid>
  /** What the end of a step (shifting, the images' refresh) works on. */
  #stepEnd: StepEndParts
  #count: number
  #fluidCount = 0
  #timeS = 0
  #step = 0
  #deletedOutside = 0
  #deletedInvalid = 0
  #fixedDtS: number | null
  #lastDtS = 0
  #interactions = 0
  /** The last force pass's stats, folded over the threads. */
  #passStats: PassStats = { maxAcceleration2: 0, maxViscous: 0, interactions: 0 }
  /** The last variable step's limits (which one chose dt goes to the profile). */
  #limits: TimeStepLimits = { force: 0, acoustic: 0, viscous: 0, capillary: 0 }

  constructor(
    config: SolverConfig,
    options: SolverOptions,
    constants: SphConstants,
    materialIds: readonly number[],
    setup: PreparedParticles,
    runner: PhaseRunner,
  ) {
    this.#options = options
    this.#integrator = resolveIntegrator(config.settings, options)
    this.#boundary = resolveBoundary(config.settings, options)
    this.#constants = constants
    this.#materialIds = materialIds
    this.#arrays = setup.arrays
    this.#count = setup.count
    // a sort's per-particle loops, its counting and its permutation run on all threads
    this.#sorter = new CellSorter(setup.arrays, setup.grid, runner.parallelSort())
    this.#runner = runner
    this.#referenceBox = setup.referenceBox
    this.#deletionBox = config.settings.calcDomainActive ? setup.referenceBox : null
    this.#partIds = setup.partIds
    this.#grid = viewGrid(setup.grid)
    this.#open = createOpenBoundaries(config, setup, constants)
    this.#images = createRotationalImages(config, setup, constants, () => runner.permutation())
    this.#stepEnd = {
      constants,
      arrays: setup.arrays,
      runner,
      open: this.#open,
      images: this.#images,
    }
    this.#walls = new WallMover(setup.partIds, config.wallMotion)
    this.#fixedDtS = config.settings.dynamicTimeStep
      ? null
      : (options.fixedTimeStepS ?? initialTimeStep(constants, options))
    this.#fluidCount = this.#countFluid()
    setSolverInternals(this, {
      arrays: setup.arrays,
      grid: this.#grid,
      constants,
      count: () => this.#count,
      timeS: () => this.#timeS,
    })
    // sorted from the start, so that a snapshot before the first step has its pressures
    this.#sortParticles()
    this.#moveWalls(0)
  }

  #countFluid(): number {
    let fluid = 0
    for (let i = 0; i < this.#count; i++) if (this.#arrays.kind[i] === FLUID) fluid++
    return fluid
  }

  describe(): SolverDescription {
    return {
      options: { ...this.#options },
      integrator: this.#integrator,
      boundary: this.#boundary,
      constants: structuredClone(this.#constants),
      threads: this.#runner.threadCount(),
      particleCount: this.#count,
      fixedDtS: this.#fixedDtS,
    }
  }

  #sortParticles(): void {
    const started = performance.now()
    if (this.#open) this.#count = this.#open.beforeSort(this.#count)
    if (this.#images) this.#count = this.#images.beforeSort(this.#count)
    const result = this.#sorter.sort({
      count: this.#count,
      support: this.#constants.support,
      reach: this.#options.cellsPerSupport,
      referenceBox: this.#referenceBox,
      deletionBox: this.#deletionBox,
      periodicY: this.#options.periodicY,
    })
    this.#count = result.count
    const leftOpen = this.#open?.takeRemoved() ?? 0
    this.#deletedOutside += result.deletedOutside + leftOpen
    this.#deletedInvalid += result.deletedInvalid - leftOpen - (this.#images?.takeRemoved() ?? 0)
    this.#fluidCount = result.fluidCount
    if (this.#images) {
      this.#images.afterSort(this.#count)
      this.#fluidCount -= this.#images.fluidCount
    }
    this.#walls.sorted()
    this.#open?.afterSort(this.#timeS, this.#count, this.#grid)
    const sorted = performance.now()
    addProfile('sort', sorted - started)
    this.#runner.partition()
    addProfile('split', performance.now() - sorted)
  }

  #moveWalls(timeS: number): void {
    this.#walls.move(timeS, this.#arrays, this.#count, this.#runner)
  }

  /** Pressures, wall extrapolation and forces at the current state (at time timeS). */
  #interact(timeS: number): void {
    const runner = this.#runner
    this.#images?.refresh()
    runner.run(PHASE.pressures)
    if (this.#boundary !== 'dynamic') runner.run(PHASE.walls)
    if (this.#constants.heat.viscosityModel !== 0) runner.run(PHASE.viscosity)
    if (this.#constants.surfaceTension > 0) runner.run(PHASE.colour)
    this.#images?.refreshWalls(this.#constants.riemannWall > 0)
    runner.run(PHASE.forces)
    if (this.#constants.airDrag) runner.run(PHASE.airDrag, timeS)
    this.#open?.clearForces()
    this.#images?.clearForces()
    const stats = foldStats(runner.stats(), runner.threadCount(), this.#passStats)
    this.#interactions += stats.interactions
  }

  #chooseDt(): number {
    if (this.#fixedDtS !== null) return this.#fixedDtS
    const limits = this.#limits
    const dt = variableTimeStep(
      this.#constants,
      this.#options,
      this.#integrator,
      {
        maxAcceleration: Math.sqrt(this.#passStats.maxAcceleration2),
        maxViscous: this.#passStats.maxViscous,
      },
      limits,
    )
    addProfile(limitingRule(limits), 0)
    return dt
  }

  step(maxDtS = Infinity): SolverStepReport {
    if (!(maxDtS > 0)) throw new RangeError(`maxDtS must be positive, got ${maxDtS}.`)
    this.#interactions = 0
    const t0 = this.#timeS
    this.#sortParticles()
    this.#moveWalls(t0)
    this.#interact(t0)
    const dt = Math.min(this.#chooseDt(), maxDtS)
    const runner = this.#runner
    // heat conduction at t (heat.ts): walls' temperatures, then dT/dt; T moves after the step
    const heat = this.#constants.heat.conduction > 0
    if (heat) {
      runner.run(PHASE.heatWalls)
      runner.run(PHASE.heat)
    }
    if (this.#integrator === 'symplectic') {
      runner.run(PHASE.predict, dt)
      this.#moveWalls(t0 + 0.5 * dt)
      this.#interact(t0 + 0.5 * dt)
      runner.run(PHASE.correct, dt)
    } else {
      runner.run(PHASE.rungeKutta1, dt)
      this.#moveWalls(t0 + 0.5 * dt)
      this.#interact(t0 + 0.5 * dt)
      runner.run(PHASE.rungeKutta2, dt)
      this.#interact(t0 + 0.5 * dt)
      runner.run(PHASE.rungeKutta3, dt)
      this.#moveWalls(t0 + dt)
      this.#interact(t0 + dt)
      runner.run(PHASE.rungeKutta4, dt)
    }
    if (heat) runner.run(PHASE.heatUpdate, dt)
    this.#timeS = t0 + dt
    this.#step++
    this.#lastDtS = dt
    this.#moveWalls(this.#timeS)
    finishStep(this.#stepEnd, this.#count, dt)
    return this.#report()
  }

  report(): SolverStepReport {
    return this.#report()
  }

  #report(): SolverStepReport {
    return {
      step: this.#step,
      timeS: this.#timeS,
      dtS: this.#lastDtS,
      particleCount: this.#count - (this.#images?.count ?? 0),
      fluidCount: this.#fluidCount,
      deletedOutside: this.#deletedOutside,
      deletedInvalid: this.#deletedInvalid,
      interactions: this.#interactions,
      ...(this.#open ? { openBoundary: this.#open.report() } : {}),
    }
  }

  runUntil(timeS: number, hooks: RunHooks = {}): SolverStepReport {
    let report = this.#report()
    // a remainder below 1e-9 of a step is rounding, not a step to take
    while (timeS - this.#timeS > 1e-9 * Math.max(this.#lastDtS, 1e-12)) {
      report = this.step(timeS - this.#timeS)
      hooks.onStep?.(report)
      if (hooks.shouldStop?.()) break
    }
    return report
  }

  snapshot(): SolverSnapshot {
    // pressures of the current densities (the last pass saw the half-step state)
    this.#runner.run(PHASE.pressures)
    const at = { timeS: this.#timeS, step: this.#step, partIds: this.#partIds }
    const snapshot = runSnapshot(this.#arrays, this.#count, this.#open, this.#images, {
      ...at,
      materialIds: this.#materialIds,
    })
    return withHeatFields(this.#arrays, this.#constants, snapshot)
  }

  #fingerprint(): Record<string, number> {
    return solverFingerprint(this.#constants, this.#arrays.capacity, this.#partIds.length)
  }

  checkpoint(): Uint8Array {
    const header: CheckpointHeader = {
      count: this.#count,
      timeS: this.#timeS,
      step: this.#step,
      fixedDtS: this.#fixedDtS,
      deletedOutside: this.#deletedOutside,
      deletedInvalid: this.#deletedInvalid,
      fingerprint: this.#fingerprint(),
      referenceBox: structuredClone(this.#referenceBox),
    }
    return encodeCheckpoint(header, this.#arrays)
  }

  restore(bytes: Uint8Array): void {
    const header = decodeCheckpointHeader(bytes)
    checkFingerprint(header, this.#fingerprint(), this.#arrays.capacity)
    decodeCheckpointArrays(bytes, header, this.#arrays)
    this.#count = header.count
    this.#timeS = header.timeS
    this.#step = header.step
    this.#fixedDtS = header.fixedDtS
    this.#deletedOutside = header.deletedOutside
    this.#deletedInvalid = header.deletedInvalid
    this.#referenceBox = header.referenceBox
    if (this.#deletionBox) this.#deletionBox = header.referenceBox
    this.#lastDtS = 0
    this.#fluidCount = this.#countFluid()
    // the sort is stable, so sorting the restored order again leaves the next step unchanged
    this.#sortParticles()
    this.#moveWalls(this.#timeS)
  }

  measureInteractionPass(kind: 'forces' | 'reference', passes: number): PassMeasurement {
    this.#sortParticles()
    this.#moveWalls(this.#timeS)
    const k = this.#constants
    const images = this.#images
    const step = {
      airDragAtS: k.airDrag ? this.#timeS : null,
      afterWalls: images && (() => images.refreshWalls(this.#constants.riemannWall > 0)),
    }
    return measurePasses(this.#runner, this.#boundary, kind, passes, this.#passStats, k, step)
  }

  workSplit(): WorkSplitReport {
    return this.#runner.workSplitReport()
  }

  async dispose(): Promise<void> {
    await this.#runner.dispose()
  }
}
