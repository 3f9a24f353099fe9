import { describe, expect, it, vi } from 'vitest'
import type { LoadPriority, LoadRequest, LoadSummary } from '../protocol.ts'
import {
  backgroundLoadLimit,
  isAbortError,
  LoadScheduler,
  type SchedulableWorker,
} from './scheduler.ts'

const MB = 1024 ** 2

function request(
  requestId: string,
  priority: LoadPriority = 'prefetch',
  estimatedBytes = MB,
  outputNo = Number(requestId.replace(/\D/g, '')) || 0,
): LoadRequest {
  return {
    requestId,
    key: { simulationId: 1, runId: 1, outputNo },
    source: { bundleUrl: `/bundle/${outputNo}`, accessToken: null },
    dataset: 'full',
    objectIds: [],
    estimatedBytes,
    priority,
  }
}

/** A worker whose loads finish when the test says so. */
class FakeWorker implements SchedulableWorker {
  started: string[] = []
  cancelled: string[] = []
  #pending = new Map<
    string,
    { resolve(s: LoadSummary): void; reject(e: unknown): void; request: LoadRequest }
  >()

  load(loadRequest: LoadRequest): Promise<LoadSummary> {
    this.started.push(loadRequest.requestId)
    return new Promise((resolve, reject) =>
      this.#pending.set(loadRequest.requestId, { resolve, reject, request: loadRequest }),
    )
  }

  cancel(requestId: string): void {
    this.cancelled.push(requestId)
    const pending = this.#pending.get(requestId)
    this.#pending.delete(requestId)
    pending?.reject(new DOMException('cancelled', 'AbortError'))
  }

  finish(requestId: string): void {
    const pending = this.#pending.get(requestId)
    if (!pending) throw new Error(`${requestId} is not running on this worker`)
    this.#pending.delete(requestId)
    pending.resolve({
      requestId,
      key: pending.request.key,
      fromCache: false,
      bytes: pending.request.estimatedBytes,
      decodeMs: 1,
      totalMs: 2,
    })
  }

  fail(requestId: string, message: string): void {
    const pending = this.#pending.get(requestId)
    this.#pending.delete(requestId)
    pending?.reject(new Error(message))
  }

