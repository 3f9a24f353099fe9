/**
 * The outputs the render worker holds (spec/results.md §9, issue 17): unused outputs freed after
 * 10 s, the playback window one batch of 30 ahead within a memory budget set from the device, and
 * the loading status sent at most once a second. The engine runs with a fake scene, real
 * MessagePorts and a clock and timers of its own.
 */
import { describe, expect, it } from 'vitest'
import { DATA_LOAD_BATCH, UNUSED_OUTPUTS_CLEAR_MS } from '../../domain/constants.ts'
import type {
  DataToRenderMessage,
  LoadRequest,
  LoadSummary,
  RenderSnapshot,
  RenderableOutput,
} from '../protocol.ts'
import { MIN_OUTPUT_BUDGET_BYTES } from './memoryBudget.ts'
import { RenderEngine, type DataWorkerHandle } from './RenderEngine.ts'
import { channelsClosedAfterEach, FakeScene, ResultsOnlyDataWorker } from './testing.ts'

function makeOutput(request: LoadRequest, count: number): RenderableOutput {
  const buffer = new ArrayBuffer(count * 4 * 3)
  return {
    key: request.key,
    timeS: request.key.outputNo * 0.1,
    dataset: request.dataset,
    objects: [
      {
        objectId: 'water',
        kind: 'fluid',
        name: 'Water',
        dataset: request.dataset,
        particleCount: count,
        buffer,
        columns: ['x', 'y', 'z'].map((name, c) => ({
          name,
          byteOffset: c * count * 4,
          length: count,
          range: { min: 0, max: 1 },
          unit: 'm',
        })),
        mesh: null,
      },
    ],
  }
}

/** Answers every load at once on its port (the output, then the reply). */
class InstantDataWorker extends ResultsOnlyDataWorker implements DataWorkerHandle {
  readonly requests: LoadRequest[] = []
  readonly recycled: ArrayBuffer[] = []
  readonly #port: MessagePort
  readonly #count: number

  constructor(port: MessagePort, count: number) {
    super()
    this.#port = port
    this.#count = count
  }

