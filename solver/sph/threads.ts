/**
 * Fork–join over worker threads for the interaction passes. The calling thread posts a phase
 * through an Atomics sequence counter, runs its own share (range 0), and waits on a done counter;
 * each worker runs the range of its slot (phases.ts). Ranges are contiguous cells, split per
 * phase by what the phase's loop costs (workSplit.ts): the split is made again after every sort.
 */
import { Worker } from 'node:worker_threads'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SphConstants } from './config.ts'
import type { WorkSplitReport } from './solverTypes.ts'
import { BOUNDARY_CODE } from './config.ts'
import type { GridBuffers, ParallelSort } from './grid.ts'
import { blockCellsLength, sortBlockLength } from './cellKeys.ts'
import { GRID_PARAM, viewGrid } from './grid.ts'
import type { Split } from './workSplit.ts'
import {
  BLOCK_CELLS,
  maxOverMean,
  SPLIT,
  SPLIT_COUNT,
  splitByPrefix,
  splitByWork,
  WORK,
  WORK_STRIDE,
} from './workSplit.ts'
import type { InteractionContext } from './interactions.ts'
import { createInteractionContext, STAT_STRIDE } from './interactions.ts'
import type { ParticleBuffers } from './particles.ts'
import { viewParticleArrays } from './particles.ts'
import type { ChunkSchedule, Phase, PhaseWorkerData } from './phases.ts'
import {
  chunkOffset,
  chunksLength,
  CHUNKS_PER_THREAD,
  CONTROL,
  CONTROL_LENGTH,
  PARAM,
  PARAM_LENGTH,
  PHASE,
  runPhaseRange,
} from './phases.ts'
import { setSortBuffers, sortBuffersOf } from './threadBuffers.ts'
import { profilePhase } from './phaseProfile.ts'
import { permuteScratchBytes, viewPermuteScratch } from './permute.ts'

export { PHASE, servePhases } from './phases.ts'
export { addProfile, phaseProfile, resetPhaseProfile } from './phaseProfile.ts'
export type { ProfileEntry } from './phaseProfile.ts'
export type { Phase, PhaseWorkerData } from './phases.ts'

/** The splits that are the whole grid on one thread (a constant: no allocation per sort). */
const WHOLE_SPLITS = [SPLIT.forces, SPLIT.walls, SPLIT.measure] as const

/** Sorts between two estimates of the per-block work on an unchanged grid (see partition()). */
const REMEASURE_SORTS = 8
/** The grid parameters that fix which cells a block holds. */
const GRID_KEY = [
  GRID_PARAM.originX,
  GRID_PARAM.originY,
  GRID_PARAM.originZ,
  GRID_PARAM.cellSize,
  GRID_PARAM.nx,
  GRID_PARAM.ny,
  GRID_PARAM.nz,
] as const

const workerUrl = new URL('./phaseWorker.ts', import.meta.url).href

/** URL of tsx's ESM API (its package exports map, condition "import"). */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>
  }
  const entry = manifest.exports['./esm/api']?.import.default
  if (!entry) throw new Error('tsx/esm/api is not exported by the installed tsx.')
  return pathToFileURL(join(dirname(manifestPath), entry)).href
}

/**
 * Worker threads load TypeScript through tsx's loader, registered inside the worker before the
 * entry is imported (passing --import in execArgv does not reach a worker's entry on Node 20).
 */
function startWorker(data: PhaseWorkerData): Promise<Worker> {
  const boot = `import(${JSON.stringify(tsxEsmApiUrl())})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}) })
  .then((entry) => entry.startPhaseWorker())
  .catch((error) => { console.error(error); process.exit(1) })`
  const worker = new Worker(boot, { eval: true, workerData: data })
  return new Promise((resolve, reject) => {
    worker.on('error', (error) => console.error('SPH worker thread error', error))
    worker.once('message', (message) => {
      if (message !== 'ready') {
        reject(new Error(`Unexpected worker message ${String(message)}`))
        return
      }
      // used synchronously through Atomics only: a forgotten dispose() must not keep a process alive
      worker.unref()
      resolve(worker)
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`Worker exited with code ${code}`)))
  })
}

/** The phases of a step, run on `threads` threads (the caller included). */
export class PhaseRunner {
  #ctx: InteractionContext
  #control: Int32Array
  #params: Float64Array
  #ranges: Int32Array
  #schedule: ChunkSchedule
  #workers: Worker[]
  #threads: number
  /** The grid parameters (GRID_KEY) of the last work estimate, and sorts since it was made. */
  #gridKey = new Float64Array(GRID_KEY.length).fill(NaN)
  #sortsSinceMeasure = 0

