/**
 * Playback rate over loads slower than a frame: one data worker whose every load takes 400 ms of
 * the engine's clock (2.5 loads a second against 3 frames a second at speed 1).
 */
import { describe, expect, it } from 'vitest'
import type {
  DataToRenderMessage,
  LoadRequest,
  LoadSummary,
  RenderSnapshot,
  RenderableOutput,
} from '../protocol.ts'
import { RenderEngine, type DataWorkerHandle } from './RenderEngine.ts'
import { channelsClosedAfterEach, FakeScene, ResultsOnlyDataWorker } from './testing.ts'

const LOAD_MS = 400
const OUTPUTS = 20

function makeOutput(request: LoadRequest): RenderableOutput {
  const count = 16
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
          range: { min: 0, max: 0 },
          unit: 'm',
        })),
        mesh: null,
      },
    ],
  }
}

/** A data worker on a real MessageChannel answering one load at a time, LOAD_MS after it starts. */
class SlowDataWorker extends ResultsOnlyDataWorker implements DataWorkerHandle {
  readonly requests: LoadRequest[] = []
  readonly #port: MessagePort
  readonly #due: { atMs: number; answer: () => void }[]
  readonly #clock: { now: number }

  constructor(port: MessagePort, due: SlowDataWorker['due'], clock: { now: number }) {
    super()
    this.#port = port
    this.#due = due
    this.#clock = clock
  }

  get due() {
    return this.#due
  }

  load(request: LoadRequest): Promise<LoadSummary> {
    this.requests.push(request)
    return new Promise((resolve) => {
      this.#due.push({
        atMs: this.#clock.now + LOAD_MS,
        answer: () => {
          const message: DataToRenderMessage = {
            type: 'output',
            requestId: request.requestId,
            output: makeOutput(request),
          }
          this.#port.postMessage(message)
          // The reply follows the output on the same port, like Comlink's.
          setTimeout(() =>
            resolve({
              requestId: request.requestId,
              key: request.key,
              fromCache: true,
              bytes: 0,
              decodeMs: 0,
              totalMs: LOAD_MS,
            }),
          )
        },
      })
    })
  }
  // A cancelled load still holds the worker until its answer (the scheduler waits for it).
  cancel() {}
  setAccessToken() {}
  recycleBuffers() {}
}

const channels = channelsClosedAfterEach()

const macrotask = () => new Promise((resolve) => setTimeout(resolve, 0))

async function start() {
  const clock = { now: 1000 }
  const frames: (() => void)[] = []
  const due: { atMs: number; answer: () => void }[] = []
  const snapshots: RenderSnapshot[] = []
  let worker: SlowDataWorker | null = null
  let workerWanted = false
  const engine = new RenderEngine({
    createScene: () => new FakeScene(),
    scheduleFrame: (callback) => frames.push(callback),
    scheduleTimeout: () => undefined,
    nowMs: () => clock.now,
    wrapDataWorker: () => worker!,
  })
  await engine.init(
    {} as OffscreenCanvas,
    { width: 400, height: 300, devicePixelRatio: 1 },
    {
      onSnapshot: (snapshot) => snapshots.push(snapshot),
      // One data worker only, however many the scheduler asks for.
      requestDataWorker: () => {
        workerWanted = worker === null
      },
    },
  )
  /** Runs the engine for `ms` of its clock in 16 ms frames; returns the outputs drawn in turn. */
  async function run(ms: number): Promise<number[]> {
    const drawn: number[] = []
    const end = clock.now + ms
    while (clock.now < end) {
      if (workerWanted) {
        workerWanted = false
        const channel = new MessageChannel()
        channels.push(channel)
        worker = new SlowDataWorker(channel.port2, due, clock)
        engine.adoptDataWorker(channel.port1)
      }
      clock.now += 16
      for (const item of due.filter((item) => item.atMs <= clock.now)) {
        due.splice(due.indexOf(item), 1)
        item.answer()
      }
      await macrotask()
      await macrotask()
      for (const frame of frames.splice(0)) frame()
      const shown = snapshots[snapshots.length - 1]?.shownOutput ?? null
      if (shown !== null && shown !== drawn[drawn.length - 1]) drawn.push(shown)
    }
    return drawn
  }
  engine.dispatch({
    type: 'set_outputs',
    simulationId: 7,
    runId: 3,
    outputs: Array.from({ length: OUTPUTS }, (_, n) => ({
      outputNo: n,
      timeS: n * 0.1,
      bundleUrl: `/api/bundle/${n}`,
      estimatedBytes: 1000,
    })),
  })
  engine.dispatch({ type: 'show_output', outputNo: 0 })
  return { engine, run, last: () => snapshots[snapshots.length - 1]! }
}

describe('playback over slow loads', () => {
  it('plays the next loop at 3 outputs a second from the outputs loaded in the first', async () => {
    const { engine, run, last } = await start()
    expect(await run(1000)).toEqual([0])
    engine.dispatch({ type: 'play', speed: 1, loop: true })
    // The first loop goes at the loads' pace (2.5 a second).
    await run(OUTPUTS * LOAD_MS + 1000)
    const loaded = last().loadedOutputs ?? []
    expect(loaded.length).toBeGreaterThan(OUTPUTS - 2)
    // The next 6 s: 18 outputs at 3 a second, each of them drawn, nothing loaded again.
    const drawn = await run(6000)
    expect(drawn.length).toBeGreaterThanOrEqual(17)
    for (let i = 1; i < drawn.length; i++) expect(drawn[i]).toBe((drawn[i - 1]! + 1) % OUTPUTS)
  }, 60_000)
})
