import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { CONTROL, CONTROL_LENGTH, waitForSequence } from './phases.ts'

/**
 * A thread that wakes the caller's wait on the sequence without posting a phase (the late notify
 * of a phase the worker already ran), then posts one: plain JavaScript, so no loader is needed.
 */
const STRAY_WAKE_THEN_POST = `
const { workerData } = require('node:worker_threads')
const control = new Int32Array(workerData.control)
const pause = new Int32Array(new SharedArrayBuffer(4))
// notify until it wakes a waiter: the caller is then asleep on the unchanged sequence
while (Atomics.notify(control, workerData.index, 1) === 0) Atomics.wait(pause, 0, 0, 1)
Atomics.wait(pause, 0, 0, 20)
Atomics.add(control, workerData.index, 1)
Atomics.notify(control, workerData.index)
`

describe('phase sequence', () => {
  it('returns only once a new phase is posted, not on a wake without one', async () => {
    const control = new Int32Array(new SharedArrayBuffer(CONTROL_LENGTH * 4))
    const worker = new Worker(STRAY_WAKE_THEN_POST, {
      eval: true,
      workerData: { control: control.buffer, index: CONTROL.sequence },
    })
    const exited = new Promise((resolve) => worker.once('exit', resolve))
    expect(waitForSequence(control, 0)).toBe(1)
    await exited
  })

  it('returns at once when the sequence already moved', () => {
    const control = new Int32Array(new SharedArrayBuffer(CONTROL_LENGTH * 4))
    control[CONTROL.sequence] = 7
    expect(waitForSequence(control, 6)).toBe(7)
  })
})