  private constructor(
    ctx: InteractionContext,
    control: Int32Array,
    params: Float64Array,
    ranges: Int32Array,
    chunks: Int32Array,
    workers: Worker[],
  ) {
    this.#ctx = ctx
    this.#control = control
    this.#params = params
    this.#ranges = ranges
    this.#schedule = { control, chunks }
    this.#workers = workers
    this.#threads = workers.length + 1
  }

  static async start(input: {
    threads: number
    particles: ParticleBuffers
    grid: GridBuffers
    constants: SphConstants
  }): Promise<PhaseRunner> {
    const control = new SharedArrayBuffer(CONTROL_LENGTH * 4)
    const params = new SharedArrayBuffer(PARAM_LENGTH * 8)
    const ranges = new SharedArrayBuffer(SPLIT_COUNT * (input.threads + 1) * 4)
    const stats = new SharedArrayBuffer(input.threads * STAT_STRIDE * 8)
    const permutation = new SharedArrayBuffer(Math.max(input.particles.capacity, 1) * 4)
    const permuteScratch = new SharedArrayBuffer(
      permuteScratchBytes(input.particles.capacity, input.threads),
    )
    const sortBlock = new SharedArrayBuffer(sortBlockLength(input.threads) * 8)
    const sortCursor = new SharedArrayBuffer((input.grid.maxCells + 2) * 4)
    const blockCells = new SharedArrayBuffer(blockCellsLength(input.particles.capacity) * 4)
    const chunks = new SharedArrayBuffer(chunksLength(input.threads) * 4)
    const ctx = createInteractionContext(
      viewParticleArrays(input.particles),
      viewGrid(input.grid),
      input.constants,
      new Float64Array(stats),
    )
    setSortBuffers(ctx, {
      block: new Float64Array(sortBlock),
      cursor: new Int32Array(sortCursor),
      blockCells: new Int32Array(blockCells),
      permutation: new Int32Array(permutation),
      scratch: viewPermuteScratch(permuteScratch, input.particles.capacity, input.threads),
    })
    const started = await Promise.allSettled(
      Array.from({ length: input.threads - 1 }, (_, k) =>
        startWorker({
          slot: k + 1,
          threads: input.threads,
          particles: input.particles,
          grid: input.grid,
          control,
          params,
          ranges,
          permutation,
          permuteScratch,
          sortBlock,
          sortCursor,
          blockCells,
          chunks,
          stats,
          constants: input.constants,
        }),
      ),
    )
    const workers = started.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    )
    const failure = started.find((result) => result.status === 'rejected')
    if (failure) {
      await Promise.all(workers.map((worker) => worker.terminate()))
      throw failure.reason
    }
    return new PhaseRunner(
      ctx,
      new Int32Array(control),
      new Float64Array(params),
      new Int32Array(ranges),
      new Int32Array(chunks),
      workers,
    )
  }

  /**
   * What a CellSorter runs on these threads: its per-particle loops, its counting sort and its
   * permutation.
   */
  parallelSort(): ParallelSort {
    const { block, cursor, permutation } = sortBuffersOf(this.#ctx)
    return {
      threads: this.#threads,
      block,
      bounds: (count) => this.run(PHASE.sortBounds, count),
      keys: (count) => this.run(PHASE.sortKeys, count),
      count: () => this.run(PHASE.sortCount),
      scatter: () => this.run(PHASE.sortScatter),
      cursor,
      permutation,
      permute: (stage) => this.run(PHASE.permute, stage),
    }
  }

  /** The shared permutation buffer a CellSorter writes for PHASE.permute. */
  permutation(): Int32Array {
    return sortBuffersOf(this.#ctx).permutation
  }

  threadCount(): number {
    return this.#threads
  }

  /** Per-thread stats of the last force or reference pass. */
  stats(): Float64Array {
    return this.#ctx.stats
  }

  /**
   * Splits the current grid's cells over the threads, each phase by its own cost (workSplit.ts):
   * particle and fluid counts from the sort's prefix sums, the forces and walls splits from a
   * parallel estimate of their pair work.
   */
  partition(): void {
    const grid = this.#ctx.grid
    const cellCount = grid.params[GRID_PARAM.cellCount]!
    const threads = this.#threads
    const stride = threads + 1
    const ranges = this.#ranges
    const dynamicWalls = this.#ctx.constants.boundaryCode === BOUNDARY_CODE.dynamic
    const particles = SPLIT.particles * stride
    splitByPrefix(grid.cellStart, cellCount, threads, ranges, particles)
    if (!dynamicWalls)
      splitByPrefix(grid.fluidBefore, cellCount, threads, ranges, SPLIT.fluid * stride)
    if (threads === 1) {
      for (const split of WHOLE_SPLITS) {
        ranges[split * stride] = 0
        ranges[split * stride + 1] = cellCount
      }
      return
    }
    // the estimate is made again every REMEASURE_SORTS sorts, or at once when the grid changed
    // shape (its blocks would be other cells): particles move under 0.02 h per step
    const p = grid.params
    const key = this.#gridKey
    let same = this.#sortsSinceMeasure < REMEASURE_SORTS - 1
    for (let k = 0; k < GRID_KEY.length; k++) {
      const value = p[GRID_KEY[k]!]!
      if (key[k] !== value) same = false
      key[k] = value
    }
    if (same) {
      this.#sortsSinceMeasure++
      return
    }
    this.#sortsSinceMeasure = 0
    const measure = SPLIT.measure * stride
    // counting pairs costs per fluid particle (dynamic walls: the fluid split is the particles')
    const fluid = (dynamicWalls ? SPLIT.particles : SPLIT.fluid) * stride
    for (let t = 0; t < threads; t++)
      ranges[measure + t] = ranges[fluid + t]! - (ranges[fluid + t]! % BLOCK_CELLS)
    ranges[measure + threads] = cellCount
    this.run(PHASE.measure)
    splitByWork(grid.work, WORK.forces, cellCount, threads, ranges, SPLIT.forces * stride)
    splitByWork(grid.work, WORK.walls, cellCount, threads, ranges, SPLIT.walls * stride)
    // the chunks the threads take in the chunked phases (phases.ts, runChunks)
    const chunks = this.#schedule.chunks
    const count = threads * CHUNKS_PER_THREAD
    splitByWork(
      grid.work,
      WORK.forces,
      cellCount,
      count,
      chunks,
      chunkOffset(SPLIT.forces, threads),
    )
    splitByWork(grid.work, WORK.walls, cellCount, count, chunks, chunkOffset(SPLIT.walls, threads))
  }

  /** Largest over mean estimated work of the threads in a split (1: perfect). */
  #estimatedBalance(which: number, split: Split): number {
    const work = this.#ctx.grid.work
    const stride = this.#threads + 1
    const shares: number[] = []
    for (let t = 0; t < this.#threads; t++) {
      const cellBegin = this.#ranges[split * stride + t]!
      const cellEnd = this.#ranges[split * stride + t + 1]!
      let sum = 0
      // ranges start at block starts (or at the grid's end, empty)
      if (cellEnd > cellBegin) {
        const end = Math.ceil(cellEnd / BLOCK_CELLS)
        for (let b = Math.floor(cellBegin / BLOCK_CELLS); b < end; b++)
          sum += work[WORK_STRIDE * b + which]!
      }
      shares.push(sum)
    }
    return maxOverMean(shares)
  }

  /**
   * The estimated largest over mean per-thread work of the last split, of the force pass (and
   * the loops sharing its split) and of the wall extrapolation: 1 on one thread.
   */
  balance(): { forces: number; walls: number } {
    if (this.#threads === 1) return { forces: 1, walls: 1 }
    return {
      forces: this.#estimatedBalance(WORK.forces, SPLIT.forces),
      walls: this.#estimatedBalance(WORK.walls, SPLIT.walls),
    }
  }

  /** The split's balance as the solver reports it (Solver.workSplit). */
  workSplitReport(): WorkSplitReport {
    const threads = this.#threads
    const balance = this.balance()
    return {
      threads,
      forcesMaxOverMean: balance.forces,
      wallsMaxOverMean: balance.walls,
      expectedSpeedup: threads / balance.forces,
    }
  }

  /** Runs a phase on all threads and returns when every thread has finished it. */
  run(phase: Phase, dt = 0): void {
    const started = performance.now()
    this.#params[PARAM.dt] = dt
    const control = this.#control
    const workers = this.#workers.length
    if (workers > 0) {
      Atomics.store(control, CONTROL.phase, phase)
      Atomics.store(control, CONTROL.done, 0)
      Atomics.store(control, CONTROL.cursor, 0)
      Atomics.add(control, CONTROL.sequence, 1)
      Atomics.notify(control, CONTROL.sequence)
    }
    runPhaseRange(this.#ctx, this.#ranges, this.#params, phase, 0, this.#threads, this.#schedule)
    const own = performance.now()
    if (workers > 0) {
      for (;;) {
        const done = Atomics.load(control, CONTROL.done)
        if (done >= workers) break
        Atomics.wait(control, CONTROL.done, done)
      }
      if (Atomics.load(control, CONTROL.failed) !== 0)
        throw new Error('An interaction worker thread failed (see its error output).')
    }
    profilePhase(phase, own - started, workers > 0 ? performance.now() - own : null)
  }

  async dispose(): Promise<void> {
    if (this.#workers.length === 0) return
    const control = this.#control
    Atomics.store(control, CONTROL.phase, PHASE.exit)
    Atomics.add(control, CONTROL.sequence, 1)
    Atomics.notify(control, CONTROL.sequence)
    await Promise.all(this.#workers.map((worker) => worker.terminate()))
    this.#workers = []
  }
}
