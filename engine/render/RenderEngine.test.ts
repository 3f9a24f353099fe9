import { BufferAttribute } from 'three'
import { UNUSED_OUTPUTS_CLEAR_MS } from '../../domain/constants.ts'
import { describe, expect, it } from 'vitest'
import type {
  ColumnSlice,
  DataToRenderMessage,
  LoadRequest,
  LoadSummary,
  RenderCallbacks,
  RenderSnapshot,
  RenderableOutput,
} from '../protocol.ts'
import {
  CONTEXT_LOST_MESSAGE,
  RenderEngine,
  type DataWorkerHandle,
  type EngineScene,
} from './RenderEngine.ts'
import type { ViewportSize } from './RenderScene.ts'
import { channelsClosedAfterEach, FakeScene, ResultsOnlyDataWorker } from './testing.ts'

/** Builds an output whose fluid has `count` particles on a line from 0 to 1 along x. */
function makeOutput(
  request: LoadRequest,
  count: number,
  columns = ['x', 'y', 'z', 'pressure', 'vx', 'vy', 'vz'],
): RenderableOutput {
  const buffer = new ArrayBuffer(count * 4 * columns.length)
  const slices: ColumnSlice[] = columns.map((name, c) => {
    const values = new Float32Array(buffer, c * count * 4, count)
    for (let i = 0; i < count; i++)
      values[i] = name === 'x' ? i / Math.max(1, count - 1) : name === 'pressure' ? 100 + i : 0
    return {
      name,
      byteOffset: c * count * 4,
      length: count,
      range:
        name === 'x'
          ? { min: 0, max: 1 }
          : name === 'pressure'
            ? { min: 100, max: 100 + count - 1 }
            : { min: 0, max: 0 },
      unit: '',
    }
  })
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
        columns: slices,
        mesh: null,
      },
    ],
  }
}

/** A data worker on the far end of a real MessageChannel, answering loads as told. */
class FakeDataWorker extends ResultsOnlyDataWorker implements DataWorkerHandle {
  requests: LoadRequest[] = []
  tokens: (string | null)[] = []
  cancelled: string[] = []
  #port: MessagePort
  #respond: (request: LoadRequest) => 'output' | 'fail' | 'hang'
  #count: number

  constructor(
    port: MessagePort,
    respond: (request: LoadRequest) => 'output' | 'fail' | 'hang',
    count: number,
  ) {
    super()
    this.#port = port
    this.#respond = respond
    this.#count = count
  }

