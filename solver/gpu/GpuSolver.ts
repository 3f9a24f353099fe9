/**
 * The SPH solver on WebGPU: the same config, constants, particles and checkpoints as the CPU
 * solver of solver/sph (createSolver), with the particle state resident on the GPU. A step is the
 * CPU's RK4 step (dual-step RK4 or classical, sort → interactions → four stages) run by the
 * shaders of *Shaders.ts; the time step is chosen on the GPU, and steps go in batches of up to
 * MAX_BATCH_STEPS per submission, so that the CPU reads back only a few numbers per batch (each
 * step's dt and pair count). Particles are copied back for snapshots and checkpoints only.
 *
 * WebGPU only answers asynchronously, so this solver's calls return promises (the CPU solver's
 * are synchronous); what a step reports is the CPU solver's SolverStepReport.
 */
import type { Box } from '../sph/grid.ts'
import type { SolverConfig, SolverOptions, SphConstants } from '../sph/config.ts'
import {
  deriveConstants,
  findFluidMaterial,
  resolveBoundary,
  resolveIntegrator,
  resolveOptions,
  SHIFTING_CODE,
  SolverSetupError,
} from '../sph/config.ts'
import type { Integrator } from '../sph/config.ts'
import { prepareParticles } from '../sph/prepare.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { ParticleArrays } from '../sph/particles.ts'
import type { CheckpointHeader } from '../sph/checkpoint.ts'
import {
  checkFingerprint,
  decodeCheckpointArrays,
  decodeCheckpointHeader,
  encodeCheckpoint,
  solverFingerprint,
} from '../sph/checkpoint.ts'
import { initialTimeStep } from '../sph/timeStep.ts'
import type { RunHooks, SolverSnapshot, SolverStepReport } from '../sph/solverTypes.ts'
import type { GpuContext } from './device.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import type { GpuGrid } from './grid.ts'
import { gpuGrid } from './grid.ts'
import { GpuPasses, HISTORY_STRIDE, MAX_BATCH_STEPS } from './passes.ts'
import { buildParams, F32_MAX } from './params.ts'
import type { GpuState } from './snapshot.ts'
import { buildGpuSnapshot } from './snapshot.ts'
import { gpuFitProblem, gpuUnsupportedSettings } from './support.ts'

const FLUID = PARTICLE_KIND.fluid

