/**
 * The phases of a step as each thread runs them: the phase codes, which split (workSplit.ts) each
 * runs on, runPhaseRange (one thread's share of a phase) and servePhases, a worker's loop waiting
 * for phases through the control block. The calling thread's side is PhaseRunner (threads.ts).
 */
import type { SphConstants } from './config.ts'
import { BOUNDARY_CODE } from './config.ts'
import type { GridBuffers } from './grid.ts'
import { viewGrid } from './grid.ts'
import type { SortStep } from './threadBuffers.ts'
import { runSortStep, setSortBuffers } from './threadBuffers.ts'
import { computeHeat, extrapolateWallTemperatures, updateTemperatures } from './heat.ts'
import { computeViscosities } from './viscosityModels.ts'
import type { Split } from './workSplit.ts'
import { measureCellWork, SPLIT } from './workSplit.ts'
import type { InteractionContext } from './interactions.ts'
import {
  STAT,
  STAT_STRIDE,
  computeForces,
  computePressures,
  createInteractionContext,
  extrapolateWalls,
  runReferencePass,
  shiftParticles,
} from './interactions.ts'
import {
  correctSymplectic,
  predictSymplectic,
  restWalls,
  RK_STAGE,
  updateRungeKutta,
} from './integration.ts'
import { computeMultiphaseForces, computeMultiphasePressures } from './multiphase.ts'
import { computeColourGradients } from './surfaceTension.ts'
import { computeVariableForces } from './variableForces.ts'
import { extrapolateVariableWalls, shiftVariableParticles } from './variableWalls.ts'
import { applyAirDrag } from './airDrag.ts'
import type { ParticleBuffers } from './particles.ts'
import { viewParticleArrays } from './particles.ts'
import { viewPermuteScratch } from './permute.ts'

export const PHASE = {
  pressures: 1,
  walls: 2,
  forces: 3,
  reference: 4,
  predict: 5,
  correct: 6,
  rungeKutta1: 7,
  rungeKutta2: 8,
  rungeKutta3: 9,
  rungeKutta4: 10,
  shift: 11,
  /** Thermodynamics: the walls' temperatures, the fluid's dT/dt, T += dt dT/dt (heat.ts). */
  heatWalls: 30,
  heat: 31,
  heatUpdate: 32,
  /** Each fluid particle's ν of a temperature or shear-rate viscosity (viscosityModels.ts). */
  viscosity: 33,
  exit: 12,
  /** The per-block work estimate of the forces and walls splits (workSplit.ts). */
  measure: 13,
  /** Walls of parts at rest back at rest (after a sort, see restWalls). */
  restWalls: 14,
  /**
   * A stage (the phase's parameter) of applying a sort's permutation to the particle fields, each
   * thread over a range of particles (permute.ts).
   */
  permute: 15,
  /** The colour gradient of surface tension (surfaceTension.ts), before the forces. */
  colour: 16,
  /** Air drag (airDrag.ts), after the forces; the phase's parameter is the stage's time. */
  airDrag: 17,
  /** A sort's per-particle loops (cellKeys.ts) over the phase's parameter's particle count. */
  sortBounds: 18,
  sortKeys: 19,
  /** A sort's counting by cell, then its scatter, each thread over its cells (cellCount.ts). */
  sortCount: 20,
  sortScatter: 21,
} as const
export type Phase = (typeof PHASE)[keyof typeof PHASE]

/** The phases of a sort (threadBuffers.ts runs them). */
const SORT_STEPS: Partial<Record<Phase, SortStep>> = {
  [PHASE.sortBounds]: 'bounds',
  [PHASE.sortKeys]: 'keys',
  [PHASE.sortCount]: 'count',
  [PHASE.sortScatter]: 'scatter',
  [PHASE.permute]: 'permute',
}

/** Phase parameters (Float64Array): the time step of an integration phase, the shift scale. */
export const PARAM = { dt: 0 } as const
export const PARAM_LENGTH = 2

/**
 * Control block layout (Int32Array). `cursor`: the next chunk of a phase scheduled by chunks
 * (see runPhaseRange), taken with Atomics.add.
 */