  load(request: LoadRequest): Promise<LoadSummary> {
    this.requests.push(request)
    const summary: LoadSummary = {
      requestId: request.requestId,
      key: request.key,
      fromCache: false,
      bytes: 0,
      decodeMs: 0,
      totalMs: 0,
    }
    const how = this.#respond(request)
    if (how === 'hang') return new Promise(() => undefined)
    const message: DataToRenderMessage =
      how === 'output'
        ? { type: 'output', requestId: request.requestId, output: makeOutput(request, this.#count) }
        : {
            type: 'load_failed',
            requestId: request.requestId,
            key: request.key,
            message: 'The bundle is truncated.',
          }
    this.#port.postMessage(message)
    // The reply follows the output on the same port, like Comlink's.
    return new Promise((resolve, reject) =>
      setTimeout(
        () => (how === 'output' ? resolve(summary) : reject(new Error('The bundle is truncated.'))),
        5,
      ),
    )
  }
  cancel(requestId: string) {
    this.cancelled.push(requestId)
  }
  setAccessToken(token: string | null) {
    this.tokens.push(token)
  }
  recycled: ArrayBuffer[] = []
  recycleBuffers(buffers: ArrayBuffer[]) {
    this.recycled.push(...buffers)
  }
}

interface Harness {
  engine: RenderEngine
  scene: FakeScene
  snapshots: RenderSnapshot[]
  workers: FakeDataWorker[]
  frames: (() => void)[]
  clock: { now: number }
  flush(): Promise<void>
  last(): RenderSnapshot
}

const channels = channelsClosedAfterEach()

async function createHarness(
  options: {
    respond?: (request: LoadRequest) => 'output' | 'fail' | 'hang'
    count?: number
    createScene?: (
      canvas: OffscreenCanvas,
      size: ViewportSize,
      onContextLost: (lost: boolean) => void,
    ) => EngineScene
  } = {},
): Promise<Harness> {
  const scene = new FakeScene()
  const frames: (() => void)[] = []
  const clock = { now: 1000 }
  const snapshots: RenderSnapshot[] = []
  const workers: FakeDataWorker[] = []
  let pendingWorkers = 0
  const engine: RenderEngine = new RenderEngine({
    createScene: options.createScene ?? (() => scene),
    scheduleFrame: (callback) => frames.push(callback),
    scheduleTimeout: () => undefined,
    nowMs: () => clock.now,
    wrapDataWorker: () => workers[workers.length - 1]!,
  })
  const callbacks: RenderCallbacks = {
    onSnapshot: (snapshot) => snapshots.push(snapshot),
    requestDataWorker: () => {
      pendingWorkers++
    },
  }
  await engine.init(
    {} as OffscreenCanvas,
    { width: 400, height: 300, devicePixelRatio: 1 },
    callbacks,
  )
  const harness: Harness = {
    engine,
    scene,
    snapshots,
    workers,
    frames,
    clock,
    async flush() {
      for (let round = 0; round < 5; round++) {
        while (pendingWorkers > 0) {
          pendingWorkers--
          const channel = new MessageChannel()
          channels.push(channel)
          workers.push(
            new FakeDataWorker(
              channel.port2,
              options.respond ?? (() => 'output'),
              options.count ?? 1000,
            ),
          )
          engine.adoptDataWorker(channel.port1)
        }
        await new Promise((resolve) => setTimeout(resolve, 10))
        for (const frame of frames.splice(0)) frame()
      }
    },
    last: () => snapshots[snapshots.length - 1]!,
  }
  return harness
}

/** A left-button pointer event at the canvas origin (spread and override). */
const POINTER = {
  pointerId: 1,
  button: 0,
  buttons: 1,
  x: 0,
  y: 0,
  deltaY: 0,
  shiftKey: false,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
}

function setOutputs(engine: RenderEngine, count: number) {
  engine.dispatch({
    type: 'set_outputs',
    simulationId: 7,
    runId: 3,
    outputs: Array.from({ length: count }, (_, n) => ({
      outputNo: n,
      timeS: n * 0.1,
      bundleUrl: `/api/bundle/${n}`,
      estimatedBytes: 1000,
    })),
  })
}

describe('render engine', () => {
  it('reports a clear error in the snapshot when the 3D view cannot start', async () => {
    const harness = await createHarness({
      createScene: () => {
        throw new Error('WebGL2 is not available')
      },
    })
    await harness.flush()
    expect(harness.last().error).toBe('The 3D view could not start: WebGL2 is not available')
    await expect(harness.engine.saveImage()).rejects.toThrow('WebGL2 is not available')
  })

  it('loads the shown output first through a data worker asked for on demand, then shows it', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 3)
    harness.engine.dispatch({ type: 'set_access_token', token: 'secret' })
    harness.engine.dispatch({ type: 'show_output', outputNo: 2 })
    await harness.flush()
    const first = harness.workers[0]!.requests[0]!
    expect(first.key).toEqual({ simulationId: 7, runId: 3, outputNo: 2 })
    expect(first.priority).toBe('shown')
    expect(first.source).toEqual({ bundleUrl: '/api/bundle/2', accessToken: 'secret' })
    const snapshot = harness.last()
    expect(snapshot.shownOutput).toBe(2)
    expect(snapshot.pointsDrawn).toBe(1000)
    expect(snapshot.loadedOutputs).toContain(2)
    expect(snapshot.error).toBeNull()
    expect(harness.scene.renders).toBeGreaterThan(0)
    // The camera was fitted to the output's bounds (x from 0 to 1).
    expect(snapshot.camera.target[0]).toBeCloseTo(0.5)
  })

  it('keeps the last good frame and reports the error when the shown output fails', async () => {
    const harness = await createHarness({
      respond: (request) => (request.key.outputNo === 1 ? 'fail' : 'output'),
    })
    setOutputs(harness.engine, 3)
    harness.engine.dispatch({ type: 'show_output', outputNo: 0 })
    await harness.flush()
    expect(harness.last().shownOutput).toBe(0)
    const view = harness.scene.shown
    harness.engine.dispatch({ type: 'show_output', outputNo: 1 })
    await harness.flush()
    expect(harness.last().shownOutput).toBe(0)
    expect(harness.scene.shown).toBe(view)
    expect(harness.last().error).toBe('Output 1 could not be loaded. The bundle is truncated.')
    harness.engine.dispatch({ type: 'show_output', outputNo: 2 })
    await harness.flush()
    expect(harness.last().shownOutput).toBe(2)
    expect(harness.last().error).toBeNull()
  })

  it('retries a failed output when it is asked for again', async () => {
    let failing = true
    const harness = await createHarness({
      respond: (request) => (request.key.outputNo === 1 && failing ? 'fail' : 'output'),
    })
    setOutputs(harness.engine, 3)
    harness.engine.dispatch({ type: 'show_output', outputNo: 1 })
    await harness.flush()
    expect(harness.last().error).toBe('Output 1 could not be loaded. The bundle is truncated.')
    failing = false
    harness.engine.dispatch({ type: 'show_output', outputNo: 1 })
    await harness.flush()
    expect(harness.last().error).toBeNull()
    expect(harness.last().shownOutput).toBe(1)
  })

  it('says when the colour attribute is not available for this output', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    harness.engine.dispatch({
      type: 'set_colour',
      attribute: 'temperature',
      columns: ['temperature'],
      scheme: 'rainbow',
      range: null,
    })
    await harness.flush()
    expect(harness.last().colourStatus).toBe('Temperature is not available for this output.')
    expect(harness.last().dataRange).toBeNull()
  })

