/**
 * The SPH solver on WebGPU: the same config, constants, particles and checkpoints as the CPU
 * solver of solver/sph (createSolver), with the particle state resident on the GPU. A step is the
 * CPU's (sort → interactions → the Symplectic scheme's or RK4's stages) run by the shaders of
 * *Shaders.ts; the time step is chosen on the GPU, and steps go in batches of up to
 * MAX_BATCH_STEPS per submission, so that the CPU reads back only a few numbers per batch (each
 * step's dt and pair count). Particles are copied back for snapshots and checkpoints only.
 *
 * WebGPU only answers asynchronously, so this solver's calls return promises (the CPU solver's
 * are synchronous); what a step reports is the CPU solver's SolverStepReport.
 */
import type { Box } from '../sph/grid.ts'
import type { SolverConfig, SolverOptions, SphConstants } from '../sph/config.ts'
import { resolveBoundary, resolveIntegrator, SHIFTING_CODE } from '../sph/config.ts'
import type { Integrator } from '../sph/config.ts'
import type { ParticleArrays } from '../sph/particles.ts'
import {
  checkFingerprint,
  decodeCheckpointArrays,
  decodeCheckpointHeader,
  solverFingerprint,
} from '../sph/checkpoint.ts'
import { initialTimeStep } from '../sph/timeStep.ts'
import type { RunHooks, SolverSnapshot, SolverStepReport } from '../sph/solverTypes.ts'
import type { GpuContext } from './device.ts'
import type { GpuGrid } from './grid.ts'
import { GpuPasses, HISTORY_STRIDE, MAX_BATCH_STEPS } from './passes.ts'
import { buildParams, F32_MAX, type GpuSolverDescription } from './params.ts'
import { addImageTurns } from './rotationalSlice.ts'
import { packParticles, writePacked } from './hostState.ts'
import { captureState, type GpuCapture, StateReadback } from './capture.ts'
import { type ForcePassMeasurement, measureForcePass } from './measure.ts'
import { decodeHistory } from './history.ts'
import { GpuWallMotion } from './wallMotion.ts'
import { type GpuProbeReader, GpuProbes, hostProbe } from './probes.ts'
import { passFeatures } from './support.ts'
import { type GpuThermal, gpuThermal } from './thermal.ts'
import { GpuOpenBoundaries } from './openBoundaries.ts'
import type { prepareParticles } from '../sph/prepare.ts'

export { createGpuSolver } from './createGpuSolver.ts'

export class GpuSolver {
  readonly gpu: GpuContext
  readonly grid: GpuGrid
  #options: SolverOptions
  #integrator: Integrator
  #constants: SphConstants
  #materialId: number
  #arrays: ParticleArrays
  #partIds: number[]
  #referenceBox: Box
  /** Fluid outside it is deleted (calcDomainActive: the reference box), or null. */
  #deletionBox: Box | null
  /** The rotational periodic boundary's slice (rotationalSlice.ts), if any. */
  #slice: SolverConfig['rotationalPeriodic']
  #passes: GpuPasses
  /** Staging buffers for the copies of the state (outputs, checkpoints). */
  #readback: StateReadback
  /** Moving parts (config.wallMotion): wall particles keep their rest position on the host. */
  #moving: boolean
  /** Moving parts: the part maps and the steps in two halves (wallMotion.ts). */
  #motion: GpuWallMotion | null
  /** Heat conduction and the viscosity models (thermal.ts). */
  #thermal: GpuThermal
  /** Inlets and outlets (openBoundaries.ts), or null. */
  #open: GpuOpenBoundaries | null
  /** Particles in the host arrays (the upload's source, a download's result). */
  #hostCount: number
  /** Index in the host arrays of each particle id there (-1: none). */
  #hostIndex: Int32Array
  /** Particles uploaded: the GPU's buffers hold these, the deleted ones flagged after the rest. */
  #count = 0
  /** Fluid particles uploaded. */
  #fluidCount = 0
  /** Particles deleted before the upload (a checkpoint's, the upload's own). */
  #deletedBefore = { outside: 0, invalid: 0 }
  /** Particles the GPU deleted since the upload (the last batch's history). */
  #deleted = { outside: 0, invalid: 0, fluid: 0 }
  #fixedDtS: number | null
  #timeS = 0
  #step = 0
  #lastDtS = 0
  #interactions = 0