/** Creates a GPU solver, or refuses (SolverSetupError) what the GPU backend does not implement. */
export async function createGpuSolver(
  config: SolverConfig,
  context?: GpuContext,
): Promise<GpuSolver> {
  const refused = gpuUnsupportedSettings(config)
  if (refused.length > 0)
    throw new SolverSetupError(`Unsupported on the GPU: ${refused.join(', ')}.`)
  const gpu = context ?? (await findGpu())
  if (!gpu) throw new SolverSetupError(`No GPU is available: ${gpuUnavailableReason() ?? ''}`)
  const options = resolveOptions(config.options)
  const material = findFluidMaterial(config)
  const constants = deriveConstants(config, options, material)
  const setup = prepareParticles(config, options, constants)
  const grid = gpuGrid(setup.referenceBox, constants.support, setup.count)
  const problem = gpuFitProblem(setup.count, grid.shape.cells, gpu.info)
  if (problem) throw new SolverSetupError(problem)
  return new GpuSolver(config, options, constants, material.id, setup, grid, gpu)
}

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
  #passes: GpuPasses
  #count: number
  #fluidCount: number
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
    this.#count = setup.count
    this.#fixedDtS = config.settings.dynamicTimeStep
      ? null
      : (options.fixedTimeStepS ?? initialTimeStep(constants, options))
    this.#passes = new GpuPasses(gpu.device, setup.arrays.capacity, grid.shape, {
      walls: resolveBoundary(config.settings, options) !== 'dynamic',
      shifting: constants.shiftingCode !== SHIFTING_CODE.zero,
    })
    this.#fluidCount = 0
    for (let i = 0; i < this.#count; i++) if (setup.arrays.kind[i] === FLUID) this.#fluidCount++
    this.#writeParams()
    this.#upload()
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
    })
    this.gpu.device.queue.writeBuffer(this.#passes.buffers.params, 0, buffer)
    this.#passes.setCount(this.#count)
  }

  /** The particle arrays (any order) into the GPU's state buffers. */
  #upload(): void {
    const a = this.#arrays
    const n = this.#count
    const posm = new Float32Array(4 * n)
    const velr = new Float32Array(4 * n)
    const info = new Uint32Array(4 * n)
    for (let i = 0; i < n; i++) {
      posm.set([a.posX[i]!, a.posY[i]!, a.posZ[i]!, a.mass[i]!], 4 * i)
      velr.set([a.velX[i]!, a.velY[i]!, a.velZ[i]!, a.rho[i]!], 4 * i)
      info.set([a.particleId[i]!, a.partIndex[i]!, a.kind[i]! | (a.noSlip[i]! << 1), 0], 4 * i)
    }
    const queue = this.gpu.device.queue
    const b = this.#passes.buffers
    queue.writeBuffer(b.posm, 0, posm)
    queue.writeBuffer(b.velr, 0, velr)
    queue.writeBuffer(b.info, 0, info)
  }

  /** The GPU's state, copied back: cell order, four lanes per particle. */
  async #readState(): Promise<GpuState> {
    const n = this.#count
    const p = this.#passes
    return {
      posm: new Float32Array(await p.read(p.buffers.posm, 16 * n)),
      velr: new Float32Array(await p.read(p.buffers.velr, 16 * n)),
      info: new Uint32Array(await p.read(p.buffers.info, 16 * n)),
      rec0: new Float32Array(await p.read(p.buffers.rec0, 16 * n)),
    }
  }

  /**
   * The GPU's state into the particle arrays at each particle's id (the order prepareParticles
   * filled them in, so fields the GPU does not carry stay with their particle).
   */
  async #download(): Promise<void> {
    const { posm, velr, info } = await this.#readState()
    const a = this.#arrays
    for (let i = 0; i < this.#count; i++) {
      const o = 4 * i
      const id = info[o]!
      a.posX[id] = a.refX[id] = posm[o]!
      a.posY[id] = a.refY[id] = posm[o + 1]!
      a.posZ[id] = a.refZ[id] = posm[o + 2]!
      a.mass[id] = posm[o + 3]!
      a.velX[id] = velr[o]!
      a.velY[id] = velr[o + 1]!
      a.velZ[id] = velr[o + 2]!
      a.rho[id] = velr[o + 3]!
      a.particleId[id] = id
      a.partIndex[id] = info[o + 1]!
      a.kind[id] = info[o + 2]! & 1
      a.noSlip[id] = (info[o + 2]! >> 1) & 1
    }
  }

  describe(): {
    name: string
    integrator: Integrator
    constants: SphConstants
    particleCount: number
    cells: number
    fixedDtS: number | null
  } {
    return {
      name: this.gpu.info.name,
      integrator: this.#integrator,
      constants: structuredClone(this.#constants),
      particleCount: this.#count,
      cells: this.grid.shape.cells,
      fixedDtS: this.#fixedDtS,
    }
  }

  report(): SolverStepReport {
    return {
      step: this.#step,
      timeS: this.#timeS,
      dtS: this.#lastDtS,
      particleCount: this.#count,
      fluidCount: this.#fluidCount,
      deletedOutside: 0,
      deletedInvalid: 0,
      interactions: this.#interactions,
    }
  }

  /**
   * Steps until the time reaches timeS exactly (the GPU shortens the last step) in batches;
   * onStep sees each step after its batch, shouldStop is checked after each batch.
   */
  async runUntil(timeS: number, hooks: RunHooks = {}): Promise<SolverStepReport> {
    while (timeS - this.#timeS > 1e-9 * Math.max(this.#lastDtS, 1e-12)) {
      const left = timeS - this.#timeS
      const steps =
        this.#lastDtS > 0
          ? Math.min(MAX_BATCH_STEPS, Math.max(1, Math.ceil(left / this.#lastDtS) + 1))
          : 1
      const reached = await this.#batch(steps, left, hooks)
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
    const steps =
      this.#lastDtS > 0
        ? Math.min(MAX_BATCH_STEPS, Math.max(1, Math.ceil(left / this.#lastDtS) + 1))
        : 1
    const reports: SolverStepReport[] = []
    const reached = await this.#batch(steps, left, { onStep: (report) => reports.push(report) })
    if (reports.length === 0)
      throw new Error(`The GPU solver took no step at ${this.#timeS} s (no positive time step).`)
    if (reached) {
      this.#timeS = timeS
      const last = reports.at(-1)
      if (last) last.timeS = timeS
    }
    return reports
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
    const control = new ArrayBuffer(16)
    new Float32Array(control).set([0, Math.min(left, F32_MAX)])
    device.queue.writeBuffer(p.buffers.control, 0, control)
    const encoder = device.createCommandEncoder()
    for (let s = 0; s < steps; s++) p.encodeStep(encoder)
    device.queue.submit([encoder.finish()])
    const history = await p.read(p.buffers.history, 4 * HISTORY_STRIDE * steps)
    const remaining = new Float32Array(await p.read(p.buffers.control, 16))[1]!
    const dts = new Float32Array(history)
    const counts = new Uint32Array(history)
    for (let s = 0; s < steps; s++) {
      const dt = dts[HISTORY_STRIDE * s]!
      if (!(dt > 0)) break
      this.#timeS += dt
      this.#step++
      this.#lastDtS = dt
      this.#interactions =
        counts[HISTORY_STRIDE * s + 1]! + counts[HISTORY_STRIDE * s + 2]! * 2 ** 32
      hooks.onStep?.(this.report())
    }
    return remaining <= 0
  }

  /**
   * The particle state ordered by particle id, with pressures: fluid from the density (Tait, in
   * double precision like the CPU's snapshot), walls the last extrapolation's.
   */
  async snapshot(): Promise<SolverSnapshot> {
    return buildGpuSnapshot(await this.#readState(), this.#count, this.#constants, {
      timeS: this.#timeS,
      step: this.#step,
      partIds: this.#partIds,
      materialId: this.#materialId,
    })
  }

  #fingerprint(): Record<string, number> {
    return solverFingerprint(this.#constants, this.#arrays.capacity, this.#partIds.length)
  }

  /** The CPU solver's checkpoint format: either backend resumes from the other's. */
  async checkpoint(): Promise<Uint8Array> {
    await this.#download()
    const header: CheckpointHeader = {
      count: this.#count,
      timeS: this.#timeS,
      step: this.#step,
      fixedDtS: this.#fixedDtS,
      deletedOutside: 0,
      deletedInvalid: 0,
      fingerprint: this.#fingerprint(),
      referenceBox: structuredClone(this.#referenceBox),
    }
    return encodeCheckpoint(header, this.#arrays)
  }

  restore(bytes: Uint8Array): void {
    const header = decodeCheckpointHeader(bytes)
    checkFingerprint(header, this.#fingerprint(), this.#arrays.capacity)
    if (header.deletedOutside + header.deletedInvalid > 0 || header.count !== this.#count)
      throw new SolverSetupError('The GPU solver cannot resume a run that deleted particles.')
    decodeCheckpointArrays(bytes, header, this.#arrays)
    this.#timeS = header.timeS
    this.#step = header.step
    this.#fixedDtS = header.fixedDtS
    this.#lastDtS = 0
    this.#writeParams()
    this.#upload()
  }

  /**
   * For tests and the bench: sorts, runs one interaction (pressures, walls, forces) at the
   * current state and reads each particle's derivatives back, ordered by particle id: (ax, ay,
   * az, dρ/dt) × count. With `extraPasses`, that many more force passes run after it, timed, and
   * the pair interactions of one pass are counted.
   */
  async forcePass(
    extraPasses = 0,
  ): Promise<{ derivatives: Float32Array; seconds: number; interactionsPerPass: number }> {
    const device = this.gpu.device
    const p = this.#passes
    let encoder = device.createCommandEncoder()
    p.encodeSort(encoder)
    encoder.clearBuffer(p.buffers.stats)
    const pass = encoder.beginComputePass()
    p.encodeInteract(pass)
    pass.end()
    device.queue.submit([encoder.finish()])
    const stats = new Uint32Array(await p.read(p.buffers.stats, 16))
    const interactionsPerPass = stats[2]! + stats[3]! * 2 ** 32
    const started = performance.now()
    if (extraPasses > 0) {
      encoder = device.createCommandEncoder()
      p.encodeForcesOnly(encoder, extraPasses)
      device.queue.submit([encoder.finish()])
      await device.queue.onSubmittedWorkDone()
    }
    const seconds = (performance.now() - started) / 1000
    encoder = device.createCommandEncoder()
    encoder.clearBuffer(p.buffers.stats)
    device.queue.submit([encoder.finish()])
    const n = this.#count
    const acc = new Float32Array(await p.read(p.buffers.acc, 16 * n))
    const info = new Uint32Array(await p.read(p.buffers.info, 16 * n))
    const derivatives = new Float32Array(4 * n)
    for (let i = 0; i < n; i++) derivatives.set(acc.subarray(4 * i, 4 * i + 4), 4 * info[4 * i]!)
    return { derivatives, seconds, interactionsPerPass }
  }

  /** Times `steps` full steps (at most MAX_BATCH_STEPS) in one submission; the state advances. */
  async timeSteps(steps: number): Promise<number> {
    const started = performance.now()
    await this.#batch(Math.min(steps, MAX_BATCH_STEPS), F32_MAX, {})
    return (performance.now() - started) / 1000
  }

  dispose(): Promise<void> {
    this.#passes.destroy()
    return Promise.resolve()
  }
}