  it('colours by a column with the data range and the attribute defaults', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    harness.engine.dispatch({
      type: 'set_colour',
      attribute: 'pressure',
      columns: ['pressure'],
      scheme: 'rainbow',
      range: null,
    })
    await harness.flush()
    expect(harness.last().colourStatus).toBeNull()
    expect(harness.last().dataRange).toEqual({ min: 100, max: 1099 })
    // Pressure's colour range starts at 0 (domain DEFAULT_COLOUR_RANGES).
    expect(harness.last().colourRange).toEqual({ min: 0, max: 1099 })
  })

  it('computes a vector magnitude range and changes scheme and range without touching attributes', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    harness.engine.dispatch({
      type: 'set_colour',
      attribute: 'position',
      columns: ['x', 'y', 'z'],
      scheme: 'rainbow',
      range: null,
    })
    await harness.flush()
    expect(harness.last().dataRange).toEqual({ min: 0, max: 1 })
    const points = harness.scene.shown!.objects[0]!.points!
    const versions = ['c0', 'c1', 'c2'].map(
      (name) => (points.geometry.getAttribute(name) as BufferAttribute).version,
    )
    const renders = harness.scene.renders
    harness.engine.dispatch({
      type: 'set_colour',
      attribute: 'position',
      columns: ['x', 'y', 'z'],
      scheme: 'diverging',
      range: { min: 0.2, max: 0.4 },
    })
    await harness.flush()
    expect(harness.scene.colourMaps.at(-1)).toEqual({
      scheme: 'diverging',
      range: { min: 0.2, max: 0.4 },
    })
    expect(
      ['c0', 'c1', 'c2'].map(
        (name) => (points.geometry.getAttribute(name) as BufferAttribute).version,
      ),
    ).toEqual(versions)
    expect(harness.scene.renders).toBe(renders + 1)
  })

  it('draws a detail level as a prefix of the rows', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    await harness.flush()
    harness.engine.dispatch({ type: 'set_detail', level: 'Low' })
    await harness.flush()
    expect(harness.last().pointsDrawn).toBe(100)
    const geometry = harness.scene.shown!.objects[0]!.points!.geometry
    expect(geometry.drawRange).toEqual({ start: 0, count: 100 })
  })

  it('reports a lost graphics context and draws again once it is restored', async () => {
    let report: (lost: boolean) => void = () => undefined
    const scene = new FakeScene()
    const harness = await createHarness({
      createScene: (_canvas, _size, onContextLost) => {
        report = onContextLost
        return scene
      },
    })
    setOutputs(harness.engine, 1)
    await harness.flush()
    report(true)
    harness.engine.dispatch({ type: 'set_detail', level: 'Low' })
    await harness.flush()
    const renders = scene.renders
    expect(harness.last().error).toBe(CONTEXT_LOST_MESSAGE)
    report(false)
    await harness.flush()
    expect(harness.last().error).toBeNull()
    expect(scene.renders).toBe(renders + 1)
  })

  it('skips a frame while the GPU is busy and draws once it is free', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    await harness.flush()
    const renders = harness.scene.renders
    harness.scene.busy = true
    harness.engine.dispatch({ type: 'set_detail', level: 'Medium' })
    await harness.flush()
    expect(harness.scene.renders).toBe(renders)
    expect(harness.last().pointsDrawn).toBe(1000)
    expect(harness.frames.length).toBeGreaterThan(0)
    harness.scene.busy = false
    await harness.flush()
    expect(harness.scene.renders).toBe(renders + 1)
  })

  it('reports an output as shown only once a frame of it was drawn', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 3)
    await harness.flush()
    expect(harness.last().shownOutput).toBe(0)
    harness.scene.busy = true
    harness.engine.dispatch({ type: 'show_output', outputNo: 1 })
    await harness.flush()
    expect(harness.last().loadedOutputs).toContain(1)
    expect(harness.last().shownOutput).toBe(0)
    harness.scene.busy = false
    await harness.flush()
    expect(harness.last().shownOutput).toBe(1)
  })

  it('draws nothing and sends no snapshot when nothing changed', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    await harness.flush()
    const renders = harness.scene.renders
    const sent = harness.snapshots.length
    harness.engine.dispatch({ type: 'set_access_token', token: 'renewed' })
    await harness.flush()
    expect(harness.scene.renders).toBe(renders)
    expect(harness.snapshots.length).toBe(sent)
    harness.engine.dispatch({ type: 'set_detail', level: 'Low' })
    await harness.flush()
    expect(harness.scene.renders).toBe(renders + 1)
    expect(harness.snapshots.length).toBe(sent + 1)
  })

  it('prefetches the playback window and advances on the frame interval', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 40)
    harness.engine.dispatch({ type: 'show_output', outputNo: 0 })
    await harness.flush()
    harness.engine.dispatch({ type: 'play', speed: 1, loop: true })
    await harness.flush()
    const requested = harness.workers.flatMap((worker) =>
      worker.requests.map((r) => r.key.outputNo),
    )
    // One batch (DATA_LOAD_BATCH, 30) ahead of the shown output.
    expect(new Set(requested)).toEqual(new Set(Array.from({ length: 31 }, (_, n) => n)))
    expect(harness.last().playing).toBe(true)
    harness.clock.now += 334
    await harness.flush()
    expect(harness.last().shownOutput).toBe(1)
    expect(harness.last().playbackFrames).toEqual({ shown: 1, late: 0 })
    expect(harness.workers.flatMap((w) => w.requests).some((r) => r.key.outputNo === 31)).toBe(true)
    // The next output's buffers went to the GPU before its turn.
    expect(harness.scene.uploaded.map((view) => view.output.key.outputNo)).toContain(2)
    expect(harness.workers.length).toBeLessThanOrEqual(12)
  })

  it('plays the fast dataset and shows the chosen dataset again on pause', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 4)
    await harness.flush()
    const requests = () => harness.workers.flatMap((worker) => worker.requests)
    const before = new Set(requests().map((r) => r.requestId))
    harness.engine.dispatch({ type: 'play', speed: 1, loop: true })
    await harness.flush()
    const ahead = requests().filter((r) => !before.has(r.requestId))
    expect(ahead.length).toBeGreaterThan(0)
    expect(ahead.every((r) => r.dataset === 'fast')).toBe(true)
    // The output on screen when playback starts is not reloaded.
    expect(
      requests()
        .filter((r) => r.key.outputNo === 0)
        .map((r) => r.dataset),
    ).toEqual(['full'])
    harness.clock.now += 334
    await harness.flush()
    expect(harness.last().shownOutput).toBe(1)
    harness.engine.dispatch({ type: 'pause' })
    await harness.flush()
    expect(requests().some((r) => r.key.outputNo === 1 && r.dataset === 'full')).toBe(true)
    expect(harness.scene.shown!.output.dataset).toBe('full')
  })

  it('drops outputs outside the window and frees their GPU buffers', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 5)
    harness.engine.dispatch({ type: 'show_output', outputNo: 0 })
    await harness.flush()
    const geometry = harness.scene.shown!.objects[0]!.points!.geometry
    const px = geometry.getAttribute('px') as BufferAttribute
    let disposed = false
    geometry.addEventListener('dispose', () => {
      disposed = true
    })
    harness.engine.dispatch({ type: 'show_output', outputNo: 3 })
    await harness.flush()
    expect(harness.last().shownOutput).toBe(3)
    // Outputs unused for 10 s are freed (spec/results.md §9); this harness runs no timers, so the
    // next sync after that frees them (outputMemory.test.ts has the engine's own sweep).
    harness.clock.now += UNUSED_OUTPUTS_CLEAR_MS
    harness.engine.dispatch({ type: 'show_output', outputNo: 3 })
    await harness.flush()
    expect(disposed).toBe(true)
    expect(harness.last().loadedOutputs).toEqual([3, 4])
    // The dropped outputs' column buffers went back to the data workers' pools.
    const recycled = harness.workers.flatMap((worker) => worker.recycled)
    expect(recycled).toContain(px.array.buffer)
  })

  it('cancels loads that leave the window', async () => {
    const harness = await createHarness({ respond: () => 'hang' })
    setOutputs(harness.engine, 5)
    harness.engine.dispatch({ type: 'show_output', outputNo: 0 })
    await harness.flush()
    expect(harness.last().loadingOutputs).toEqual([0, 1])
    harness.engine.dispatch({ type: 'show_output', outputNo: 3 })
    // The loading status goes out at most once a second.
    harness.clock.now += 1000
    await harness.flush()
    expect(harness.last().loadingOutputs).toEqual([3, 4])
    const cancelled = harness.workers.flatMap((worker) => worker.cancelled)
    expect(cancelled.length).toBe(2)
  })

  it('picks the particle under a click and reports its colour value', async () => {
    const harness = await createHarness({ count: 11 })
    setOutputs(harness.engine, 1)
    harness.engine.dispatch({
      type: 'set_colour',
      attribute: 'pressure',
      columns: ['pressure'],
      scheme: 'rainbow',
      range: null,
    })
    harness.engine.dispatch({ type: 'view_orientation', direction: [0, 0, -1], up: [0, 1, 0] })
    await harness.flush()
    // The orientation animation (0.7 s) ends.
    harness.clock.now += 700
    await harness.flush()
    // Looking down z at the line x ∈ [0, 1] centred on 0.5: x = 0.5 is the centre of the canvas.
    harness.engine.dispatch({ type: 'pick', x: 200, y: 150 })
    await harness.flush()
    const pick = harness.last().pick
    expect(pick?.objectId).toBe('water')
    expect(pick?.index).toBe(5)
    expect(pick?.value).toBe(105)
  })

  it('hovers the particle under a moving pointer at most every 30 ms and clears it on leave', async () => {
    const harness = await createHarness({ count: 11 })
    setOutputs(harness.engine, 1)
    harness.engine.dispatch({ type: 'view_orientation', direction: [0, 0, -1], up: [0, 1, 0] })
    await harness.flush()
    // The orientation animation (0.7 s) ends.
    harness.clock.now += 700
    await harness.flush()
    const move = {
      pointerId: 1,
      button: 0,
      buttons: 0,
      deltaY: 0,
      shiftKey: false,
      ctrlKey: false,
      altKey: false,
      metaKey: false,
    }
    harness.engine.forwardPointer({ ...move, type: 'pointermove', x: 200, y: 150 })
    await harness.flush()
    expect(harness.last().hover?.index).toBe(5)
    harness.clock.now += 10
    harness.engine.forwardPointer({ ...move, type: 'pointermove', x: 5, y: 5 })
    await harness.flush()
    // Within 30 ms of the last hover pick: the old result stands until the throttle lets go.
    expect(harness.last().hover?.index).toBe(5)
    harness.clock.now += 30
    await harness.flush()
    expect(harness.last().hover).toBeNull()
    harness.engine.forwardPointer({ ...move, type: 'pointermove', x: 200, y: 150 })
    harness.clock.now += 30
    await harness.flush()
    expect(harness.last().hover?.index).toBe(5)
    harness.engine.forwardPointer({ ...move, type: 'pointerleave', x: 200, y: 150 })
    await harness.flush()
    expect(harness.last().hover).toBeNull()
  })

  it('keeps position, up and target when switching camera mode', async () => {
    const harness = await createHarness()
    await harness.flush()
    const before = harness.last().camera
    harness.engine.dispatch({ type: 'set_camera_mode', mode: 'orthographic' })
    await harness.flush()
    const after = harness.last().camera
    expect(after.mode).toBe('orthographic')
    expect(after.position).toEqual(before.position)
    expect(after.target).toEqual(before.target)
    expect(after.up).toEqual(before.up)
  })

  it('reports a scale bar and orbits from forwarded pointer events', async () => {
    const harness = await createHarness()
    await harness.flush()
    expect(harness.last().scaleBar).not.toBeNull()
    const before = harness.last().camera
    const base = {
      pointerId: 1,
      button: 0,
      buttons: 1,
      deltaY: 0,
      shiftKey: false,
      ctrlKey: false,
      altKey: false,
      metaKey: false,
    }
    harness.engine.forwardPointer({ ...base, type: 'pointerdown', x: 10, y: 10 })
    harness.engine.forwardPointer({ ...base, type: 'pointermove', x: 60, y: 10 })
    harness.engine.forwardPointer({ ...base, type: 'pointerup', buttons: 0, x: 60, y: 10 })
    await harness.flush()
    expect(harness.last().camera.position).not.toEqual(before.position)
    expect(harness.last().camera.target).toEqual(before.target)
  })
  it('turns the camera to a view orientation over 0.7 s and ends exactly there', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    await harness.flush()
    const before = harness.last().camera
    harness.engine.dispatch({ type: 'view_orientation', direction: [-1, 0, 0], up: [0, 0, 1] })
    await harness.flush()
    expect(harness.last().cameraAnimating).toBe(true)
    harness.clock.now += 350
    await harness.flush()
    const halfway = harness.last().camera
    expect(halfway.position).not.toEqual(before.position)
    expect(harness.last().cameraAnimating).toBe(true)
    harness.clock.now += 400
    await harness.flush()
    const after = harness.last().camera
    expect(harness.last().cameraAnimating).toBe(false)
    expect(after.target).toEqual(before.target)
    const offset = after.position.map((c, i) => c - (after.target[i] ?? 0))
    const distance = Math.hypot(...offset)
    const beforeDistance = Math.hypot(...before.position.map((c, i) => c - (before.target[i] ?? 0)))
    expect(distance).toBeCloseTo(beforeDistance, 6)
    // Looking along -x: the camera sits on the +x side of the target.
    expect(offset[0]! / distance).toBeCloseTo(1, 6)
    expect(after.up).toEqual([0, 0, 1])
    expect(Math.hypot(...halfway.up)).toBeCloseTo(1, 9)
  })

  it('stops an orientation animation where it is when the user drags the view', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    await harness.flush()
    harness.engine.dispatch({ type: 'view_orientation', direction: [0, 0, -1], up: [0, 1, 0] })
    await harness.flush()
    harness.clock.now += 200
    await harness.flush()
    const base = {
      pointerId: 1,
      button: 0,
      buttons: 1,
      deltaY: 0,
      shiftKey: false,
      ctrlKey: false,
      altKey: false,
      metaKey: false,
    }
    harness.engine.forwardPointer({ ...base, type: 'pointerdown', x: 10, y: 10 })
    harness.engine.forwardPointer({ ...base, type: 'pointermove', x: 30, y: 10 })
    harness.engine.forwardPointer({ ...base, type: 'pointerup', buttons: 0, x: 30, y: 10 })
    await harness.flush()
    expect(harness.last().cameraAnimating).toBe(false)
    const stopped = harness.last().camera
    harness.clock.now += 1000
    await harness.flush()
    expect(harness.last().camera).toEqual(stopped)
  })

  it('switches camera mode during an orientation animation and still ends at the orientation', async () => {
    const harness = await createHarness()
    await harness.flush()
    harness.engine.dispatch({ type: 'view_orientation', direction: [0, -1, 0], up: [0, 0, 1] })
    await harness.flush()
    harness.clock.now += 100
    await harness.flush()
    harness.engine.dispatch({ type: 'set_camera_mode', mode: 'orthographic' })
    harness.clock.now += 1000
    await harness.flush()
    const camera = harness.last().camera
    expect(camera.mode).toBe('orthographic')
    expect(camera.position[1] - camera.target[1]).toBeGreaterThan(0)
    expect(Math.abs(camera.position[0] - camera.target[0])).toBeLessThan(1e-9)
  })

  it('shows the coordinate-system axes at the origin, scaled to the scene, when asked', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    await harness.flush()
    expect(harness.scene.axes.visible).toBe(false)
    expect(harness.last().coordinateSystem).toBe(false)
    const rendersBefore = harness.scene.renders
    harness.engine.dispatch({ type: 'set_coordinate_system', visible: true })
    await harness.flush()
    expect(harness.scene.axes.visible).toBe(true)
    // The fluid spans 0..1 m along x: radius 0.5 m, axes 0.2 m.
    expect(harness.scene.axes.lengthM).toBeCloseTo(0.2, 6)
    expect(harness.last().coordinateSystem).toBe(true)
    expect(harness.scene.renders).toBeGreaterThan(rendersBefore)
    harness.engine.dispatch({ type: 'set_coordinate_system', visible: false })
    await harness.flush()
    expect(harness.scene.axes.visible).toBe(false)
  })

  it('sets the point size within 1 to 64 px and reports it with the output bounds', async () => {
    const harness = await createHarness()
    setOutputs(harness.engine, 1)
    await harness.flush()
    expect(harness.last().pointSizePx).toBe(15)
    expect(harness.last().bounds).toEqual({ min: [0, 0, 0], max: [1, 0, 0] })
    harness.engine.dispatch({ type: 'set_point_size', sizePx: 4 })
    await harness.flush()
    expect(harness.scene.pointSizePx).toBe(4)
    expect(harness.last().pointSizePx).toBe(4)
    harness.engine.dispatch({ type: 'set_point_size', sizePx: 500 })
    await harness.flush()
    expect(harness.scene.pointSizePx).toBe(64)
  })
  it('picks on a click only once the 300 ms double-click window has passed', async () => {
    const harness = await createHarness({ count: 11 })
    setOutputs(harness.engine, 1)
    harness.engine.dispatch({ type: 'view_orientation', direction: [0, 0, -1], up: [0, 1, 0] })
    await harness.flush()
    harness.clock.now += 700
    await harness.flush()
    const press = { ...POINTER, x: 200, y: 150 }
    harness.engine.forwardPointer({ ...press, type: 'pointerdown' })
    harness.engine.forwardPointer({ ...press, type: 'pointerup', buttons: 0 })
    await harness.flush()
    expect(harness.last().pick).toBeNull()
    harness.clock.now += 301
    await harness.flush()
    expect(harness.last().pick?.index).toBe(5)
  })

  it('centres the view on the particle under a double-click, keeping the view direction', async () => {
    const harness = await createHarness({ count: 11 })
    setOutputs(harness.engine, 1)
    harness.engine.dispatch({ type: 'view_orientation', direction: [0, 0, -1], up: [0, 1, 0] })
    await harness.flush()
    harness.clock.now += 700
    await harness.flush()
    const before = harness.last().camera
    // The particle at x = 0.9 m lies 0.4 m right of the centre (x = 0.5 m).
    const metresPerPixel =
      (2 * (before.position[2] - before.target[2]) * Math.tan(Math.PI / 8)) / 300
    const press = { ...POINTER, x: 200 + 0.4 / metresPerPixel, y: 150 }
    for (let click = 0; click < 2; click++) {
      harness.engine.forwardPointer({ ...press, type: 'pointerdown' })
      harness.engine.forwardPointer({ ...press, type: 'pointerup', buttons: 0 })
      harness.clock.now += 100
    }
    await harness.flush()
    expect(harness.last().pick?.index).toBe(9)
    harness.clock.now += 700
    await harness.flush()
    const after = harness.last().camera
    expect(after.target[0]).toBeCloseTo(0.9, 5)
    expect(after.position[0] - after.target[0]).toBeCloseTo(
      before.position[0] - before.target[0],
      9,
    )
    expect(after.position[2] - after.target[2]).toBeCloseTo(
      before.position[2] - before.target[2],
      9,
    )
  })
})
