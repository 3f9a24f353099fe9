import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { readSensorSamples } from '../../sensors/store.ts'
import { BufferPool } from './outputReader.ts'
import { OutputPipeline } from './statisticsOutput.ts'
import { checkRequest } from './statisticsRequest.ts'
import type { StatisticsThreadCommand, StatisticsThreadMessage } from './statisticsThread.ts'

/*
 * Entry of a statistics thread: computes the outputs asked of it for each open calculation
 * (statisticsOutput.ts OutputPipeline: reads overlap the computation before) and posts each
 * output's result; closing a calculation aborts what it still computes (the computation yields to
 * this thread's event loop inside big outputs, so the close is heard there too).
 */

/** How much nicer than the server's main thread a statistics thread runs. */
const NICER_BY = 5

/**
 * Lowers this thread's scheduling priority, so that on busy cores the server's event loop (and
 * other requests) win over statistics: on Linux setpriority on a thread id applies to that thread
 * alone (/proc/thread-self names it). Elsewhere, or when refused, the thread keeps its priority.
 */
function lowerThreadPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (!Number.isInteger(threadId) || threadId <= 0) return
    setPriority(threadId, Math.min(19, getPriority(threadId) + NICER_BY))
  } catch {
    // Not Linux, or not allowed: statistics run at the process's priority.
  }
}

function post(message: StatisticsThreadMessage): void {
  parentPort?.postMessage(message)
}

/** Called by the boot script once tsx is registered in this thread. */
export function startStatisticsWorker(): void {
  lowerThreadPriority()
  const pool = new BufferPool(4)
  const open = new Map<number, { pipeline: OutputPipeline; controller: AbortController }>()
  parentPort?.on('message', (command: StatisticsThreadCommand) => {
    const { id } = command
    if (command.type === 'close') {
      open.get(id)?.controller.abort()
      open.delete(id)
      return
    }
    if (command.type === 'open') {
      const checked = checkRequest(command.request)
      // The parent checked the request before opening it here.
      if (typeof checked === 'string') return
      const controller = new AbortController()
      const pipeline = new OutputPipeline(command.request, checked, {
        ...command.context,
        signal: controller.signal,
        pool,
        readSensorSamples,
      })
      open.set(id, { pipeline, controller })
      return
    }
    const { index, outputNo } = command
    const calculation = open.get(id)
    if (!calculation) {
      post({ type: 'fail', id, index, message: `Calculation ${id} is not open.` })
      return
    }
    calculation.pipeline.compute(outputNo).then(
      (result) => post({ type: 'output', id, index, result }),
      (error: unknown) =>
        post({
          type: 'fail',
          id,
          index,
          message: error instanceof Error ? error.message : String(error),
        }),
    )
  })
}
