/**
 * The engine client: the only engine code the main thread runs. It starts the render worker with
 * the canvas (as an OffscreenCanvas), spawns data workers when the render worker asks for one and
 * wires a MessageChannel between each data worker and the render worker (engine/protocol.ts), and
 * forwards pointer, wheel, camera key and resize events. The UI talks to it with intents and reads snapshots;
 * particle buffers go data worker → render worker and never pass through here.
 */
import * as Comlink from 'comlink'
import {
  MAX_DATA_WORKERS,
  type DataWorkerApi,
  type ForwardedKeyEvent,
  type ForwardedPointerEvent,
  type RenderIntent,
  type RenderSnapshot,
  type RenderWorkerApi,
} from './protocol.ts'
import { startMemoryReadings } from './memoryReadings.ts'
import { isCameraKey } from './render/keyboardControls.ts'
import type { SetupEvent } from './setupProtocol.ts'

/** A worker, or anything that speaks postMessage like one (tests use a MessagePort). */
export type WorkerLike = Comlink.Endpoint & { terminate(): void }

/** Where the engine is in its life. */
export type EngineStatus = 'starting' | 'ready' | 'failed' | 'disposed'

/** What the UI reads: the status, the latest snapshot, and why starting failed. */
export interface EngineState {
  status: EngineStatus
  /** Latest snapshot from the render worker (null until the first one). */
  snapshot: RenderSnapshot | null
  /** A clear message when the engine could not start or a worker died. */
  failure: string | null
  /** Data workers spawned so far (at most MAX_DATA_WORKERS). */
  dataWorkerCount: number
}

/** Options of {@link createEngine}; the worker factories are for tests and benches. */
export interface EngineOptions {
  createRenderWorker?: () => WorkerLike
  createDataWorker?: () => WorkerLike
  /** Default window.devicePixelRatio. */
  devicePixelRatio?: number
  /** Bearer token the data workers fetch bundles with; update it with `setAccessToken`. */
  accessToken?: string | null
}

/** The engine as the UI holds it. */
export interface Engine {
  /** Sends an intent to the render worker (queued until it has started). */
  dispatch(intent: RenderIntent): void
  /** Pushes a new bearer token to the render worker and every data worker. */
  setAccessToken(token: string | null): void
  /** The current frame as a PNG. */
  saveImage(): Promise<Blob>
  getState(): EngineState
  /** Calls `listener` after every state change; returns the unsubscribe. */
  subscribe(listener: (state: EngineState) => void): () => void
  /** Calls `listener` with what a person did in the setup view; returns the unsubscribe. */
  onSetupEvent(listener: (event: SetupEvent) => void): () => void
  /** Resolves when the render worker has the canvas; rejects when it cannot start. */
  ready: Promise<void>
  /** Stops listening, disposes the render worker and terminates every worker. */
  dispose(): void
}

/** Grace given to the render worker's own dispose() before its worker is terminated. */
const DISPOSE_GRACE_MS = 250

/** Pointer events forwarded from the canvas (wheel separately: it needs preventDefault). */
const POINTER_EVENT_TYPES = [
  'pointerdown',
  'pointermove',
  'pointerup',
  'pointercancel',
  'pointerleave',
] as const

function createDefaultRenderWorker(): WorkerLike {
  return new Worker(new URL('../workers/render.worker.ts', import.meta.url), {
    type: 'module',
    name: 'dive-render',
  })
}

function createDefaultDataWorker(): WorkerLike {
  return new Worker(new URL('../workers/data.worker.ts', import.meta.url), {
    type: 'module',
    name: 'dive-data',
  })
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  return 'Unknown error'
}

/** A forwarded pointer or wheel event in CSS pixels relative to the canvas. */
export function toForwardedPointerEvent(
  event: PointerEvent | WheelEvent,
  bounds: { left: number; top: number },
): ForwardedPointerEvent {
  const isWheel = event.type === 'wheel'
  return {
    type: event.type as ForwardedPointerEvent['type'],
    pointerId: isWheel ? -1 : (event as PointerEvent).pointerId,
    button: event.button,
    buttons: event.buttons,
    x: event.clientX - bounds.left,
    y: event.clientY - bounds.top,
    // Lines and pages are turned into pixels so zoom speed does not depend on the device.
    deltaY: isWheel ? wheelDeltaPixels(event as WheelEvent) : 0,
    shiftKey: event.shiftKey,
    ctrlKey: event.ctrlKey,
    altKey: event.altKey,
    metaKey: event.metaKey,
  }
}

