import * as Comlink from 'comlink'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEngine, toForwardedPointerEvent, type Engine, type WorkerLike } from './client.ts'
import {
  MAX_DATA_WORKERS,
  type DataWorkerApi,
  type ForwardedKeyEvent,
  type ForwardedPointerEvent,
  type LoadRequest,
  type RenderCallbacks,
  type RenderIntent,
  type RenderSnapshot,
  type RenderWorkerApi,
} from './protocol.ts'

/*
 * The client runs here against fake workers: each "worker" is one end of a MessageChannel with a
 * Comlink-exposed fake on the other end, so every call crosses a real structured-clone boundary.
 */

const SNAPSHOT: RenderSnapshot = {
  camera: { position: [1, 2, 3], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
  fps: 30,
  pointsDrawn: 1234,
  trianglesDrawn: 0,
  shownOutput: 2,
  loadedOutputs: [2],
  loadingOutputs: [],
  bytesInFlight: 0,
  dataRange: { min: 0, max: 1 },
  colourRange: { min: 0, max: 1 },
  playing: false,
  speed: 1,
  scaleBar: null,
  pick: null,
  hover: null,
  error: null,
  colourStatus: null,
}

function fakeWorker(api: object): WorkerLike & { terminated: boolean } {
  const channel = new MessageChannel()
  Comlink.expose(api, channel.port2)
  const worker = Object.assign(channel.port1, {
    terminated: false,
    terminate() {
      worker.terminated = true
      channel.port1.close()
      channel.port2.close()
    },
  })
  return worker
}

class FakeRender implements RenderWorkerApi {
  size: { width: number; height: number; devicePixelRatio: number } | null = null
  canvas: unknown = null
  /** A Comlink proxy of the client's callbacks: every call returns a promise. */
  callbacks: Comlink.Remote<RenderCallbacks> | null = null
  intents: RenderIntent[] = []
  pointers: ForwardedPointerEvent[] = []
  keys: ForwardedKeyEvent[] = []
  dataPorts: MessagePort[] = []
  disposed = false
  initError: string | null = null

  async init(
    canvas: OffscreenCanvas,
    size: { width: number; height: number; devicePixelRatio: number },
    callbacks: RenderCallbacks,
  ): Promise<void> {
    if (this.initError) throw new Error(this.initError)
    this.canvas = canvas
    this.size = size
    this.callbacks = callbacks as unknown as Comlink.Remote<RenderCallbacks>
    // Starting takes a moment: intents sent meanwhile must wait for it.
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  adoptDataWorker(port: MessagePort): void {
    this.dataPorts.push(port)
  }
  dispatch(intent: RenderIntent): void {
    this.intents.push(intent)
  }
  forwardPointer(event: ForwardedPointerEvent): void {
    this.pointers.push(event)
  }
  forwardKey(event: ForwardedKeyEvent): void {
    this.keys.push(event)
  }
  saveImage(): Promise<Blob> {
    return Promise.resolve(new Blob(['png bytes'], { type: 'image/png' }))
  }
  dispose(): void {
    this.disposed = true
  }
}

function createFakeData() {
  const loads: LoadRequest[] = []
  const tokens: (string | null)[] = []
  let renderPort: MessagePort | null = null
  const api: Partial<DataWorkerApi> = {
    connectRenderPort(port) {
      renderPort = port
      // The render worker calls this data worker over the port: expose the same API there.
      Comlink.expose(api, port)
    },
    load(request) {
      loads.push(request)
      return Promise.resolve({
        requestId: request.requestId,
        key: request.key,
        fromCache: false,
        bytes: 0,
        decodeMs: 0,
        totalMs: 0,
      })
    },
    setAccessToken(token) {
      tokens.push(token)
    },
  }
  return { api, loads, tokens, hasRenderPort: () => renderPort !== null }
}

function fakeCanvas() {
  const target = new EventTarget()
  const offscreen = new MessageChannel().port1
  return Object.assign(target, {
    clientWidth: 640.4,
    clientHeight: 0,
    transferControlToOffscreen: () => offscreen,
    getBoundingClientRect: () => ({ left: 10, top: 20 }),
    setPointerCapture: vi.fn(),
  }) as unknown as HTMLCanvasElement
}

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

const engines: Engine[] = []
afterEach(() => {
  for (const engine of engines.splice(0)) engine.dispose()
})

function start(render = new FakeRender(), options: { token?: string } = {}) {
  const dataWorkers: ReturnType<typeof createFakeData>[] = []
  const workers: (WorkerLike & { terminated: boolean })[] = []
  const renderWorker = fakeWorker(render)
  const canvas = fakeCanvas()
  const engine = createEngine(canvas, {
    createRenderWorker: () => renderWorker,
    createDataWorker: () => {
      const data = createFakeData()
      dataWorkers.push(data)
      const worker = fakeWorker(data.api)
      workers.push(worker)
      return worker
    },
    devicePixelRatio: 2,
    accessToken: options.token ?? null,
  })
  engines.push(engine)
  return { engine, render, renderWorker, canvas, dataWorkers, workers }
}

describe('createEngine', () => {
  it('hands the canvas to the render worker with its CSS size (at least 1 px) and pixel ratio', async () => {
    const { engine, render } = start()
    expect(engine.getState().status).toBe('starting')
    await engine.ready
    expect(render.size).toEqual({ width: 640, height: 1, devicePixelRatio: 2 })
    expect(render.canvas).not.toBeNull()
    expect(engine.getState().status).toBe('ready')
  })

  it('holds intents sent before the render worker started and delivers them in order, token first', async () => {
    const { engine, render } = start(new FakeRender(), { token: 'secret' })
    engine.dispatch({ type: 'show_output', outputNo: 3 })
    engine.dispatch({ type: 'set_speed', speed: 2 })
    await engine.ready
    await until(() => render.intents.length === 4)
    expect(render.intents).toEqual([
      { type: 'set_access_token', token: 'secret' },
      { type: 'show_output', outputNo: 3 },
      { type: 'set_speed', speed: 2 },
      // Then what the page knows of memory (Node: no navigator.deviceMemory, nothing measured).
      { type: 'set_memory_readings', deviceMemoryGiB: null, pageBytes: null },
    ])
  })

  it('spawns a data worker on request and wires a direct port between it and the render worker', async () => {
    const { engine, render, dataWorkers } = start(new FakeRender(), { token: 'secret' })
    await engine.ready
    await render.callbacks!.requestDataWorker()
    await until(() => render.dataPorts.length === 1)
    expect(dataWorkers).toHaveLength(1)
    expect(dataWorkers[0]!.hasRenderPort()).toBe(true)
    expect(dataWorkers[0]!.tokens).toEqual(['secret'])
    // The render worker reaches the data worker over the adopted port, not via the main thread.
    const remote = Comlink.wrap<DataWorkerApi>(render.dataPorts[0]!)
    const summary = await remote.load({
      requestId: 'r1',
      key: { simulationId: 1, runId: 1, outputNo: 0 },
      source: { bundleUrl: '/api/x', accessToken: 'secret' },
      dataset: 'full',
      objectIds: [],
      estimatedBytes: 10,
      priority: 'shown',
    })
    expect(summary.requestId).toBe('r1')
    expect(dataWorkers[0]!.loads.map((load) => load.requestId)).toEqual(['r1'])
    expect(engine.getState().dataWorkerCount).toBe(1)
  })

  it(`never runs more than ${MAX_DATA_WORKERS} data workers`, async () => {
    const { engine, render, dataWorkers } = start()
    await engine.ready
    await Promise.all(
      Array.from({ length: MAX_DATA_WORKERS + 3 }, () => render.callbacks!.requestDataWorker()),
    )
    await until(() => render.dataPorts.length === MAX_DATA_WORKERS)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(dataWorkers).toHaveLength(MAX_DATA_WORKERS)
  })

  it('passes every snapshot to subscribers and keeps the latest in its state', async () => {
    const { engine, render } = start()
    const seen: (RenderSnapshot | null)[] = []
    engine.subscribe((state) => seen.push(state.snapshot))
    await engine.ready
    await render.callbacks!.onSnapshot(SNAPSHOT)
    await render.callbacks!.onSnapshot({ ...SNAPSHOT, shownOutput: 3 })
    expect(engine.getState().snapshot?.shownOutput).toBe(3)
    expect(seen.filter((snapshot) => snapshot !== null)).toHaveLength(2)
  })

  it('reports a render worker that cannot start as failed, with its message, and drops intents', async () => {
    const render = new FakeRender()
    render.initError = 'WebGL2 is not available.'
    const { engine } = start(render)
    await expect(engine.ready).rejects.toThrow('WebGL2 is not available.')
    expect(engine.getState()).toMatchObject({
      status: 'failed',
      failure: 'WebGL2 is not available.',
    })
    engine.dispatch({ type: 'pause' })
    await expect(engine.saveImage()).rejects.toThrow()
    expect(render.intents).toEqual([])
  })

  it('forwards wheel events relative to the canvas and keeps the page from scrolling', async () => {
    const { engine, render, canvas } = start()
    await engine.ready
    const wheel = Object.assign(new Event('wheel', { cancelable: true }), {
      button: 0,
      buttons: 0,
      clientX: 110,
      clientY: 70,
      deltaY: 3,
      deltaMode: 1,
      shiftKey: false,
      ctrlKey: true,
      altKey: false,
      metaKey: false,
    })
    canvas.dispatchEvent(wheel)
    expect(wheel.defaultPrevented).toBe(true)
    await until(() => render.pointers.length === 1)
    expect(render.pointers[0]).toMatchObject({ type: 'wheel', x: 100, y: 50, deltaY: 48 })
  })

  it('forwards camera keys of the canvas without scrolling the page, and leaves other keys alone', async () => {
    const { engine, render, canvas } = start()
    await engine.ready
    const press = (key: string, shiftKey = false) => {
      const event = Object.assign(new Event('keydown', { cancelable: true }), {
        key,
        shiftKey,
        ctrlKey: false,
        altKey: false,
        metaKey: false,
      })
      canvas.dispatchEvent(event)
      return event.defaultPrevented
    }
    expect(press('ArrowLeft', true)).toBe(true)
    expect(press('PageUp')).toBe(true)
    // Space plays and pauses (the page's shortcut) and Tab moves on: not the camera's.
    expect(press(' ')).toBe(false)
    expect(press('Tab')).toBe(false)
    await until(() => render.keys.length === 2)
    expect(render.keys.map((key) => [key.key, key.shiftKey])).toEqual([
      ['ArrowLeft', true],
      ['PageUp', false],
    ])
  })

  it('pushes a new access token to the render worker and to every data worker', async () => {
    const { engine, render, dataWorkers } = start()
    await engine.ready
    await render.callbacks!.requestDataWorker()
    await until(() => render.dataPorts.length === 1)
    engine.setAccessToken('fresh')
    await until(() => dataWorkers[0]!.tokens.includes('fresh'))
    await until(() => render.intents.length === 2)
    expect(render.intents[1]).toEqual({ type: 'set_access_token', token: 'fresh' })
  })

  it('saves the image the render worker draws', async () => {
    const { engine } = start()
    await engine.ready
    const blob = await engine.saveImage()
    expect(await blob.text()).toBe('png bytes')
  })

  it('disposes the render worker, terminates every worker and notifies no one afterwards', async () => {
    const { engine, render, renderWorker, workers } = start()
    const listener = vi.fn()
    engine.subscribe(listener)
    await engine.ready
    await render.callbacks!.requestDataWorker()
    await until(() => render.dataPorts.length === 1)
    listener.mockClear()
    engine.dispose()
    await until(() => renderWorker.terminated)
    expect(render.disposed).toBe(true)
    expect(workers.every((worker) => worker.terminated)).toBe(true)
    expect(engine.getState().status).toBe('disposed')
    expect(listener).not.toHaveBeenCalled()
  })
})

describe('toForwardedPointerEvent', () => {
  it('gives pointer positions in CSS pixels relative to the canvas and no wheel delta', () => {
    const event = {
      type: 'pointermove',
      pointerId: 7,
      button: -1,
      buttons: 1,
      clientX: 50,
      clientY: 40,
      shiftKey: true,
      ctrlKey: false,
      altKey: false,
      metaKey: false,
    } as PointerEvent
    expect(toForwardedPointerEvent(event, { left: 20, top: 10 })).toEqual({
      type: 'pointermove',
      pointerId: 7,
      button: -1,
      buttons: 1,
      x: 30,
      y: 30,
      deltaY: 0,
      shiftKey: true,
      ctrlKey: false,
      altKey: false,
      metaKey: false,
    })
  })
})
