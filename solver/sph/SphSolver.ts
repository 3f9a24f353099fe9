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
  SHIFTING_CODE,
  SolverSetupError,
} from './config.ts'
import { unsupportedSettings } from './support.ts'
import { STAT, STAT_STRIDE } from './interactions.ts'
import type { RigidTransform, WallMotion } from './motion.ts'
import { identityTransform, MOTION_DIFFERENCE_S, poseToTransform } from './motion.ts'
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { PreparedParticles } from './prepare.ts'
import { prepareParticles } from './prepare.ts'
import { addProfile, PHASE, PhaseRunner } from './threads.ts'
import { placeWalls } from './wallPlacement.ts'
import { setSolverInternals } from './solverInternals.ts'
import { buildSnapshot } from './snapshot.ts'
import { withHeatFields } from './heat.ts'
import type { TimeStepLimits } from './timeStep.ts'
import { initialTimeStep, variableTimeStep } from './timeStep.ts'
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

export type {
  PassMeasurement,
  RunHooks,
  Solver,
  SolverDescription,
  SolverSnapshot,
  SolverStepReport,
  WorkSplitReport,
} from './solverTypes.ts'

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
  #wallMotion: WallMotion | undefined
  #count: number
  #fluidCount = 0
  #wallsAtRest = false
  /** Every part was at rest at the last placeWalls (a sort since then only lost accelerations). */
  #wallsPlacedAtRest = false
  #timeS = 0
  #step = 0
  #deletedOutside = 0
  #deletedInvalid = 0
  #fixedDtS: number | null
  #lastDtS = 0
  #interactions = 0
  #maxAcceleration2 = 0
  #maxViscous = 0
  /** The last variable step's limits (which one chose dt goes to the profile). */
  #limits: TimeStepLimits = { force: 0, acoustic: 0, viscous: 0 }
  /** Per part: the geometry transform at t and the velocity transforms at t − ε, t, t + ε. */
  #transforms: RigidTransform[][]
  #partMoving: Uint8Array

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
    // a sort's permutation is applied by all threads, fields dealt to them
    this.#sorter = new CellSorter(setup.arrays, setup.grid, {
      permutation: runner.permutation(),
      permute: (kept) => runner.run(PHASE.permute, kept),
    })
    this.#runner = runner
    this.#referenceBox = setup.referenceBox
    this.#deletionBox = config.settings.calcDomainActive ? setup.referenceBox : null
    this.#partIds = setup.partIds
    this.#wallMotion = config.wallMotion
    this.#transforms = setup.partIds.map(() => [
      identityTransform(),
      identityTransform(),
      identityTransform(),
      identityTransform(),
    ])
    this.#partMoving = new Uint8Array(setup.partIds.length)
    this.#fixedDtS = config.settings.dynamicTimeStep
      ? null
      : (options.fixedTimeStepS ?? initialTimeStep(constants, options))
    this.#fluidCount = this.#countFluid()
    setSolverInternals(this, {
      arrays: setup.arrays,
      grid: viewGrid(setup.grid),
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
    const result = this.#sorter.sort({
      count: this.#count,
      support: this.#constants.support,
      reach: this.#options.cellsPerSupport,
      referenceBox: this.#referenceBox,
      deletionBox: this.#deletionBox,
      periodicY: this.#options.periodicY,
    })
    this.#count = result.count
    this.#deletedOutside += result.deletedOutside
    this.#deletedInvalid += result.deletedInvalid
    this.#fluidCount = result.fluidCount
    // the sort does not carry wall accelerations: #moveWalls must write them again
    this.#wallsAtRest = false
    const sorted = performance.now()
    addProfile('sort', sorted - started)
    this.#runner.partition()
    addProfile('split', performance.now() - sorted)
  }

  /**
   * Places wall particles at time t and sets their velocity and acceleration. Skipped while every
   * part is at rest and the walls already are.
   */
  #moveWalls(timeS: number): void {
    const motion = this.#wallMotion
    const eps = MOTION_DIFFERENCE_S
    let anyMoving = false
    for (let p = 0; p < this.#partIds.length; p++) {
      const [geometry, before, now, after] = this.#transforms[p]!
      let moving = 0
      if (motion) {
        const id = this.#partIds[p]!
        const poses = [motion(id, timeS - eps), motion(id, timeS), motion(id, timeS + eps)]
        if (poses.some((pose) => pose !== null)) moving = 1
        poseToTransform(poses[1]!, geometry!)
        poseToTransform(poses[0]?.velocityPose ?? poses[0]!, before!)
        poseToTransform(poses[1]?.velocityPose ?? poses[1]!, now!)
        poseToTransform(poses[2]?.velocityPose ?? poses[2]!, after!)
      }
      this.#partMoving[p] = moving
      anyMoving ||= moving === 1
    }
    if (!anyMoving && this.#wallsAtRest) return
    if (!anyMoving && this.#wallsPlacedAtRest) {
      // only a sort came between: the threads put the walls back at rest (same numbers)
      this.#runner.run(PHASE.restWalls)
      this.#wallsAtRest = true
      return
    }
    this.#wallsAtRest = !anyMoving
    this.#wallsPlacedAtRest = !anyMoving
    const started = performance.now()
    placeWalls(this.#arrays, this.#count, this.#transforms, this.#partMoving)
    addProfile('placeWalls', performance.now() - started)
  }

  /** Pressures, wall extrapolation and forces at the current state. */
  #interact(): void {
    const runner = this.#runner
    runner.run(PHASE.pressures)
    if (this.#boundary !== 'dynamic') runner.run(PHASE.walls)
    if (this.#constants.heat.viscosityModel !== 0) runner.run(PHASE.viscosity)
    if (this.#constants.surfaceTension > 0) runner.run(PHASE.colour)
    runner.run(PHASE.forces)
    const stats = runner.stats()
    let maxA2 = 0
    let maxVisc = 0
    for (let t = 0; t < runner.threadCount(); t++) {
      const base = t * STAT_STRIDE
      maxA2 = Math.max(maxA2, stats[base + STAT.maxAcceleration2]!)
      maxVisc = Math.max(maxVisc, stats[base + STAT.maxViscous]!)
      this.#interactions += stats[base + STAT.interactions]!
    }
    this.#maxAcceleration2 = maxA2
    this.#maxViscous = maxVisc
  }

  #chooseDt(): number {
    if (this.#fixedDtS !== null) return this.#fixedDtS
    const limits = this.#limits
    const dt = variableTimeStep(
      this.#constants,
      this.#options,
      this.#integrator,
      { maxAcceleration: Math.sqrt(this.#maxAcceleration2), maxViscous: this.#maxViscous },
      limits,
    )
    addProfile(
      limits.acoustic <= limits.force && limits.acoustic <= limits.viscous
        ? 'dt.acoustic'
        : limits.force <= limits.viscous
          ? 'dt.force'
          : 'dt.viscous',
      0,
    )
    return dt
  }

  step(maxDtS = Infinity): SolverStepReport {
    if (!(maxDtS > 0)) throw new RangeError(`maxDtS must be positive, got ${maxDtS}.`)
    this.#interactions = 0
    const t0 = this.#timeS
    this.#sortParticles()
    this.#moveWalls(t0)
    this.#interact()
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
      this.#interact()
      runner.run(PHASE.correct, dt)
    } else {
      runner.run(PHASE.rungeKutta1, dt)
      this.#moveWalls(t0 + 0.5 * dt)
      this.#interact()
      runner.run(PHASE.rungeKutta2, dt)
      this.#interact()
      runner.run(PHASE.rungeKutta3, dt)
      this.#moveWalls(t0 + dt)
      this.#interact()
      runner.run(PHASE.rungeKutta4, dt)
    }
    if (heat) runner.run(PHASE.heatUpdate, dt)
    this.#timeS = t0 + dt
    this.#step++
    this.#lastDtS = dt
    this.#moveWalls(this.#timeS)
    if (this.#constants.shiftingCode !== SHIFTING_CODE.zero) this.#shift(dt)
    return this.#report()
  }

  /** Particle shifting after a step (see shiftParticles), scaled by the fastest fluid particle. */
  #shift(dt: number): void {
    const started = performance.now()
    const { velX, velY, velZ, kind } = this.#arrays
    let max2 = 0
    for (let i = 0; i < this.#count; i++) {
      if (kind[i] !== FLUID) continue
      const v2 = velX[i]! * velX[i]! + velY[i]! * velY[i]! + velZ[i]! * velZ[i]!
      if (v2 > max2) max2 = v2
    }
    addProfile('maxSpeed', performance.now() - started)
    if (max2 === 0) return
    this.#runner.run(PHASE.pressures)
    this.#runner.run(PHASE.shift, 4 * this.#constants.h * Math.sqrt(max2) * dt)
  }

  report(): SolverStepReport {
    return this.#report()
  }

  #report(): SolverStepReport {
    return {
      step: this.#step,
      timeS: this.#timeS,
      dtS: this.#lastDtS,
      particleCount: this.#count,
      fluidCount: this.#fluidCount,
      deletedOutside: this.#deletedOutside,
      deletedInvalid: this.#deletedInvalid,
      interactions: this.#interactions,
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
    const snapshot = buildSnapshot(this.#arrays, this.#count, {
      timeS: this.#timeS,
      step: this.#step,
      partIds: this.#partIds,
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
    const runner = this.#runner
    runner.run(PHASE.pressures)
    if (this.#boundary !== 'dynamic') runner.run(PHASE.walls)
    const phase = kind === 'forces' ? PHASE.forces : PHASE.reference
    let interactions = 0
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    for (let k = 0; k < passes; k++) {
      runner.run(phase)
      const stats = runner.stats()
      for (let t = 0; t < runner.threadCount(); t++)
        interactions += stats[t * STAT_STRIDE + STAT.interactions]!
    }
    const cpu = process.cpuUsage(cpuStarted)
    return {
      interactions,
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      threads: runner.threadCount(),
    }
  }

  workSplit(): WorkSplitReport {
    const threads = this.#runner.threadCount()
    const balance = this.#runner.balance()
    return {
      threads,
      forcesMaxOverMean: balance.forces,
      wallsMaxOverMean: balance.walls,
      expectedSpeedup: threads / balance.forces,
    }
  }

  async dispose(): Promise<void> {
    await this.#runner.dispose()
  }
}
