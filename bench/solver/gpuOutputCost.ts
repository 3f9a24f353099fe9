/**
 * What outputs cost a GPU run, written the run's way (solver/run/outputQueue.ts: captured on the
 * GPU at the output time, converted and written while the next steps run): a stretch of
 * simulated time stepped without outputs, one output written and awaited (what it costs a run
 * that waits for it), then as long a stretch with outputs every `intervalS` in flight. The
 * outputs' cost is the second stretch's time less its steps at the first stretch's time per
 * step; the last output's write, left at the end, is given apart (a run's next steps hide it).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GpuSolver } from '../../solver/gpu/GpuSolver.ts'
import { OutputQueue } from '../../solver/run/outputQueue.ts'
import { outputNames } from '../../solver/run/outputs.ts'

export interface GpuOutputCost {
  /** The stretch without outputs: steps and wall seconds. */
  plain: { steps: number; seconds: number }
  /** One output captured and written, awaited: wall seconds. */
  awaitedS: number
  /** The stretch with outputs in flight: outputs, steps, wall seconds (without the last write). */
  overlapped: { outputs: number; steps: number; seconds: number }
  /** The last output's write, waited for after the stretch: wall seconds. */
  lastWriteS: number
  /** Wall seconds per output with the overlap (the stretches' difference per output). */
  perOutputS: number
}

/** Steps `solver` to `targetS` in the run's batches; the number of steps taken. */
async function stepTo(solver: GpuSolver, targetS: number): Promise<number> {
  let steps = 0
  while (targetS - solver.report().timeS > 1e-9 * Math.max(solver.report().dtS, 1e-12))
    steps += (await solver.advance(targetS)).length
  return steps
}

export async function gpuOutputCost(
  solver: GpuSolver,
  simS: number,
  intervalS: number,
): Promise<GpuOutputCost> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dive-gpu-outputs-'))
  const queue = new OutputQueue({
    dataDir,
    simulationId: 1,
    runId: 1,
    names: outputNames({ materials: [], parts: [] }),
    flush: () => Promise.resolve(),
  })
  let outputNo = 0
  const write = async (overlap: boolean) => {
    const backend = { capture: () => solver.capture(), outputsOverlap: overlap }
    const header = { outputNo: outputNo++, runtimeMs: 0, creditsConsumed: 0 }
    await queue.start(
      backend,
      (capture) => ({
        version: 1,
        ...header,
        timeS: capture.report.timeS,
        triggeredConditionIds: [],
      }),
      // each output's files go once written: a long run at 5M particles fills no disk
      () => rm(join(dataDir, 'simulations'), { recursive: true, force: true }),
    )
  }
  try {
    let started = performance.now()
    const plainSteps = await stepTo(solver, solver.report().timeS + simS)
    const plain = { steps: plainSteps, seconds: (performance.now() - started) / 1000 }

    started = performance.now()
    await write(false)
    const awaitedS = (performance.now() - started) / 1000

    started = performance.now()
    const from = solver.report().timeS
    let outputs = 0
    let steps = 0
    for (let k = 0; from + k * intervalS < from + simS - 1e-9 * simS; k++) {
      steps += await stepTo(solver, from + k * intervalS)
      await write(true)
      outputs++
    }
    steps += await stepTo(solver, from + simS)
    const seconds = (performance.now() - started) / 1000
    started = performance.now()
    await queue.settle()
    const lastWriteS = (performance.now() - started) / 1000
    const perOutputS = (seconds - steps * (plain.seconds / plain.steps)) / outputs
    return { plain, awaitedS, overlapped: { outputs, steps, seconds }, lastWriteS, perOutputS }
  } finally {
    await queue.settle().catch(() => {})
    await rm(dataDir, { recursive: true, force: true })
  }
}