export const CONTROL = { sequence: 0, phase: 1, done: 2, failed: 3, cursor: 4 } as const
export const CONTROL_LENGTH = 5

/**
 * Chunks per thread of the phases scheduled dynamically (forces, walls, shifting): their cells
 * are cut into threads × CHUNKS_PER_THREAD chunks of equal estimated work, and each thread takes
 * the next chunk until none is left, so that a thread whose particles cost more per estimated
 * pair (or a thread the machine runs slower) does not hold the others up. A thread's last chunk
 * is about 1/CHUNKS_PER_THREAD of its share.
 */
export const CHUNKS_PER_THREAD = 32

/** Offsets of the chunk boundaries in the chunks buffer: forces' chunks, then walls'. */
export function chunkOffset(split: Split, threads: number): number {
  return split === SPLIT.walls ? threads * CHUNKS_PER_THREAD + 1 : 0
}

/** Int32 values of the chunks buffer for `threads` threads. */
export function chunksLength(threads: number): number {
  return 2 * (threads * CHUNKS_PER_THREAD + 1)
}

/** What a thread needs to take chunks of a dynamically scheduled phase. */
export interface ChunkSchedule {
  control: Int32Array
  /** Cell boundaries of the chunks (chunkOffset), written at each work estimate. */
  chunks: Int32Array
}

/** What a worker needs to build its own views of the shared state. */
export interface PhaseWorkerData {
  slot: number
  threads: number
  particles: ParticleBuffers
  grid: GridBuffers
  control: SharedArrayBuffer
  params: SharedArrayBuffer
  ranges: SharedArrayBuffer
  /** The sort's permutation (Int32, one per particle of capacity). */
  permutation: SharedArrayBuffer
  /** The permutation's scratch (permuteScratchBytes of the capacity and threads; permute.ts). */
  permuteScratch: SharedArrayBuffer
  /** The sort's per-particle loops' parameters and per-thread results (cellKeys.ts). */
  sortBlock: SharedArrayBuffer
  /** The counting sort's per-cell counts, then cursors (Int32, maxCells + 2; cellCount.ts). */
  sortCursor: SharedArrayBuffer
  /** Each block of particles' least and largest cell (Int32; cellKeys.ts boundBlockCells). */
  blockCells: SharedArrayBuffer
  /** Chunk boundaries of the dynamically scheduled phases (ChunkSchedule). */
  chunks: SharedArrayBuffer
  stats: SharedArrayBuffer
  constants: SphConstants
}

/** The split a phase runs on (see workSplit.ts). */
export function splitOfPhase(phase: Phase, dynamicWalls: boolean): Split {
  switch (phase) {
    case PHASE.walls:
      return SPLIT.walls
    case PHASE.forces:
    case PHASE.reference:
    case PHASE.shift:
    case PHASE.colour:
    case PHASE.airDrag:
      return SPLIT.forces
    case PHASE.measure:
      return SPLIT.measure
    case PHASE.predict:
    case PHASE.correct:
    case PHASE.rungeKutta1:
    case PHASE.rungeKutta2:
    case PHASE.rungeKutta3:
    case PHASE.rungeKutta4:
      // dynamic walls integrate their density too
      return dynamicWalls ? SPLIT.particles : SPLIT.fluid
    default:
      return SPLIT.particles
  }
}

/** Whether a phase takes chunks (see CHUNKS_PER_THREAD) when it runs on several threads. */
function isChunked(phase: Phase): boolean {
  return (
    phase === PHASE.forces ||
    phase === PHASE.walls ||
    phase === PHASE.shift ||
    phase === PHASE.colour
  )
}

/**
 * Runs a chunked phase: takes chunks until none is left. Each particle's sums do not depend on
 * which thread computes it, so the numbers are those of one thread; a force pass's stats are
 * folded over the thread's chunks (largest values, summed count).
 */
