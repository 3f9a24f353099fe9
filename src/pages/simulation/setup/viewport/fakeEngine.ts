import type { Engine, EngineState } from '../../../../../engine/client.ts'
import type { RenderIntent, RenderSnapshot } from '../../../../../engine/protocol.ts'
import type { SetupEvent, SetupSnapshot } from '../../../../../engine/setupProtocol.ts'

/*
 * A fake engine for the Setup view's tests: implements the Engine interface of engine/client.ts,
 * records the intents it is sent and lets a test emit snapshots and setup events.
 */

/** A render snapshot with every field set and the setup part as given. */
export function makeSnapshot(setup: Partial<SetupSnapshot> | null = {}): RenderSnapshot {
  return {
    camera: { position: [2, -2, 2], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
    fps: 30,
    pointsDrawn: 0,
    trianglesDrawn: 0,
    shownOutput: null,
    loadedOutputs: [],
    loadingOutputs: [],
    bytesInFlight: 0,
    dataRange: null,
    colourRange: null,
    playing: false,
    speed: 1,
    scaleBar: null,
    pick: null,
    hover: null,
    error: null,
    colourStatus: null,
    scene: 'setup',
    ...(setup === null
      ? {}
      : {
          setup: {
            initialized: false,
            message: 'Initializing...',
            hovered: null,
            loading: [],
            failed: [],
            tool: 'select',
            dragging: false,
            timeS: 0,
            endTimeS: 1,
            playing: false,
            speed: 1,
            loop: false,
            keyframeWarnings: [],
            pointcloudCounts: {},
            ...setup,
          },
        }),
  }
}

/**
 * An engine without workers (the Engine interface of engine/client.ts): it records the intents it
 * is sent and lets a test play the person in the view (`emit`) and the render worker (`publish`).
 */
export class FakeEngine implements Engine {
  readonly intents: RenderIntent[] = []
  readonly ready = Promise.resolve()
  #state: EngineState = { status: 'ready', snapshot: null, failure: null, dataWorkerCount: 0 }
  #listeners = new Set<(state: EngineState) => void>()
  #setupListeners = new Set<(event: SetupEvent) => void>()

  dispatch(intent: RenderIntent): void {
    this.intents.push(intent)
  }
  setAccessToken(): void {}
  saveImage(): Promise<Blob> {
    return Promise.resolve(new Blob([], { type: 'image/png' }))
  }
  getState(): EngineState {
    return this.#state
  }
  subscribe(listener: (state: EngineState) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
  onSetupEvent(listener: (event: SetupEvent) => void): () => void {
    this.#setupListeners.add(listener)
    return () => this.#setupListeners.delete(listener)
  }
  dispose(): void {
    this.#listeners.clear()
    this.#setupListeners.clear()
  }

  /** What a person did in the view. */
  emit(event: SetupEvent): void {
    for (const listener of this.#setupListeners) listener(event)
  }
  /** How many listen to setup events. */
  setupListenerCount(): number {
    return this.#setupListeners.size
  }
  /** The intents of one type, in order. */
  ofType<T extends RenderIntent['type']>(type: T): Extract<RenderIntent, { type: T }>[] {
    return this.intents.filter((i): i is Extract<RenderIntent, { type: T }> => i.type === type)
  }
  /** The latest intent of one type. */
  last<T extends RenderIntent['type']>(type: T): Extract<RenderIntent, { type: T }> | undefined {
    return this.ofType(type).at(-1)
  }
}
