/**
 * A sort by cell alone, per thread count (issue 22): the dam break's particles sorted again and
 * again as the solver sorts them each step, each time after a small random move (0.01 of the
 * support per coordinate, so that some particles change cells, as in a step). Prints the sort's
 * wall ms (least and median, the least being the one a busy machine disturbs least), the
 * process's CPU ms per sort (all threads, waits excluded) and its phases' mean ms (the calling
 * thread's share, then its wait for the others), as stepProfile.ts does for a whole step, without
 * the force passes' minutes. Then the counting sort's balance over 2 to 64 threads, which needs
 * no such machine: the cells split as the solver splits them (cellCount.ts), each slot's count
 * and scatter timed in CPU-ms, one slot after the other; max/mean 1 is a perfect split, and the
 * slowest slot is what the counting costs on that many free cores (the memory's bandwidth aside).
 * The same for the permutation of a step (the particles moved once more and sorted): each slot's
 * particles (its work; all fields move for each) and CPU-ms over the stages, and the stages'
 * slowest slots summed, what it costs on that many free cores (every stage waits for its slowest).
 *
 *   npx tsx bench/solver/sortProfile.ts [--fluid 300000] [--threads 1,2] [--sorts 20]
 *     [--slots 1,2,4,8,16,32,64]
 */
import { availableParallelism, loadavg } from 'node:os'
import { deriveConstants, findFluidMaterial } from '../../solver/sph/config.ts'
import { CellSorter, GRID_PARAM } from '../../solver/sph/grid.ts'
import {
  blockCellsLength,
  boundBlockCells,
  computeCellKeys,
  SORT_KEY,
  sortBlockLength,
  writeCellGrid,
} from '../../solver/sph/cellKeys.ts'
import {
  countCells,
  foldCellBases,
  scatterCells,
  splitCellRanges,
} from '../../solver/sph/cellCount.ts'
import { resolveOptions } from '../../solver/sph/options.ts'
import type { ParticleArrays } from '../../solver/sph/particles.ts'
import {
  permuteRange,
  permuteScratchBytes,
  permuteStage,
  permuteStages,
  viewPermuteScratch,
} from '../../solver/sph/permute.ts'
import { prepareParticles } from '../../solver/sph/prepare.ts'
import { createDamBreakConfig } from '../../solver/sph/scenarios.ts'
import { phaseProfile, PhaseRunner, resetPhaseProfile } from '../../solver/sph/threads.ts'
import { cliOption } from '../lib/cliOption.ts'

const fluid = Number(cliOption('fluid', '300000'))
const sorts = Number(cliOption('sorts', '20'))
const threadCounts = cliOption('threads', '1,2').split(',').map(Number)
const slotCounts = cliOption('slots', '1,2,4,8,16,32,64').split(',').map(Number)
console.log(
  `sortProfile: dam break of ${fluid} fluid particles, ${sorts} sorts per row after 2 untimed; ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)}`,
)
const config = createDamBreakConfig(fluid)
let seed = 1
/** A deterministic pseudo-random number in [-1, 1) (a linear congruential sequence). */
function jitter(): number {
  seed = (Math.imul(seed, 1664525) + 1013904223) | 0
  return seed / 2147483648
}

/** Moves each particle by up to `step` per coordinate, as a step does (some change cells). */
function move(a: ParticleArrays, count: number, step: number): void {
  const { posX, posY, posZ } = a
  for (let i = 0; i < count; i++) {
    posX[i]! += step * jitter()
    posY[i]! += step * jitter()
    posZ[i]! += step * jitter()
  }
}

function prepare(threads: number) {
  const options = resolveOptions({ ...config.options, threads })
  const constants = deriveConstants(config, options, findFluidMaterial(config))
  const setup = prepareParticles(config, options, constants)
  const request = {
    count: setup.count,
    support: constants.support,
    reach: options.cellsPerSupport,
    referenceBox: setup.referenceBox,
    deletionBox: config.settings.calcDomainActive ? setup.referenceBox : null,
  }
  return { constants, setup, request }
}

for (const threads of threadCounts) {
  const { constants, setup, request } = prepare(threads)
  const runner = await PhaseRunner.start({
    threads,
    particles: setup.buffers,
    grid: setup.grid,
    constants,
  })
  const sorter = new CellSorter(setup.arrays, setup.grid, runner.parallelSort())
  const step = 0.01 * constants.support
  const wallMs: number[] = []
  let cpuMs = 0
  for (let s = -2; s < sorts; s++) {
    if (s === 0) resetPhaseProfile()
    move(setup.arrays, setup.count, step)
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    request.count = sorter.sort(request).count
    const cpu = process.cpuUsage(cpuStarted)
    if (s < 0) continue
    wallMs.push(performance.now() - started)
    cpuMs += (cpu.user + cpu.system) / 1e3
  }
  wallMs.sort((a, b) => a - b)
  console.log(
    `threads ${threads}: sort of ${request.count} particles: ${wallMs[0]!.toFixed(2)} ms least, ${wallMs[sorts >> 1]!.toFixed(2)} ms median, ${(cpuMs / sorts).toFixed(2)} CPU-ms per sort; load average ${loadavg()[0]!.toFixed(2)}`,
  )
  for (const [name, entry] of Object.entries(phaseProfile()))
    console.log(`  ${name.padEnd(20)} ${(entry.ms / sorts).toFixed(2).padStart(8)} ms`)
  await runner.dispose()
}

