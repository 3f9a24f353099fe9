import { parentPort } from 'node:worker_threads'
import { readSensorSamples } from '../../sensors/store.ts'
import { BufferPool } from './outputReader.ts'
import { runStatisticsCalc } from './statisticsCalc.ts'
import type { StatisticsThreadCommand, StatisticsThreadMessage } from './statisticsThread.ts'

/*
 * Entry of the statistics thread: runs each started calculation and posts its frames; an abort is
 * heard between outputs and inside big ones (the calculation yields to this thread's event loop).
 */

function post(message: StatisticsThreadMessage): void {
  parentPort?.postMessage(message)
}

/** Called by the boot script once tsx is registered in this thread. */
export function startStatisticsWorker(): void {
  const pool = new BufferPool(4)
  const running = new Map<number, AbortController>()
  parentPort?.on('message', (command: StatisticsThreadCommand) => {
    if (command.type === 'abort') {
      running.get(command.id)?.abort()
      return
    }
    const { id, request, context } = command
    const controller = new AbortController()
    running.set(id, controller)
    runStatisticsCalc(
      request,
      { ...context, signal: controller.signal, pool, readSensorSamples },
      (frame) => {
        post({ type: 'frame', id, frame })
        return Promise.resolve()
      },
    )
      .then(
        (state) => post({ type: 'end', id, state }),
        (error: unknown) =>
          post({
            type: 'fail',
            id,
            message: error instanceof Error ? error.message : String(error),
          }),
      )
      .finally(() => running.delete(id))
  })
}
