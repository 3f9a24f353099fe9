import { createStore } from 'jotai'
import type { Engine, EngineState } from '../../../../../engine/client.ts'
import type { RenderIntent, RenderSnapshot } from '../../../../../engine/protocol.ts'
import { viewportEngineAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'

/*
 * Test support for the results page's controls: a recording engine in a Jotai store, so a control
 * can be rendered alone and its intents read back.
 */

/** A render snapshot with every field set; override what a test cares about. */
export function makeSnapshot(patch: Partial<RenderSnapshot> = {}): RenderSnapshot {
  return {
    camera: { position: [1, 1, 1], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
    fps: 30,
    pointsDrawn: 1000,
    trianglesDrawn: 0,
    shownOutput: 0,
    loadedOutputs: [0],
    loadingOutputs: [],
    bytesInFlight: 0,
    dataRange: { min: 0, max: 2 },
    colourRange: { min: 0, max: 2 },
    playing: false,
    speed: 1,
    scaleBar: null,
    pick: null,
    hover: null,
    error: null,
    colourStatus: null,
    ...patch,
  }
}

/** A store holding a recording engine and an engine state with the given snapshot. */
export function storeWithEngine(snapshot: RenderSnapshot | null = makeSnapshot()) {
  const intents: RenderIntent[] = []
  const engine = {
    dispatch: (intent: RenderIntent) => intents.push(intent),
  } as unknown as Engine
  const store = createStore()
  store.set(viewportEngineAtom, engine)
  const state: EngineState = { status: 'ready', snapshot, failure: null, dataWorkerCount: 1 }
  store.set(viewportStateAtom, state)
  const ofType = <T extends RenderIntent['type']>(type: T) =>
    intents.filter((intent): intent is Extract<RenderIntent, { type: T }> => intent.type === type)
  const setSnapshot = (patch: Partial<RenderSnapshot>) =>
    store.set(viewportStateAtom, { ...state, snapshot: makeSnapshot(patch) })
  return { store, intents, ofType, setSnapshot }
}