/** A key press as the render worker takes it. */
export function toForwardedKeyEvent(event: KeyboardEvent): ForwardedKeyEvent {
  return {
    key: event.key,
    shiftKey: event.shiftKey,
    ctrlKey: event.ctrlKey,
    altKey: event.altKey,
    metaKey: event.metaKey,
  }
}

function wheelDeltaPixels(event: WheelEvent): number {
  if (event.deltaMode === 1) return event.deltaY * 16
  if (event.deltaMode === 2) return event.deltaY * 800
  return event.deltaY
}

/** Canvas size in CSS pixels (at least 1 × 1: a zero-sized drawing buffer is an error in WebGL). */
function canvasSize(canvas: HTMLCanvasElement): { width: number; height: number } {
  return {
    width: Math.max(1, Math.round(canvas.clientWidth)),
    height: Math.max(1, Math.round(canvas.clientHeight)),
  }
}

/**
 * Starts the engine on a canvas that is in the document. The canvas is handed to the render
 * worker, so it must be fresh: transferControlToOffscreen works once per canvas.
 */
export function createEngine(canvas: HTMLCanvasElement, options: EngineOptions = {}): Engine {
  const createDataWorker = options.createDataWorker ?? createDefaultDataWorker
  const pixelRatio = () => options.devicePixelRatio ?? globalThis.devicePixelRatio ?? 1
  const listeners = new Set<(state: EngineState) => void>()
  const setupListeners = new Set<(event: SetupEvent) => void>()
  const dataWorkers: { worker: WorkerLike; remote: Comlink.Remote<DataWorkerApi> }[] = []
  const pendingIntents: RenderIntent[] = []
  const cleanups: (() => void)[] = []
  let accessToken = options.accessToken ?? null
  let state: EngineState = {
    status: 'starting',
    snapshot: null,
    failure: null,
    dataWorkerCount: 0,
  }

  function update(patch: Partial<EngineState>): void {
    if (state.status === 'disposed') return
    state = { ...state, ...patch }
    for (const listener of listeners) listener(state)
  }

  const isDisposed = () => state.status === 'disposed'

  function fail(error: unknown): void {
    if (isDisposed()) return
    update({ status: 'failed', failure: messageOf(error) })
  }

  const renderWorker = (options.createRenderWorker ?? createDefaultRenderWorker)()
  const render = Comlink.wrap<RenderWorkerApi>(renderWorker)
  const onWorkerError = (event: Event) => {
    const detail = (event as ErrorEvent).message
    fail(detail ? `The render worker stopped: ${detail}` : 'The render worker could not start.')
  }
  renderWorker.addEventListener('error', onWorkerError)

  async function spawnDataWorker(): Promise<void> {
    if (state.status === 'disposed' || dataWorkers.length >= MAX_DATA_WORKERS) return
    const worker = createDataWorker()
    const remote = Comlink.wrap<DataWorkerApi>(worker)
    dataWorkers.push({ worker, remote })
    update({ dataWorkerCount: dataWorkers.length })
    const channel = new MessageChannel()
    try {
      await remote.connectRenderPort(Comlink.transfer(channel.port1, [channel.port1]))
      if (accessToken !== null) await remote.setAccessToken(accessToken)
      if (isDisposed()) return
      await render.adoptDataWorker(Comlink.transfer(channel.port2, [channel.port2]))
    } catch (error) {
      // One data worker that does not start is not fatal: the render worker reports failed loads.
      console.error('A data worker could not start', error)
    }
  }

  const callbacks = Comlink.proxy({
    onSnapshot(snapshot: RenderSnapshot) {
      update({ snapshot })
    },
    requestDataWorker() {
      void spawnDataWorker()
    },
    onSetupEvent(event: SetupEvent) {
      for (const listener of setupListeners) listener(event)
    },
  })

  const offscreen = canvas.transferControlToOffscreen()
  const ready = render
    .init(
      Comlink.transfer(offscreen, [offscreen as unknown as Transferable]),
      { ...canvasSize(canvas), devicePixelRatio: pixelRatio() },
      callbacks,
    )
    .then(() => {
      if (state.status === 'disposed') return
      update({ status: 'ready' })
      if (accessToken !== null)
        void render.dispatch({ type: 'set_access_token', token: accessToken })
      for (const intent of pendingIntents.splice(0)) void render.dispatch(intent)
      // The render worker keeps the outputs it holds within a budget set from these.
      cleanups.push(startMemoryReadings(dispatch))
    })
  ready.catch(fail)

  function dispatch(intent: RenderIntent): void {
    if (state.status === 'starting') pendingIntents.push(intent)
    else if (state.status === 'ready') render.dispatch(intent).catch(fail)
  }

  // Pointer and wheel events, relative to the canvas; wheel must not scroll the page.
  const forward = (event: PointerEvent | WheelEvent) => {
    if (state.status !== 'ready') return
    const forwarded = toForwardedPointerEvent(event, canvas.getBoundingClientRect())
    render.forwardPointer(forwarded).catch(fail)
  }
  const onPointerDown = (event: PointerEvent) => {
    // Keep receiving moves while dragging outside the canvas.
    if (canvas.setPointerCapture) canvas.setPointerCapture(event.pointerId)
  }
  const onWheel = (event: WheelEvent) => {
    event.preventDefault()
    forward(event)
  }
  const onContextMenu = (event: Event) => event.preventDefault()
  // Camera keys of the focused canvas (arrows, + / −, Page Up / Down, Home, 0): the page must
  // not scroll; other keys (Space for playback, Tab) go on as usual.
  const onKeyDown = (event: KeyboardEvent) => {
    const forwarded = toForwardedKeyEvent(event)
    if (!isCameraKey(forwarded)) return
    event.preventDefault()
    if (state.status !== 'ready') return
    render.forwardKey(forwarded).catch(fail)
  }
  canvas.addEventListener('pointerdown', onPointerDown)
  for (const type of POINTER_EVENT_TYPES) canvas.addEventListener(type, forward)
  canvas.addEventListener('wheel', onWheel, { passive: false })
  canvas.addEventListener('contextmenu', onContextMenu)
  canvas.addEventListener('keydown', onKeyDown)
  cleanups.push(() => {
    canvas.removeEventListener('pointerdown', onPointerDown)
    for (const type of POINTER_EVENT_TYPES) canvas.removeEventListener(type, forward)
    canvas.removeEventListener('wheel', onWheel)
    canvas.removeEventListener('contextmenu', onContextMenu)
    canvas.removeEventListener('keydown', onKeyDown)
  })

  // Resizes, at most one per animation frame.
  if (typeof ResizeObserver !== 'undefined') {
    let frame: number | null = null
    let last = canvasSize(canvas)
    const observer = new ResizeObserver(() => {
      if (frame !== null) return
      frame = requestAnimationFrame(() => {
        frame = null
        const size = canvasSize(canvas)
        if (size.width === last.width && size.height === last.height) return
        last = size
        dispatch({ type: 'resize', ...size, devicePixelRatio: pixelRatio() })
      })
    })
    observer.observe(canvas)
    cleanups.push(() => {
      observer.disconnect()
      if (frame !== null) cancelAnimationFrame(frame)
    })
  }

  return {
    dispatch,
    setAccessToken(token) {
      if (token === accessToken) return
      accessToken = token
      dispatch({ type: 'set_access_token', token })
      for (const { remote } of dataWorkers) remote.setAccessToken(token).catch(() => undefined)
    },
    saveImage() {
      if (state.status !== 'ready')
        return Promise.reject(new Error('The viewport has not started yet.'))
      return render.saveImage()
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onSetupEvent(listener) {
      setupListeners.add(listener)
      return () => setupListeners.delete(listener)
    },
    ready,
    dispose() {
      if (state.status === 'disposed') return
      state = { ...state, status: 'disposed' }
      listeners.clear()
      setupListeners.clear()
      pendingIntents.length = 0
      for (const cleanup of cleanups.splice(0)) cleanup()
      renderWorker.removeEventListener('error', onWorkerError)
      const terminate = () => {
        render[Comlink.releaseProxy]()
        renderWorker.terminate()
        for (const { worker, remote } of dataWorkers.splice(0)) {
          remote[Comlink.releaseProxy]()
          worker.terminate()
        }
      }
      const timer = setTimeout(terminate, DISPOSE_GRACE_MS)
      render.dispose().then(
        () => {
          clearTimeout(timer)
          terminate()
        },
        () => undefined,
      )
    },
  }
}