  constructor(
    config: SolverConfig,
    options: SolverOptions,
    constants: SphConstants,
    materialId: number,
    setup: ReturnType<typeof prepareParticles>,
    grid: GpuGrid,
    gpu: GpuContext,
  ) {
    this.gpu = gpu
    this.grid = grid
    this.#options = options
    this.#integrator = resolveIntegrator(config.settings, options)
    this.#constants = constants
    this.#materialId = materialId
    this.#arrays = setup.arrays
    this.#partIds = setup.partIds
    this.#referenceBox = setup.referenceBox
    this.#deletionBox = config.settings.calcDomainActive ? setup.referenceBox : null
    this.#slice = config.rotationalPeriodic
    this.#moving = config.wallMotion !== undefined
    this.#hostCount = setup.count
    this.#hostIndex = new Int32Array(Math.max(setup.arrays.capacity, 1)).fill(-1)
    for (let i = 0; i < setup.count; i++) this.#hostIndex[setup.arrays.particleId[i]!] = i
    this.#fixedDtS = config.settings.dynamicTimeStep
      ? null
      : (options.fixedTimeStepS ?? initialTimeStep(constants, options))
    this.#thermal = gpuThermal(constants, setup.arrays, setup.count)
    this.#passes = new GpuPasses(gpu.device, setup.arrays.capacity, grid.shape, {
      dynamic: resolveBoundary(config.settings, options) === 'dynamic',
      symplectic: this.#integrator === 'symplectic',
      shifting: constants.shiftingCode !== SHIFTING_CODE.zero,
      moving: this.#moving,
      parts: setup.partIds.length,
      thermal: this.#thermal,
      ...passFeatures(constants),
    })
    const zones = config.openBoundaries ?? []
    const b = this.#passes.buffers
    this.#open = zones.length
      ? new GpuOpenBoundaries(gpu.device, b, zones, setup, constants, this.#thermal.on)
      : null
    this.#passes.open = this.#open
    this.#readback = new StateReadback(gpu.device, this.#passes.buffers, this.#thermal.on)
    this.#motion = config.wallMotion
      ? new GpuWallMotion(gpu.device, this.#passes, setup.partIds, config.wallMotion)
      : null
    this.#upload()
    this.#writeParams()
    this.#motion?.place(this.#timeS)
  }

  /** The uniform block (see PARAMS in shaderCommon.ts). */
  #writeParams(): void {
    const buffer = buildParams({
      constants: this.#constants,
      grid: this.grid,
      count: this.#count,
      integrator: this.#integrator,
      cfl: this.#options.cfl,
      fixedDtS: this.#fixedDtS,
      deletionBox: this.#deletionBox,
      referenceT: this.#thermal.referenceT,
      tableRows: this.#thermal.tableRows,
      slice: this.#slice,
    })
    this.gpu.device.queue.writeBuffer(this.#passes.buffers.params, 0, buffer)
    this.#passes.setCount(this.#count)
  }

  /**
   * The host arrays into the GPU's state buffers, the deletion counters reset; what the CPU's
   * sort would delete now is left out and counted (packParticles).
   */
  #upload(): void {
    const referenceT = this.#thermal.on ? this.#thermal.referenceT : null
    let packed = packParticles(this.#arrays, this.#hostCount, this.#deletionBox, referenceT)
    const { capacity } = this.#arrays
    if (this.#open)
      packed = this.#open.withUnusedSlots(packed, capacity, this.grid.shape.cells, this.#hostIndex)
    if (this.#slice) addImageTurns(packed, this.#slice, this.#constants.support)
    this.#deletedBefore.invalid += packed.invalid
    this.#deletedBefore.outside += packed.outside
    this.#count = packed.kept
    this.#fluidCount = packed.fluid
    this.#deleted = { outside: 0, invalid: 0, fluid: 0 }
    writePacked(this.gpu.device.queue, this.#passes.buffers, packed, this.#moving)
  }

  describe(): GpuSolverDescription {
    return {
      name: this.gpu.info.name,
      integrator: this.#integrator,
      constants: structuredClone(this.#constants),
      particleCount: this.#kept(),
      cells: this.grid.shape.cells,
      fixedDtS: this.#fixedDtS,
    }
  }

  /** Particles kept: uploaded, less those the GPU deleted since. */
  #kept(): number {
    return (
      this.#count - this.#deleted.outside - this.#deleted.invalid + (this.#open?.liveOffset() ?? 0)
    )
  }

  report(): SolverStepReport {
    return {
      step: this.#step,
      timeS: this.#timeS,
      dtS: this.#lastDtS,
      particleCount: this.#kept(),
      fluidCount: this.#fluidCount - this.#deleted.fluid + (this.#open?.injected() ?? 0),
      deletedOutside: this.#deletedBefore.outside + this.#deleted.outside,
      deletedInvalid: this.#deletedBefore.invalid + this.#deleted.invalid,
      interactions: this.#interactions,
      ...(this.#open ? { openBoundary: this.#open.report() } : {}),
    }
  }

  /**
   * Steps until the time reaches timeS exactly (the GPU shortens the last step) in batches;
   * onStep sees each step after its batch, shouldStop is checked after each batch.
   */
  async runUntil(timeS: number, hooks: RunHooks = {}): Promise<SolverStepReport> {
    while (timeS - this.#timeS > 1e-9 * Math.max(this.#lastDtS, 1e-12)) {
      const left = timeS - this.#timeS
      const reached = await this.#batch(this.#batchSteps(left), left, hooks)
      if (reached) this.#timeS = timeS
      if (hooks.shouldStop?.()) break
    }
    return this.report()
  }

  /**
   * One batch of steps towards timeS (enough to reach it at the last step's dt, at most
   * MAX_BATCH_STEPS), none past it: the report of each step taken, in order. The run loop's call.
   */
  async advance(timeS: number): Promise<SolverStepReport[]> {
    const left = timeS - this.#timeS
    if (!(left > 0)) throw new RangeError(`The target time must lie ahead, got ${timeS} s.`)
    const reports: SolverStepReport[] = []
    const reached = await this.#batch(this.#batchSteps(left), left, {
      onStep: (report) => reports.push(report),
    })
    if (reports.length === 0)
      throw new Error(`The GPU solver took no step at ${this.#timeS} s (no positive time step).`)
    if (reached) {
      this.#timeS = timeS
      const last = reports.at(-1)
      if (last) last.timeS = timeS
    }
    return reports
  }

  /** Steps enough to cover `left` seconds at the last step's dt, at most MAX_BATCH_STEPS. */
  #batchSteps(left: number): number {
    if (!(this.#lastDtS > 0)) return 1
    return Math.min(MAX_BATCH_STEPS, Math.max(1, Math.ceil(left / this.#lastDtS) + 1))
  }

  /** The run's sensor points (x, y, z each), probed after every step from now on (probes.ts). */
  attachProbes(points: Float64Array): GpuProbeReader {
    const mass = this.#constants.particleMass
    const probes = new GpuProbes(this.gpu.device, this.#passes.buffers, points, mass)
    this.#passes.probes?.destroy()
    this.#passes.probes = probes
    const images = { periodY: this.grid.periodY, slice: this.#slice }
    return {
      read: (steps) => probes.read(steps),
      start: (at, out) =>
        hostProbe(this.#arrays, this.#hostCount, this.#constants, at, out, images),
    }
  }

  /** One step of at most maxDtS. */
  async step(maxDtS = Infinity): Promise<SolverStepReport> {
    if (!(maxDtS > 0)) throw new RangeError(`maxDtS must be positive, got ${maxDtS}.`)
    await this.#batch(1, maxDtS, {})
    return this.report()
  }

  /** `steps` steps in one submission, none past `left` seconds; true when they reached it. */
  async #batch(steps: number, left: number, hooks: RunHooks): Promise<boolean> {
    const device = this.gpu.device
    const p = this.#passes
    p.startBatch(Math.min(left, F32_MAX), this.#timeS)
    if (this.#motion) await this.#motion.steps(steps, this.#timeS)
    else {
      const encoder = device.createCommandEncoder()
      for (let s = 0; s < steps; s++) p.encodeStep(encoder)
      device.queue.submit([encoder.finish()])
    }
    const history = await p.read(p.buffers.history, 4 * HISTORY_STRIDE * steps)
    const remaining = new Float32Array(await p.read(p.buffers.control, 16))[1]!
    const open = (await this.#open?.read(steps)) ?? []
    for (const [s, record] of decodeHistory(history, steps).entries()) {
      if (open[s]) this.#open!.select(open[s])
      this.#timeS += record.dtS
      this.#step++
      this.#lastDtS = record.dtS
      this.#interactions = record.interactions
      this.#deleted = record.deleted
      hooks.onStep?.(this.report())
    }
    return remaining <= 0
  }

  /**
   * The state of now for an output and its checkpoint (capture.ts): the GPU copies it at once, the
   * steps may go on, and `snapshot()` and `checkpoint()` answer this moment's state whenever
   * they are awaited. Release it once read (its staging buffers serve the next capture).
   */
  capture(): GpuCapture {
    return captureState(this.#readback.copy(this.#count), {
      count: this.#count,
      report: this.report(),
      constants: this.#constants,
      partIds: this.#partIds,
      materialId: this.#materialId,
      fixedDtS: this.#fixedDtS,
      fingerprint: this.#fingerprint(),
      referenceBox: structuredClone(this.#referenceBox),
      // the host arrays of the last upload: restore() replaces the index, never edits it
      host: {
        arrays: this.#arrays,
        indexOfId: this.#hostIndex,
        moving: this.#moving,
        referenceT: this.#thermal.conduction ? this.#thermal.referenceT : null,
      },
    })
  }

  /** The particle state ordered by particle id, with pressures (snapshot.ts buildGpuSnapshot). */
  snapshot(): Promise<SolverSnapshot> {
    return this.#captured((capture) => capture.snapshot())
  }

  /** The CPU solver's checkpoint format: either backend resumes from the other's. */
  checkpoint(): Promise<Uint8Array> {
    return this.#captured((capture) => capture.checkpoint())
  }

  /** What `read` makes of a capture of now, the capture released after. */
  async #captured<T>(read: (capture: GpuCapture) => Promise<T>): Promise<T> {
    const capture = this.capture()
    try {
      return await read(capture)
    } finally {
      capture.release()
    }
  }

  #fingerprint(): Record<string, number> {
    return solverFingerprint(this.#constants, this.#arrays.capacity, this.#partIds.length)
  }

  restore(bytes: Uint8Array): void {
    const header = decodeCheckpointHeader(bytes)
    checkFingerprint(header, this.#fingerprint(), this.#arrays.capacity)
    decodeCheckpointArrays(bytes, header, this.#arrays)
    this.#hostCount = header.count
    this.#hostIndex = new Int32Array(this.#hostIndex.length).fill(-1)
    for (let i = 0; i < header.count; i++) this.#hostIndex[this.#arrays.particleId[i]!] = i
    this.#timeS = header.timeS
    this.#step = header.step
    this.#fixedDtS = header.fixedDtS
    this.#deletedBefore = { outside: header.deletedOutside, invalid: header.deletedInvalid }
    this.#referenceBox = header.referenceBox
    if (this.#deletionBox) this.#deletionBox = header.referenceBox
    this.#lastDtS = 0
    this.#upload()
    this.#writeParams()
    this.#motion?.place(this.#timeS)
  }

  /** For tests and the bench: one force pass measured (measure.ts measureForcePass). */
  forcePass(extraPasses = 0): Promise<ForcePassMeasurement> {
    this.#motion?.place(this.#timeS)
    this.#passes.setClock(this.#timeS)
    return measureForcePass(this.gpu.device, this.#passes, {
      count: this.#count,
      capacity: this.#arrays.capacity,
      extraPasses,
      thermal: this.#thermal.on,
    })
  }

  /** Times `steps` full steps (at most MAX_BATCH_STEPS) in one submission; the state advances. */
  async timeSteps(steps: number): Promise<number> {
    const started = performance.now()
    await this.#batch(Math.min(steps, MAX_BATCH_STEPS), F32_MAX, {})
    return (performance.now() - started) / 1000
  }

  dispose(): Promise<void> {
    this.#readback.destroy()
    this.#passes.destroy()
    return Promise.resolve()
  }
}
