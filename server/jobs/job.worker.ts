import { parentPort, workerData } from 'node:worker_threads'
import { loadDiscretize, loadRunSimulation, readDiscretization } from './solverModules.ts'
import type { JobWorkerCommand, JobWorkerData, JobWorkerMessage } from './workerProtocol.ts'

/*
 * Entry of a job thread: discretizes the setup, and for a simulation runs the solver on the
 * particles, reporting every step to the parent. No database here: all input came in workerData.
 */

function post(message: JobWorkerMessage): void {
  parentPort?.postMessage(message)
}

async function runJob(data: JobWorkerData, signal: AbortSignal): Promise<void> {
  const setup = data.kind === 'discretization' ? data.setup : data.input.setup
  const discretize = await loadDiscretize()
  const { particles, outcome } = readDiscretization(
    discretize(setup, { onProgress: (progress) => post({ type: 'progress', progress }) }),
  )
  if (data.kind === 'discretization') {
    post({ type: 'discretized', outcome })
    return
  }
  if (outcome.errors.length > 0 || particles === null)
    throw new Error(outcome.errors[0]?.description ?? 'The setup yields no particles.')
  const runSimulation = await loadRunSimulation()
  post({ type: 'started' })
  const { input } = data
  const result = await runSimulation({
    setup,
    particles,
    dataDir: input.dataDir,
    simulationId: input.simulationId,
    runId: input.runId,
    threads: input.threads,
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