function runChunks(
  ctx: InteractionContext,
  schedule: ChunkSchedule,
  params: Float64Array,
  phase: Phase,
  slot: number,
  threads: number,
): void {
  const split = phase === PHASE.walls ? SPLIT.walls : SPLIT.forces
  const offset = chunkOffset(split, threads)
  const count = threads * CHUNKS_PER_THREAD
  const chunks = schedule.chunks
  const control = schedule.control
  const stats = ctx.stats
  const base = slot * STAT_STRIDE
  let maxAcceleration2 = 0
  let maxViscous = 0
  let interactions = 0
  const scale = params[PARAM.dt]!
  for (;;) {
    const k = Atomics.add(control, CONTROL.cursor, 1)
    if (k >= count) break
    const cellBegin = chunks[offset + k]!
    const cellEnd = chunks[offset + k + 1]!
    if (cellEnd <= cellBegin) continue
    if (phase === PHASE.forces) {
      if (ctx.constants.phases) computeMultiphaseForces(ctx, cellBegin, cellEnd, slot)
      else if (ctx.constants.variableResolution)
        computeVariableForces(ctx, cellBegin, cellEnd, slot)
      else computeForces(ctx, cellBegin, cellEnd, slot)
      const a2 = stats[base + STAT.maxAcceleration2]!
      const viscous = stats[base + STAT.maxViscous]!
      if (a2 > maxAcceleration2) maxAcceleration2 = a2
      if (viscous > maxViscous) maxViscous = viscous
      interactions += stats[base + STAT.interactions]!
    } else if (phase === PHASE.walls) {
      if (ctx.constants.variableResolution) extrapolateVariableWalls(ctx, cellBegin, cellEnd)
      else extrapolateWalls(ctx, cellBegin, cellEnd)
    } else if (phase === PHASE.colour) computeColourGradients(ctx, cellBegin, cellEnd)
    else if (ctx.constants.variableResolution)
      shiftVariableParticles(ctx, cellBegin, cellEnd, scale)
    else shiftParticles(ctx, cellBegin, cellEnd, scale)
  }
  if (phase === PHASE.forces) {
    stats[base + STAT.maxAcceleration2] = maxAcceleration2
    stats[base + STAT.maxViscous] = maxViscous
    stats[base + STAT.interactions] = interactions
  }
}

/**
 * Runs one phase for the cell range of `slot` (the same code on every thread), or, with a
 * schedule on several threads, the chunks it takes of a chunked phase.
 */
export function runPhaseRange(
  ctx: InteractionContext,
  ranges: Int32Array,
  params: Float64Array,
  phase: Phase,
  slot: number,
  threads: number,
  schedule: ChunkSchedule | null = null,
): void {
  if (schedule && threads > 1 && isChunked(phase)) {
    runChunks(ctx, schedule, params, phase, slot, threads)
    return
  }
  const sortStep = SORT_STEPS[phase]
  if (sortStep) {
    runSortStep(ctx, sortStep, slot, threads, params[PARAM.dt]!)
    return
  }
  const dynamicWalls = ctx.constants.boundaryCode === BOUNDARY_CODE.dynamic
  const offset = splitOfPhase(phase, dynamicWalls) * (threads + 1)
  const cellBegin = ranges[offset + slot]!
  const cellEnd = ranges[offset + slot + 1]!
  const cellStart = ctx.grid.cellStart
  const begin = cellStart[cellBegin]!
  const end = cellStart[cellEnd]!
  const dt = params[PARAM.dt]!
  switch (phase) {
    case PHASE.pressures:
      if (ctx.constants.phases) computeMultiphasePressures(ctx, begin, end)
      else computePressures(ctx, begin, end)
      break
    case PHASE.walls:
      if (ctx.constants.variableResolution) extrapolateVariableWalls(ctx, cellBegin, cellEnd)
      else extrapolateWalls(ctx, cellBegin, cellEnd)
      break
    case PHASE.forces:
      if (ctx.constants.phases) computeMultiphaseForces(ctx, cellBegin, cellEnd, slot)
      else if (ctx.constants.variableResolution)
        computeVariableForces(ctx, cellBegin, cellEnd, slot)
      else computeForces(ctx, cellBegin, cellEnd, slot)
      break
    case PHASE.colour:
      computeColourGradients(ctx, cellBegin, cellEnd)
      break
    case PHASE.airDrag:
      applyAirDrag(ctx, cellBegin, cellEnd, slot, dt)
      break
    case PHASE.reference:
      runReferencePass(ctx, cellBegin, cellEnd, slot)
      break
    case PHASE.predict:
      predictSymplectic(ctx.arrays, ctx.constants, begin, end, dt)
      break
    case PHASE.correct:
      correctSymplectic(ctx.arrays, ctx.constants, begin, end, dt)
      break
    case PHASE.rungeKutta1:
      updateRungeKutta(ctx.arrays, ctx.constants, begin, end, RK_STAGE.first, dt)
      break
    case PHASE.rungeKutta2:
      updateRungeKutta(ctx.arrays, ctx.constants, begin, end, RK_STAGE.second, dt)
      break
    case PHASE.rungeKutta3:
      updateRungeKutta(ctx.arrays, ctx.constants, begin, end, RK_STAGE.third, dt)
      break
    case PHASE.rungeKutta4:
      updateRungeKutta(ctx.arrays, ctx.constants, begin, end, RK_STAGE.fourth, dt)
      break
    case PHASE.shift:
      if (ctx.constants.variableResolution) shiftVariableParticles(ctx, cellBegin, cellEnd, dt)
      else shiftParticles(ctx, cellBegin, cellEnd, dt)
      break
    case PHASE.restWalls:
      restWalls(ctx.arrays, begin, end)
      break
    case PHASE.measure:
      measureCellWork(ctx, cellBegin, cellEnd, dynamicWalls)
      break
    case PHASE.heatWalls:
      extrapolateWallTemperatures(ctx, cellBegin, cellEnd)
      break
    case PHASE.heat:
      computeHeat(ctx, cellBegin, cellEnd)
      break
    case PHASE.heatUpdate:
      updateTemperatures(ctx.arrays, begin, end, dt)
      break
    case PHASE.viscosity:
      computeViscosities(ctx, cellBegin, cellEnd)
      break
    case PHASE.exit:
      break
  }
}

