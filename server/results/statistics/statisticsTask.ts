import { randomUUID } from 'node:crypto'
import type { ResultsServerFrame, StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import {
  TASK_SHUTDOWN,
  subscribeTaskFrames,
  type ServerTaskQueue,
  type TaskFrameMessage,
  type TaskHandler,
} from '../../jobs/queue/tasks.ts'
import type { EmitFrame } from './statisticsRequest.ts'
import { StatisticsThreads, type ThreadStatisticsContext } from './statisticsThread.ts'

/*
 * stats.calc over a range of outputs on a worker process (issue 18; server/jobs/queue/tasks.ts).
 * With remote workers a results session sends a request of REMOTE_STATISTICS_MIN_OUTPUTS outputs
 * or more to the queue; a worker computes it on its statistics threads (the same
 * streamStatistics, so the same values in the same order) and its frames come back over
 * CHANNELS.taskFrames to the session, which sends them on. A request of one output (the current
 * output's figure) is answered in the session, as before: one 1M-particle output takes 36–57 ms
 * on the statistics threads (bench results/statsCalc: 100 in 3.6–5.7 s), less than the queue's
 * start latency alone (bench node/queue: 68–71 ms median), while a range is seconds of work that
 * the server's cores are spared. A worker that dies mid-range: the task is queued again and
 * computed from the start by another; frames the session sent already are not sent twice. A
 * cancel reaches the worker, whose calculation ends with stats.calc.done canceled.
 */

/** Outputs from which a stats.calc goes to a worker (see the file comment). */
export const REMOTE_STATISTICS_MIN_OUTPUTS = 2

/**
 * What a queued calculation carries: the request (as JSON text: pg-boss keeps data as jsonb, which
 * reorders an object's keys, and the order of `operations` is the order of the frames) and where
 * its outputs are.
 */
export interface StatisticsTaskData {
  request: string
  context: Omit<ThreadStatisticsContext, 'dataDir'>
}

/** A frame's identity: a retried calculation sends each value once. */
function frameKey(frame: ResultsServerFrame): string {
  const f = frame as { type: string; outputNo?: number; statistic?: string; message?: string }
  return `${f.type}:${f.outputNo ?? ''}:${f.statistic ?? ''}:${f.type === 'error' ? f.message : ''}`
}

/** Runs a stats.calc on a worker and sends its frames on; resolves once it is done. */
export async function runRemoteStatistics(
  queue: ServerTaskQueue,
  request: StatsCalcRequest,
  context: StatisticsTaskData['context'],
  emit: EmitFrame,
  signal: AbortSignal,
): Promise<void> {
  const id = randomUUID()
  const sent = new Set<string>()
  let ended = false
  let end: () => void = () => undefined
  const finished = new Promise<void>((resolve) => (end = resolve))
  let chain: Promise<void> = Promise.resolve()
  const forward = (frame: ResultsServerFrame) => {
    chain = chain.then(async () => {
      const key = frameKey(frame)
      if (ended || sent.has(key)) return
      sent.add(key)
      await emit(frame)
      if (frame.type === 'stats.calc.done') {
        ended = true
        end()
      }
    })
  }
  const unsubscribe = subscribeTaskFrames(id, (frame) => forward(frame as ResultsServerFrame))
  const onAbort = () => {
    void queue.cancel('statistics', id).then((held) => {
      // Not taken by a worker yet (now none will) or already over: the session ends it itself.
      if (!held)
        forward({ type: 'stats.calc.done', requestId: request.requestId, state: 'canceled' })
    })
  }
  try {
    const data: StatisticsTaskData = { request: JSON.stringify(request), context }
    await queue.dispatch('statistics', id, data)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    await finished
    await chain
  } finally {
    signal.removeEventListener('abort', onAbort)
    unsubscribe()
  }
}

/** A worker process's statistics: its own statistics threads, frames published as notifications. */
export function createStatisticsTaskHandler(
  options: { dataDir: string },
  publish: (message: TaskFrameMessage) => Promise<void>,
): { handler: TaskHandler; close(): Promise<void> } {
  const threads = new StatisticsThreads()
  const handler: TaskHandler = {
    kind: 'statistics',
    // No row: the lease alone claims it.
    claim: () => Promise.resolve(true),
    async run(id, data, signal) {
      const { request: text, context } = data as StatisticsTaskData
      const request = JSON.parse(text) as StatsCalcRequest
      const emit: EmitFrame = async (frame) => {
        // Stopped by this worker's end or a lost lease: the retry answers, not this one.
        if (signal.aborted && signal.reason === TASK_SHUTDOWN) return
        await publish({ task: id, frame })
      }
      await threads.run(request, { ...context, dataDir: options.dataDir }, emit, signal)
    },
    // Computed again from the start by whichever worker takes it (the session drops repeats).
    recover: () => Promise.resolve(true),
  }
  return { handler, close: () => threads.close() }
}
