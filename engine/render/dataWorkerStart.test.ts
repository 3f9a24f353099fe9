/**
 * The data workers playback reads with start with the engine, sized to the device's cores, and
 * playback's loads run on that many at once, in play order (issue 17 item 4: at speed 8 from the
 * cache, steps were late while twelve workers started and read the first batch all together).
 */
import { describe, expect, it } from 'vitest'
import type { LoadRequest, LoadSummary } from '../protocol.ts'
import { RenderEngine, type DataWorkerHandle } from './RenderEngine.ts'
import { channelsClosedAfterEach, FakeScene, ResultsOnlyDataWorker } from './testing.ts'

/** A data worker whose loads never finish: what matters is which loads it was given. */
class HangingDataWorker extends ResultsOnlyDataWorker implements DataWorkerHandle {
  readonly requests: LoadRequest[] = []
  load(request: LoadRequest): Promise<LoadSummary> {
    this.requests.push(request)
    return new Promise(() => undefined)
  }
  cancel() {}
  setAccessToken() {}
}

const channels = channelsClosedAfterEach()

async function start(hardwareConcurrency: number | undefined) {
  const workers: HangingDataWorker[] = []
  let asked = 0
  const engine = new RenderEngine({
    createScene: () => new FakeScene(),
    scheduleFrame: () => undefined,
    scheduleTimeout: () => undefined,
    nowMs: () => 1000,
    wrapDataWorker: () => workers[workers.length - 1]!,
    hardwareConcurrency,
  })
  await engine.init(
    {} as OffscreenCanvas,
    { width: 400, height: 300, devicePixelRatio: 1 },
    { onSnapshot: () => undefined, requestDataWorker: () => void asked++ },
  )
  const adoptAsked = () => {
    for (; asked > 0; asked--) {
      const channel = new MessageChannel()
      channels.push(channel)
      workers.push(new HangingDataWorker())
      engine.adoptDataWorker(channel.port1)
    }
  }
  return { engine, workers, asked: () => asked, adoptAsked }
}

describe('data workers started with the engine', () => {
  it('asks for as many data workers as the device has cores before any load', async () => {
    expect((await start(3)).asked()).toBe(3)
    expect((await start(1)).asked()).toBe(2)
    expect((await start(undefined)).asked()).toBe(12)
  })

  it('runs as many playback loads at once as the device has cores, in play order', async () => {
    const { engine, workers, asked, adoptAsked } = await start(2)
    adoptAsked()
    engine.dispatch({
      type: 'set_outputs',
      simulationId: 7,
      runId: 3,
      outputs: Array.from({ length: 20 }, (_, n) => ({
        outputNo: n,
        timeS: n * 0.1,
        bundleUrl: `/api/bundle/${n}`,
        estimatedBytes: 1000,
      })),
    })
    engine.dispatch({ type: 'play', speed: 8, loop: true, dataset: 'full' })
    const given = () =>
      workers.flatMap((worker) => worker.requests.map((r) => [r.key.outputNo, r.priority]))
    // The shown output and the next (asked for before play), not loaded yet, and a second
    // background load: one more worker for it.
    expect(given()).toEqual([
      [0, 'shown'],
      [1, 'prefetch'],
    ])
    expect(asked()).toBe(1)
    adoptAsked()
    expect(given()).toEqual([
      [0, 'shown'],
      [1, 'prefetch'],
      [2, 'playback'],
    ])
    // The rest of the window waits for those two, whatever the pool's maximum of 12.
    expect(asked()).toBe(0)
  })
})
