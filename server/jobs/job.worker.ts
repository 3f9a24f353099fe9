import { parentPort, workerData } from 'node:worker_threads'
import { RUN_STOP_MESSAGES, type RunResult } from '../../solver/run/types.ts'
import { encodePartPointClouds } from '../storage/pointClouds.ts'
import { loadDiscretize, loadRunSimulation, readDiscretization } from './solverModules.ts'
import type { JobWorkerCommand, JobWorkerData, JobWorkerMessage } from './workerProtocol.ts'

/*
 * Entry of a job thread: discretizes the setup (a discretization job hands back each part's
 * particles as DPCL bytes), and for a simulation runs the solver on the particles, reporting
 * every step to the parent. No database here: all input came in workerData.
 */

function post(message: JobWorkerMessage, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer)
}

/** The end of a simulation stopped before the solver started: nothing was written. */
function stoppedBeforeStart(data: Extract<JobWorkerData, { kind: 'simulation' }>): RunResult {
  return {
    state: 'stopped',
    reason: 'user',
    message: RUN_STOP_MESSAGES.user,
    condition: null,
    timeS: 0,
    runtimeMs: 0,
    lastOutputNo: null,
    particles: 0,
    creditsConsumed: data.input.credits.consumedAtStart,
    deletedParticles: 0,
  }
}

async function runJob(data: JobWorkerData, signal: AbortSignal): Promise<void> {
  // A stop during launch arrives as the thread starts: end before anything is written.
  if (data.kind === 'simulation' && signal.aborted) {
    post({ type: 'done', result: stoppedBeforeStart(data) })
    return
  }
  const setup = data.kind === 'discretization' ? data.setup : data.input.setup
  // The thread is up: the launch is over. Discretizing is part of the run, so a setup that
  // yields no particles is a failed run, while a thread that cannot start is a failed launch.
  if (data.kind === 'simulation') post({ type: 'started' })
  const discretize = await loadDiscretize()
  const { particles, outcome } = readDiscretization(
    discretize(setup, { onProgress: (progress) => post({ type: 'progress', progress }) }),
  )
  if (data.kind === 'discretization') {
    // Each part's particles go back as DPCL bytes, transferred (the parent writes them as is).
    const pointClouds =
      outcome.errors.length === 0 && particles
        ? encodePartPointClouds(particles.positions, particles.partIds)
        : []
    post(
      { type: 'discretized', outcome: { ...outcome, pointClouds } },
      pointClouds.map((cloud) => cloud.bytes.buffer as ArrayBuffer),
    )
    return
  }
  if (outcome.errors.length > 0 || particles === null)
    throw new Error(outcome.errors[0]?.description ?? 'The setup yields no particles.')
  const runSimulation = await loadRunSimulation()
  if (signal.aborted) {
    post({ type: 'done', result: stoppedBeforeStart(data) })
    return
  }
  const { input } = data
  const result = await runSimulation({
    setup,
    particles,
    dataDir: input.dataDir,
    simulationId: input.simulationId,
    runId: input.runId,
    threads: input.threads,
    backend: input.backend,
    resumeFromOutput: input.resumeFromOutput,
    resumeFromRunId: input.resumeFromRunId,
    signal,
    conditions: input.conditions,
    credits: input.credits,
    onLog: (line) => post({ type: 'log', line }),
    onOutput: (manifest) => post({ type: 'output', manifest }),
    onCondition: (condition, value) => post({ type: 'condition', condition, value }),
  })
  post({ type: 'done', result })
}

/** Called by the boot script once tsx is registered in this thread. */
export function startJobWorker(): void {
  const controller = new AbortController()
  parentPort?.on('message', (command: JobWorkerCommand) => {
    if (command.type === 'abort') controller.abort('user')
  })
  runJob(workerData as JobWorkerData, controller.signal).then(
    () => parentPort?.close(),
    (error: unknown) => {
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
      parentPort?.close()
    },
  )
}
