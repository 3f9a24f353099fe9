/**
 * The outputs of a run as it steps: each one's state captured at its time (RunBackend.capture),
 * then written, in order and one at a time: its checkpoint, the sensor samples so far, its
 * files, its manifest last. Where the backend overlaps outputs (the GPU) the write goes on while
 * the next steps run, so that the GPU never waits for the host or the disk; the written state is
 * still the output time's (the capture's copy).
 */
import { join } from 'node:path'
import type { OutputManifest } from '../../domain/output/layout.ts'
import { checkpointFile } from '../../domain/output/layout.ts'
import type { RunBackend, RunCapture } from './runBackend.ts'
import { runCheckpointHead, type RunCheckpointHeader } from './runCheckpoint.ts'
import { writeFileAtomically, writeRunOutput, type OutputNames } from './outputs.ts'

/** Where a run's outputs go, and what must be on disk before an output counts as written. */
export interface OutputDestination {
  dataDir: string
  simulationId: number
  runId: number
  names: OutputNames
  /** Writes what the run has buffered that an output's checkpoint covers (sensor samples). */
  flush(): Promise<void>
}

/**
 * Lets the run loop in between two long pieces of an output's host work (it submits the next
 * batch as soon as the last one is done; microtasks alone would not let it).
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** Writes one captured output: its checkpoint, then the flush, then its files, manifest last. */
async function writeCaptured(
  capture: RunCapture,
  header: RunCheckpointHeader,
  to: OutputDestination,
): Promise<OutputManifest> {
  const { dataDir, simulationId, runId } = to
  const outputNo = header.outputNo
  // the checkpoint before the manifest: a complete output always has its resume point
  const solverBytes = await capture.checkpoint()
  const path = join(dataDir, checkpointFile(simulationId, runId, outputNo))
  await writeFileAtomically(path, [runCheckpointHead(header), solverBytes])
  // the sensor samples up to this output are on disk before the output counts as written
  await to.flush()
  const snapshot = await capture.snapshot()
  await yieldToEventLoop()
  const target = { dataDir, simulationId, runId, outputNo, timeS: header.timeS }
  return writeRunOutput(target, snapshot, to.names, yieldToEventLoop)
}

/** The run's outputs in flight: at most one, written in order (see the module comment). */
export class OutputQueue {
  /** The output being written: what its write threw, once done (undefined: nothing). */
  #pending: Promise<{ error: unknown } | undefined> | null = null
  #destination: OutputDestination

  constructor(destination: OutputDestination) {
    this.#destination = destination
  }

  /**
   * Captures the solver's state of now as the output of `header` (after the one in flight is
   * written) and writes it; `written` follows with its manifest and the capture's report. Waits
   * for the write unless the backend overlaps outputs.
   */
  async start(
    solver: Pick<RunBackend, 'capture' | 'outputsOverlap'>,
    header: (capture: RunCapture) => RunCheckpointHeader,
    written: (manifest: OutputManifest, capture: RunCapture) => Promise<void>,
  ): Promise<void> {
    await this.settle()
    const capture = solver.capture()
    const write = writeCaptured(capture, header(capture), this.#destination)
      .then((manifest) => written(manifest, capture))
      .finally(() => capture.release())
    // the error is kept for settle(): a write failing while the run steps is no unhandled rejection
    this.#pending = write.then(
      () => undefined,
      (error: unknown) => ({ error }),
    )
    if (!solver.outputsOverlap) await this.settle()
  }

  /** Waits for the output in flight, if any; throws what its write threw. */
  async settle(): Promise<void> {
    const pending = this.#pending
    this.#pending = null
    const failure = await pending
    if (failure) throw failure.error
  }
}