  running(): string[] {
    return [...this.#pending.keys()]
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

function createPool(
  options: { maxWorkers?: number; maxBytesInFlight?: number; maxBackgroundLoads?: number } = {},
) {
  const workers: FakeWorker[] = []
  const started: string[] = []
  const scheduler: LoadScheduler<FakeWorker> = new LoadScheduler<FakeWorker>({
    ...options,
    requestWorker: () => {
      const worker = new FakeWorker()
      const load = worker.load.bind(worker)
      worker.load = (r) => {
        started.push(r.requestId)
        return load(r)
      }
      workers.push(worker)
      scheduler.addWorker(worker)
    },
  })
  const workerOf = (requestId: string) => workers.find((w) => w.running().includes(requestId))!
  return { scheduler, workers, started, workerOf }
}

describe('LoadScheduler', () => {
  it('spawns workers on demand, never more than the maximum', () => {
    const { scheduler, workers } = createPool({ maxWorkers: 3 })
    expect(workers).toHaveLength(0)
    void scheduler.schedule(request('a1')).catch(() => {})
    expect(workers).toHaveLength(1)
    for (let i = 2; i <= 10; i++) void scheduler.schedule(request(`a${i}`)).catch(() => {})
    expect(workers).toHaveLength(3)
    expect(scheduler.state()).toMatchObject({ workerCount: 3, idleWorkerCount: 0 })
    expect(scheduler.state().running).toHaveLength(3)
    expect(scheduler.state().queued).toHaveLength(7)
  })

  it('asks for workers asynchronously and starts loads when they arrive', () => {
    const requested: number[] = []
    const scheduler = new LoadScheduler<FakeWorker>({
      requestWorker: () => requested.push(1),
      maxWorkers: 12,
    })
    void scheduler.schedule(request('o1')).catch(() => {})
    void scheduler.schedule(request('o2')).catch(() => {})
    expect(requested).toHaveLength(2)
    expect(scheduler.state().pendingWorkerCount).toBe(2)
    // A third load while two workers are on their way asks for a third, not for three more.
    void scheduler.schedule(request('o3')).catch(() => {})
    expect(requested).toHaveLength(3)
    const worker = new FakeWorker()
    scheduler.addWorker(worker)
    expect(worker.started).toEqual(['o1'])
    expect(scheduler.state().pendingWorkerCount).toBe(2)
  })

  it('serves shown before playback before prefetch, first come first served within one', async () => {
    const { scheduler, workers, started } = createPool({ maxWorkers: 1 })
    const done: Promise<unknown>[] = []
    done.push(scheduler.schedule(request('p1', 'prefetch')))
    done.push(scheduler.schedule(request('p2', 'prefetch')))
    done.push(scheduler.schedule(request('b3', 'playback')))
    done.push(scheduler.schedule(request('s4', 'shown')))
    done.push(scheduler.schedule(request('b5', 'playback')))
    expect(scheduler.state().queued.map((q) => q.requestId)).toEqual(['s4', 'b3', 'b5', 'p2'])
    const worker = workers[0]!
    for (let i = 0; i < 5; i++) {
      worker.finish(worker.running()[0]!)
      await flush()
    }
    await Promise.all(done)
    expect(started).toEqual(['p1', 's4', 'b3', 'b5', 'p2'])
  })

  it('moves a queued load forward when its priority rises', () => {
    const { scheduler } = createPool({ maxWorkers: 1 })
    for (const id of ['a0', 'a1', 'a2', 'a3']) void scheduler.schedule(request(id)).catch(() => {})
    expect(scheduler.setPriority('a3', 'shown')).toBe(true)
    expect(scheduler.state().queued.map((q) => q.requestId)).toEqual(['a3', 'a1', 'a2'])
    expect(scheduler.setPriority('nope', 'shown')).toBe(false)
  })

  it('keeps bytes in flight under the gate whatever the count of workers', async () => {
    const { scheduler, workers, started } = createPool({
      maxWorkers: 12,
      maxBytesInFlight: 10 * MB,
    })
    const all = Array.from({ length: 8 }, (_, i) =>
      scheduler.schedule(request(`o${i}`, 'playback', 4 * MB)),
    )
    expect(started).toEqual(['o0', 'o1'])
    expect(scheduler.state().bytesInFlight).toBe(8 * MB)
    expect(workers).toHaveLength(2)
    let maxSeen = 0
    while (started.length < 8 || workers.some((w) => w.running().length > 0)) {
      maxSeen = Math.max(maxSeen, scheduler.state().bytesInFlight)
      const worker = workers.find((w) => w.running().length > 0)!
      worker.finish(worker.running()[0]!)
      await flush()
    }
    await Promise.all(all)
    expect(maxSeen).toBeLessThanOrEqual(10 * MB)
    expect(scheduler.state().bytesInFlight).toBe(0)
  })

  it('runs a load bigger than the gate alone, and nothing beside it', async () => {
    const { scheduler, started, workerOf } = createPool({ maxBytesInFlight: 10 * MB })
    const small = scheduler.schedule(request('s1', 'shown', 2 * MB))
    const huge = scheduler.schedule(request('h2', 'playback', 50 * MB))
    const after = scheduler.schedule(request('p3', 'prefetch', MB))
    expect(started).toEqual(['s1'])
    workerOf('s1').finish('s1')
    await flush()
    expect(started).toEqual(['s1', 'h2'])
    expect(scheduler.state().bytesInFlight).toBe(50 * MB)
    workerOf('h2').finish('h2')
    await flush()
    expect(started).toEqual(['s1', 'h2', 'p3'])
    workerOf('p3').finish('p3')
    await expect(Promise.all([small, huge, after])).resolves.toHaveLength(3)
  })

  it('never lets a smaller load overtake a waiting bigger one of higher priority', async () => {
    const { scheduler, started, workerOf } = createPool({ maxBytesInFlight: 10 * MB })
    void scheduler.schedule(request('a1', 'prefetch', 6 * MB)).catch(() => {})
    void scheduler.schedule(request('s2', 'shown', 8 * MB)).catch(() => {})
    void scheduler.schedule(request('p3', 'prefetch', MB)).catch(() => {})
    expect(started).toEqual(['a1'])
    workerOf('a1').finish('a1')
    await flush()
    expect(started).toEqual(['a1', 's2', 'p3'])
  })

  it('cancels a queued load: its promise rejects with an AbortError and it never starts', async () => {
    const { scheduler, started, workerOf } = createPool({ maxWorkers: 1 })
    const first = scheduler.schedule(request('a1'))
    const second = scheduler.schedule(request('a2'))
    expect(scheduler.cancel('a2')).toBe(true)
    const error = await second.catch((e: unknown) => e)
    expect(isAbortError(error)).toBe(true)
    workerOf('a1').finish('a1')
    await first
    expect(started).toEqual(['a1'])
    expect(scheduler.cancel('a2')).toBe(false)
  })

  it('cancels a running load: tells its worker, rejects at once, frees the worker when it stops', async () => {
    const { scheduler, workers, started } = createPool({ maxWorkers: 1 })
    const running = scheduler.schedule(request('a1', 'shown', 3 * MB))
    const next = scheduler.schedule(request('a2'))
    expect(scheduler.cancel('a1')).toBe(true)
    expect(isAbortError(await running.catch((e: unknown) => e))).toBe(true)
    expect(workers[0]!.cancelled).toEqual(['a1'])
    await flush()
    expect(started).toEqual(['a1', 'a2'])
    expect(scheduler.state().bytesInFlight).toBe(MB)
    workers[0]!.finish('a2')
    await expect(next).resolves.toMatchObject({ requestId: 'a2' })
  })

  it('counts a cancelled load as in flight until its worker lets go', async () => {
    const scheduler = new LoadScheduler<SchedulableWorker>({ requestWorker: () => {} })
    let release: () => void = () => {}
    const cancel = vi.fn()
    const stubborn: SchedulableWorker = {
      load: () => new Promise((_, reject) => (release = () => reject(new Error('late')))),
      cancel,
    }
    scheduler.addWorker(stubborn)
    const load = scheduler.schedule(request('a1', 'shown', 5 * MB))
    scheduler.cancel('a1')
    expect(isAbortError(await load.catch((e: unknown) => e))).toBe(true)
    expect(cancel).toHaveBeenCalledWith('a1')
    expect(scheduler.state().bytesInFlight).toBe(5 * MB)
    expect(scheduler.loadingOutputNos()).toEqual([])
    release()
    await flush()
    expect(scheduler.state().bytesInFlight).toBe(0)
  })

  it('cancels by predicate, queued and running alike', async () => {
    const { scheduler } = createPool({ maxWorkers: 1 })
    const loads = ['p1', 'p2', 'p3'].map((id) => scheduler.schedule(request(id)))
    const shown = scheduler.schedule(request('s9', 'shown'))
    expect(scheduler.cancelWhere((r) => r.priority === 'prefetch')).toBe(3)
    const results = await Promise.allSettled(loads)
    expect(results.every((r) => r.status === 'rejected' && isAbortError(r.reason))).toBe(true)
    await flush()
    expect(scheduler.state().running.map((r) => r.requestId)).toEqual(['s9'])
    void shown.catch(() => {})
  })

  it('passes a worker error to the caller and goes on with the queue', async () => {
    const { scheduler, workers, started } = createPool({ maxWorkers: 1 })
    const failing = scheduler.schedule(request('a1'))
    const next = scheduler.schedule(request('a2'))
    workers[0]!.fail('a1', 'Output 1 was not found on the server.')
    await expect(failing).rejects.toThrow('Output 1 was not found on the server.')
    await flush()
    expect(started).toEqual(['a1', 'a2'])
    workers[0]!.finish('a2')
    await expect(next).resolves.toMatchObject({ requestId: 'a2' })
  })

  it('rejects the load of a removed worker and asks for a replacement', async () => {
    const { scheduler, workers } = createPool({ maxWorkers: 1 })
    const load = scheduler.schedule(request('a1'))
    const next = scheduler.schedule(request('a2'))
    scheduler.removeWorker(workers[0]!)
    await expect(load).rejects.toThrow('The data worker stopped.')
    expect(workers).toHaveLength(2)
    expect(workers[1]!.running()).toEqual(['a2'])
    workers[1]!.finish('a2')
    await expect(next).resolves.toBeTruthy()
  })

  it('refuses a request id that is already scheduled', async () => {
    const { scheduler } = createPool()
    void scheduler.schedule(request('a1')).catch(() => {})
    await expect(scheduler.schedule(request('a1'))).rejects.toThrow('already scheduled')
  })

  it('reports loading output numbers and notifies every change', () => {
    const onChange = vi.fn()
    const scheduler = new LoadScheduler<FakeWorker>({ requestWorker: () => {}, onChange })
    void scheduler.schedule(request('x', 'shown', MB, 7)).catch(() => {})
    void scheduler.schedule(request('y', 'prefetch', MB, 3)).catch(() => {})
    void scheduler.schedule(request('z', 'prefetch', MB, 7)).catch(() => {})
    expect(scheduler.loadingOutputNos()).toEqual([3, 7])
    expect(onChange).toHaveBeenCalledTimes(3)
  })

  it('rejects everything on dispose and refuses new loads', async () => {
    const { scheduler } = createPool({ maxWorkers: 1 })
    const a = scheduler.schedule(request('a1'))
    const b = scheduler.schedule(request('a2'))
    scheduler.dispose()
    const results = await Promise.allSettled([a, b, scheduler.schedule(request('a3'))])
    expect(results.every((r) => r.status === 'rejected' && isAbortError(r.reason))).toBe(true)
  })

  it('runs tasks on the pooled workers in priority order with loads, and cancels them', async () => {
    const { scheduler, workers } = createPool({ maxWorkers: 1 })
    const blocking = scheduler.schedule(request('p1', 'prefetch'))
    await flush()
    const ran: string[] = []
    const task = (requestId: string, priority: LoadPriority, value: string) =>
      scheduler.scheduleTask({
        requestId,
        priority,
        estimatedBytes: 0,
        run: (worker) => {
          ran.push(requestId)
          expect(worker).toBe(workers[0])
          return Promise.resolve(value)
        },
      })
    const later = scheduler.schedule(request('p2', 'prefetch'))
    const mesh = task('mesh:part:1', 'shown', 'mesh bytes')
    const cancelled = task('track:part:1', 'shown', 'track')
    expect(scheduler.state().queued.map((q) => [q.requestId, q.key])).toEqual([
      ['mesh:part:1', null],
      ['track:part:1', null],
      ['p2', { simulationId: 1, runId: 1, outputNo: 2 }],
    ])
    scheduler.cancel('track:part:1')
    expect(isAbortError(await cancelled.catch((e: unknown) => e))).toBe(true)
    workers[0]!.finish('p1')
    await blocking
    await expect(mesh).resolves.toBe('mesh bytes')
    await flush()
    expect(ran).toEqual(['mesh:part:1'])
    expect(workers[0]!.started).toEqual(['p1', 'p2'])
    expect(scheduler.loadingOutputNos()).toEqual([2])
    workers[0]!.finish('p2')
    await later
  })

  it('runs at most maxBackgroundLoads playback loads at once, in play order, the shown one beside them', async () => {
    const { scheduler, workers, started, workerOf } = createPool({
      maxWorkers: 12,
      maxBackgroundLoads: 2,
    })
    for (let outputNo = 1; outputNo <= 6; outputNo++)
      void scheduler.schedule(request(`p${outputNo}`, 'playback')).catch(() => {})
    expect(started).toEqual(['p1', 'p2'])
    // Only the workers the running loads need are asked for, not one per queued load.
    expect(workers).toHaveLength(2)
    void scheduler.schedule(request('s9', 'shown')).catch(() => {})
    expect(started).toEqual(['p1', 'p2', 's9'])
    workerOf('p2').finish('p2')
    await flush()
    expect(started).toEqual(['p1', 'p2', 's9', 'p3'])
    workerOf('s9').finish('s9')
    await flush()
    // The shown load's worker does not take a third playback load.
    expect(started).toEqual(['p1', 'p2', 's9', 'p3'])
    expect(scheduler.state().queued.map((q) => q.requestId)).toEqual(['p4', 'p5', 'p6'])
  })

  it('starts workers ahead of any load, up to the maximum, and loads use them without asking again', () => {
    const { scheduler, workers, started } = createPool({ maxWorkers: 3 })
    scheduler.prestartWorkers(2)
    expect(workers).toHaveLength(2)
    scheduler.prestartWorkers(2)
    expect(workers).toHaveLength(2)
    void scheduler.schedule(request('s1', 'shown')).catch(() => {})
    void scheduler.schedule(request('p2', 'playback')).catch(() => {})
    expect(workers).toHaveLength(2)
    expect(started).toEqual(['s1', 'p2'])
    scheduler.prestartWorkers(20)
    expect(workers).toHaveLength(3)
  })

  it('counts workers on their way when starting ahead', () => {
    const requested: number[] = []
    const scheduler = new LoadScheduler<FakeWorker>({ requestWorker: () => requested.push(1) })
    scheduler.prestartWorkers(3)
    void scheduler.schedule(request('s1', 'shown')).catch(() => {})
    expect(requested).toHaveLength(3)
    expect(scheduler.state().pendingWorkerCount).toBe(3)
  })
})

describe('backgroundLoadLimit', () => {
  it('follows the cores, between 2 and the pool maximum, the maximum when unknown', () => {
    expect(backgroundLoadLimit(1)).toBe(2)
    expect(backgroundLoadLimit(2)).toBe(2)
    expect(backgroundLoadLimit(8)).toBe(8)
    expect(backgroundLoadLimit(64)).toBe(12)
    expect(backgroundLoadLimit(undefined)).toBe(12)
    expect(backgroundLoadLimit(Number.NaN)).toBe(12)
  })
})
