/**
 * The denominators themselves (memcpy into touched and fresh memory, a streaming read) and
 * postMessage between worker threads: structured clone against transfer.
 */
import { Worker } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
import {
  allocateTouched,
  computeMedian,
  judgeRatio,
  measureMemcpyMs,
  measureStreamingReadMs,
  timeRuns,
  toMBps,
} from '../lib/measure.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'

/** 5M particles × 8 Float32 columns, the size the TOOLCHAIN figures use. */
const FULL_SIZE_BYTES = 5_000_000 * 8 * 4
const QUICK_SIZE_BYTES = 500_000 * 8 * 4

function sizeLabel(sizeBytes: number): string {
  return `${Math.round(sizeBytes / 1e6)}MB`
}

async function runMemcpy(context: BenchContext): Promise<void> {
  const sizeBytes = context.quick ? QUICK_SIZE_BYTES : FULL_SIZE_BYTES
  const memcpyMs = measureMemcpyMs(sizeBytes)
  const label = sizeLabel(sizeBytes)
  context.report({
    case: `node/memcpy.touched.${label}`,
    value: memcpyMs,
    unit: 'ms',
    ratio: 1,
    target: null,
    ok: null,
  })
  context.log(`memcpy into touched memory: ${toMBps(sizeBytes, memcpyMs).toFixed(0)} MB/s`)
  const source = allocateTouched(sizeBytes)
  const fresh = await timeRuns(() => new Uint8Array(sizeBytes).set(source), { runs: 3 })
  context.report({
    case: `node/memcpy.freshAllocation.${label}`,
    value: fresh.medianMs,
    unit: 'ms',
    ...judgeRatio(fresh.medianMs, memcpyMs, null, 'memcpy'),
  })
  const readMs = measureStreamingReadMs(sizeBytes)
  context.report({
    case: `node/streamingRead.${label}`,
    value: readMs,
    unit: 'ms',
    ...judgeRatio(readMs, memcpyMs, null, 'memcpy'),
  })
}

/** Acknowledges every message; sends a transferred buffer straight back so the next run can reuse it. */
const ECHO_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
parentPort.on('message', (message) => {
  if (message.returnBuffer) parentPort.postMessage({ buffer: message.buffer }, [message.buffer])
  else parentPort.postMessage({ byteLength: message.buffer.byteLength })
})
`

function postToWorker(
  worker: Worker,
  buffer: ArrayBuffer,
  transfer: boolean,
): Promise<{ elapsedMs: number; returned: ArrayBuffer | null }> {
  return new Promise((resolve) => {
    const startMs = performance.now()
    worker.once('message', (reply: { buffer?: ArrayBuffer }) => {
      resolve({ elapsedMs: performance.now() - startMs, returned: reply.buffer ?? null })
    })
    if (transfer) worker.postMessage({ buffer, returnBuffer: true }, [buffer])
    else worker.postMessage({ buffer, returnBuffer: false })
  })
}

async function runPostMessage(context: BenchContext): Promise<void> {
  const sizeBytes = context.quick ? QUICK_SIZE_BYTES : FULL_SIZE_BYTES
  const label = sizeLabel(sizeBytes)
  const memcpyMs = measureMemcpyMs(sizeBytes)
  const worker = new Worker(ECHO_WORKER_SOURCE, { eval: true })
  try {
    let buffer = allocateTouched(sizeBytes).buffer
    const cloneSamplesMs: number[] = []
    for (let run = 0; run < 4; run++) {
      const { elapsedMs } = await postToWorker(worker, buffer, false)
      if (run > 0) cloneSamplesMs.push(elapsedMs)
    }
    const cloneMs = computeMedian(cloneSamplesMs)
    context.report({
      case: `node/postMessage.clone.${label}`,
      value: cloneMs,
      unit: 'ms',
      ...judgeRatio(cloneMs, memcpyMs, null, 'memcpy'),
    })
    // A round trip of two transfers, halved: the buffer comes back for the next run.
    const transferSamplesMs: number[] = []
    for (let run = 0; run < 6; run++) {
      const { elapsedMs, returned } = await postToWorker(worker, buffer, true)
      if (!returned) throw new Error('The worker did not return the transferred buffer')
      buffer = returned
      if (run > 0) transferSamplesMs.push(elapsedMs / 2)
    }
    const transferMs = computeMedian(transferSamplesMs)
    context.report({
      case: `node/postMessage.transfer.${label}`,
      value: transferMs,
      unit: 'ms',
      ...judgeRatio(transferMs, memcpyMs, null, 'memcpy'),
    })
  } finally {
    await worker.terminate()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'node/memcpy',
    description:
      'memcpy of a 160 MB bundle into touched and into fresh memory, and a streaming read (the denominators).',
    run: runMemcpy,
  },
  {
    name: 'node/postMessage',
    description:
      'One hop of 160 MB to a worker thread: structured clone vs transfer, against memcpy of the same bytes.',
    run: runPostMessage,
  },
]