  load(request: LoadRequest): Promise<LoadSummary> {
    this.requests.push(request)
    const message: DataToRenderMessage = {
      type: 'output',
      requestId: request.requestId,
      output: makeOutput(request, this.#count),
    }
    this.#port.postMessage(message)
    return new Promise((resolve) =>
      setTimeout(() =>
        resolve({
          requestId: request.requestId,
          key: request.key,
          fromCache: true,
          bytes: 0,
          decodeMs: 0,
          totalMs: 0,
        }),
      ),
    )
  }
  cancel() {}
  setAccessToken() {}
  recycleBuffers(buffers: ArrayBuffer[]) {
    this.recycled.push(...buffers)
  }
}

const channels = channelsClosedAfterEach()

const macrotask = () => new Promise((resolve) => setTimeout(resolve, 0))

async function start(options: { outputs: number; particles?: number; estimatedBytes?: number }) {
  const clock = { now: 1000 }
  const frames: (() => void)[] = []
  const timers: { atMs: number; run: () => void }[] = []
  const snapshots: { atMs: number; snapshot: RenderSnapshot }[] = []
  const workers: InstantDataWorker[] = []
  let wanted = 0
  const engine = new RenderEngine({
    createScene: () => new FakeScene(),
    scheduleFrame: (callback) => frames.push(callback),
    scheduleTimeout: (run, delayMs) => timers.push({ atMs: clock.now + delayMs, run }),
    nowMs: () => clock.now,
    wrapDataWorker: () => workers[workers.length - 1]!,
  })
  await engine.init(
    {} as OffscreenCanvas,
    { width: 400, height: 300, devicePixelRatio: 1 },
    {
      onSnapshot: (snapshot) => snapshots.push({ atMs: clock.now, snapshot }),
      requestDataWorker: () => {
        wanted++
      },
    },
  )
  /** Runs the engine for `ms` of its clock in 16 ms frames (timers and frames as they fall due). */
  async function run(ms: number): Promise<void> {
    const end = clock.now + ms
    do {
      while (wanted > 0) {
        wanted--
        const channel = new MessageChannel()
        channels.push(channel)
        workers.push(new InstantDataWorker(channel.port2, options.particles ?? 16))
        engine.adoptDataWorker(channel.port1)
      }
      clock.now = Math.min(end, clock.now + 16)
      for (const timer of timers.filter((item) => item.atMs <= clock.now)) {
        timers.splice(timers.indexOf(timer), 1)
        timer.run()
      }
      await macrotask()
      await macrotask()
      for (const frame of frames.splice(0)) frame()
    } while (clock.now < end)
  }
  engine.dispatch({
    type: 'set_outputs',
    simulationId: 7,
    runId: 3,
    outputs: Array.from({ length: options.outputs }, (_, n) => ({
      outputNo: n,
      timeS: n * 0.1,
      bundleUrl: `/api/bundle/${n}`,
      estimatedBytes: options.estimatedBytes ?? 1000,
    })),
  })
  const requested = () => workers.flatMap((worker) => worker.requests.map((r) => r.key.outputNo))
  const last = () => snapshots[snapshots.length - 1]!.snapshot
  return { engine, run, clock, snapshots, workers, requested, last }
}

describe('outputs held by the render worker', () => {
  it('keeps an output nobody uses for 10 s, shows it again without a load, then frees it', async () => {
    const { engine, run, requested, last, workers } = await start({ outputs: 6 })
    engine.dispatch({ type: 'show_output', outputNo: 0 })
    await run(100)
    engine.dispatch({ type: 'show_output', outputNo: 3 })
    await run(1100)
    expect(last().shownOutput).toBe(3)
    // 0 and 1 are unused now, but still in memory.
    expect(last().loadedOutputs).toEqual([0, 1, 3, 4])
    engine.dispatch({ type: 'show_output', outputNo: 0 })
    await run(100)
    expect(last().shownOutput).toBe(0)
    expect(requested().filter((outputNo) => outputNo === 0)).toHaveLength(1)
    // Unused (3 and 4) for 10 s: freed, their buffers back in a data worker's pool.
    const recycledBefore = workers.flatMap((worker) => worker.recycled).length
    await run(UNUSED_OUTPUTS_CLEAR_MS - 1000)
    expect(last().loadedOutputs).toEqual([0, 1, 3, 4])
    await run(1200)
    expect(last().loadedOutputs).toEqual([0, 1])
    expect(workers.flatMap((worker) => worker.recycled).length).toBe(recycledBefore + 2)
  })

  it('plays with one batch of 30 outputs ahead of the shown one', async () => {
    const { engine, run, requested } = await start({ outputs: 50 })
    engine.dispatch({ type: 'play', speed: 1, loop: true })
    await run(100)
    expect(new Set(requested())).toEqual(
      new Set(Array.from({ length: DATA_LOAD_BATCH + 1 }, (_, n) => n)),
    )
    // One step on, one more output joins the window.
    await run(400)
    expect(requested()).toContain(DATA_LOAD_BATCH + 1)
    expect(requested()).not.toContain(DATA_LOAD_BATCH + 2)
  })

  it('reaches 4 s ahead at speed 8: four batches of 30, where speed 1 has one', async () => {
    const { engine, run, requested, last } = await start({ outputs: 300 })
    engine.dispatch({ type: 'play', speed: 8, loop: true })
    await run(300)
    const shown = last().shownOutput ?? 0
    const furthest = Math.max(...requested())
    expect(furthest).toBeGreaterThanOrEqual(4 * DATA_LOAD_BATCH)
    expect(furthest - shown).toBeGreaterThanOrEqual(4 * DATA_LOAD_BATCH - 1)
    expect(furthest - shown).toBeLessThanOrEqual(4 * DATA_LOAD_BATCH + 1)
  })

  it('shortens the playback window to what the memory budget holds', async () => {
    // 3 columns × 4 bytes × 2M particles = 24 MB an output.
    const { engine, run, requested, last } = await start({
      outputs: 50,
      particles: 2_000_000,
      estimatedBytes: 24e6,
    })
    // A 1 GiB device: the smallest budget (128 MiB) holds 5 outputs of 24 MB.
    engine.dispatch({ type: 'set_memory_readings', deviceMemoryGiB: 1, pageBytes: null })
    engine.dispatch({ type: 'play', speed: 1, loop: true })
    await run(100)
    expect(last().memory?.budgetBytes).toBe(MIN_OUTPUT_BUDGET_BYTES)
    expect(new Set(requested())).toEqual(new Set([0, 1, 2, 3, 4]))
    expect(last().memory!.heldBytes).toBeLessThanOrEqual(MIN_OUTPUT_BUDGET_BYTES)
  })

  it('frees unused outputs at once when the outputs held outgrow the budget', async () => {
    // 3 columns × 4 bytes × 2M particles = 24 MB an output; the budget is 128 MiB.
    const { engine, run, last } = await start({ outputs: 20, particles: 2_000_000 })
    engine.dispatch({ type: 'set_memory_readings', deviceMemoryGiB: 1, pageBytes: null })
    for (let outputNo = 0; outputNo < 20; outputNo += 2) {
      engine.dispatch({ type: 'show_output', outputNo })
      await run(50)
      const memory = last().memory!
      expect(memory.heldBytes).toBeLessThanOrEqual(memory.budgetBytes)
    }
    await run(1000)
    expect(last().shownOutput).toBe(18)
    expect(last().loadedOutputs.length).toBeLessThanOrEqual(5)
    expect(last().loadedOutputs).toContain(18)
  })

  it('sends the loading status at most once a second during playback', async () => {
    const { engine, run, snapshots } = await start({ outputs: 400 })
    engine.dispatch({ type: 'play', speed: 8, loop: true })
    await run(5000)
    const changes: number[] = []
    let previous = ''
    for (const { atMs, snapshot } of snapshots) {
      const status = JSON.stringify([snapshot.loadedOutputs, snapshot.loadingOutputs])
      if (status !== previous) changes.push(atMs)
      previous = status
    }
    // At 24 outputs a second the status changed every frame; it went out 5 or 6 times.
    expect(changes.length).toBeGreaterThanOrEqual(4)
    expect(changes.length).toBeLessThanOrEqual(7)
    for (let i = 1; i < changes.length; i++)
      expect(changes[i]! - changes[i - 1]!).toBeGreaterThanOrEqual(1000)
    // The shown output went on at the playback rate meanwhile.
    let steps = 0
    for (let i = 1; i < snapshots.length; i++)
      if (snapshots[i]!.snapshot.shownOutput !== snapshots[i - 1]!.snapshot.shownOutput) steps++
    expect(steps).toBeGreaterThanOrEqual(100)
  })
})