// the counting's balance: the cells of a sorted dam break dealt to slots, timed one after the other
const { constants, setup, request } = prepare(1)
const sorter = new CellSorter(setup.arrays, setup.grid)
sorter.sort(request)
sorter.sort(request)
const params = new Float64Array(setup.grid.params)
const cellCount = params[GRID_PARAM.cellCount]!
const { cell } = setup.arrays
const cursor = new Int32Array(setup.grid.maxCells + 2)
const cellStart = new Int32Array(setup.grid.cellStart)
const fluidBefore = new Int32Array(setup.grid.fluidBefore)
const permutation = new Int32Array(setup.count)
const blockCells = new Int32Array(blockCellsLength(setup.count))
boundBlockCells(cell, 0, setup.count, blockCells)
const cpuMsNow = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e3
}
console.log(`counting sort's balance: ${setup.count} particles in ${cellCount} cells`)
for (const slots of slotCounts) {
  const block = new Float64Array(sortBlockLength(slots))
  block[SORT_KEY.count] = setup.count
  block[SORT_KEY.nx] = params[GRID_PARAM.nx]!
  block[SORT_KEY.ny] = params[GRID_PARAM.ny]!
  block[SORT_KEY.nz] = params[GRID_PARAM.nz]!
  const slotMs = new Array<number>(slots).fill(0)
  const repeats = 10
  for (let r = 0; r < repeats; r++) {
    splitCellRanges(cell, block, slots)
    for (let slot = 0; slot < slots; slot++) {
      const started = cpuMsNow()
      countCells(setup.arrays, block, slot, cursor, fluidBefore, blockCells)
      slotMs[slot]! += (cpuMsNow() - started) / repeats
    }
    foldCellBases(block, slots)
    for (let slot = 0; slot < slots; slot++) {
      const started = cpuMsNow()
      scatterCells(
        setup.arrays,
        block,
        slot,
        cursor,
        cellStart,
        fluidBefore,
        permutation,
        blockCells,
      )
      slotMs[slot]! += (cpuMsNow() - started) / repeats
    }
  }
  const total = slotMs.reduce((sum, ms) => sum + ms, 0)
  const slowest = Math.max(...slotMs)
  console.log(
    `  ${String(slots).padStart(2)} slots: max/mean ${((slowest * slots) / total).toFixed(2)}, slowest slot ${slowest.toFixed(2)} CPU-ms, all slots ${total.toFixed(1)} CPU-ms`,
  )
}

// the permutation's balance: a step's permutation (the particles moved once more, their cells
// found and counted on one slot), its stages dealt to slots, timed one after the other
move(setup.arrays, setup.count, 0.01 * constants.support)
const keyBlock = new Float64Array(sortBlockLength(1))
keyBlock[SORT_KEY.count] = setup.count
writeCellGrid(
  keyBlock,
  [params[GRID_PARAM.originX]!, params[GRID_PARAM.originY]!, params[GRID_PARAM.originZ]!],
  [params[GRID_PARAM.cellSize]!, params[GRID_PARAM.cellSizeY]!],
  [params[GRID_PARAM.nx]!, params[GRID_PARAM.ny]!, params[GRID_PARAM.nz]!],
  null,
)
computeCellKeys(setup.arrays, 0, setup.count, keyBlock, 0)
boundBlockCells(cell, 0, setup.count, blockCells)
splitCellRanges(cell, keyBlock, 1)
countCells(setup.arrays, keyBlock, 0, cursor, fluidBefore, blockCells)
foldCellBases(keyBlock, 1)
scatterCells(setup.arrays, keyBlock, 0, cursor, cellStart, fluidBefore, permutation, blockCells)
let displacement = 0
for (let k = 0; k < setup.count; k++) displacement += Math.abs(permutation[k]! - k)
const kept = setup.count
// shared, as the threads' scratch is
const scratchBuffer = new SharedArrayBuffer(
  Math.max(...slotCounts.map((slots) => permuteScratchBytes(kept, slots))),
)
console.log(
  `permutation's balance: ${kept} particles moved ${(displacement / kept).toFixed(1)} places on average`,
)
for (const slots of slotCounts) {
  const scratch = viewPermuteScratch(scratchBuffer, kept, slots)
  const stages = permuteStages(slots)
  const slotMs = new Array<number>(slots).fill(0)
  let stagesSlowest = 0
  const repeats = 10
  for (let r = 0; r < repeats; r++) {
    for (let stage = 0; stage < stages; stage++) {
      let slowest = 0
      for (let slot = 0; slot < slots; slot++) {
        const started = cpuMsNow()
        permuteStage(setup.arrays, permutation, kept, stage, slot, slots, scratch)
        const ms = cpuMsNow() - started
        slotMs[slot]! += ms / repeats
        slowest = Math.max(slowest, ms)
      }
      stagesSlowest += slowest / repeats
    }
  }
  const work = Array.from({ length: slots }, (_, slot) => {
    const [begin, end] = permuteRange(kept, slot, slots)
    return end - begin
  })
  const total = slotMs.reduce((sum, ms) => sum + ms, 0)
  const slowest = Math.max(...slotMs)
  console.log(
    `  ${String(slots).padStart(2)} slots, ${stages} stages: work max/mean ${((Math.max(...work) * slots) / kept).toFixed(2)}, CPU max/mean ${((slowest * slots) / total).toFixed(2)}, slowest slot ${slowest.toFixed(2)} CPU-ms, stages' slowest slots ${stagesSlowest.toFixed(2)} CPU-ms, all slots ${total.toFixed(1)} CPU-ms`,
  )
}
process.exit(0)