/**
 * Waits until the phase sequence differs from `seen` (the last phase this worker ran) and returns
 * it. A wake from Atomics.wait is not a new phase: a worker can see a new sequence before it
 * sleeps, run the phase and sleep again before the caller's notify for that phase comes, which
 * then wakes it with the sequence unchanged; taken as a new phase, the phase ran twice (issue 16).
 */
export function waitForSequence(control: Int32Array, seen: number): number {
  for (;;) {
    const sequence = Atomics.load(control, CONTROL.sequence)
    if (sequence !== seen) return sequence
    Atomics.wait(control, CONTROL.sequence, seen)
  }
}

/**
 * Worker entry: waits for phases until told to exit. `announceReady` runs once the worker has read
 * the phase sequence it waits from: announcing earlier let a first phase posted in between go
 * unseen (the worker then waited for the next one and the caller for this one, forever).
 */
export function servePhases(data: PhaseWorkerData, announceReady: () => void): void {
  const arrays = viewParticleArrays(data.particles)
  const ctx = createInteractionContext(
    arrays,
    viewGrid(data.grid),
    data.constants,
    new Float64Array(data.stats),
  )
  setSortBuffers(ctx, {
    block: new Float64Array(data.sortBlock),
    cursor: new Int32Array(data.sortCursor),
    blockCells: new Int32Array(data.blockCells),
    permutation: new Int32Array(data.permutation),
    scratch: viewPermuteScratch(data.permuteScratch, data.particles.capacity, data.threads),
  })
  const control = new Int32Array(data.control)
  const schedule: ChunkSchedule = { control, chunks: new Int32Array(data.chunks) }
  const params = new Float64Array(data.params)
  const ranges = new Int32Array(data.ranges)
  let sequence = Atomics.load(control, CONTROL.sequence)
  announceReady()
  for (;;) {
    sequence = waitForSequence(control, sequence)
    const phase = Atomics.load(control, CONTROL.phase) as Phase
    if (phase === PHASE.exit) return
    try {
      runPhaseRange(ctx, ranges, params, phase, data.slot, data.threads, schedule)
    } catch (error) {
      console.error(error)
      Atomics.store(control, CONTROL.failed, 1)
    }
    Atomics.add(control, CONTROL.done, 1)
    Atomics.notify(control, CONTROL.done)
  }
}
