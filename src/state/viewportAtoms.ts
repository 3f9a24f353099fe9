import { atom } from 'jotai'
import { DEFAULT_COLOUR_SCHEME, PLAYBACK, type ColourScheme } from '../../domain/constants.ts'
import type { ClippingPlane, VectorSubOption } from '../../domain/results.ts'
import type { Engine, EngineState } from '../../engine/client.ts'

/*
 * The results viewport's UI state. The engine's own state lives in the render worker; the UI sees
 * it only as the latest EngineState (snapshot included), which the Viewport writes here.
 */

/** The running engine of the viewport on screen (null: none). */
export const viewportEngineAtom = atom<Engine | null>(null)
viewportEngineAtom.debugLabel = 'viewportEngineAtom'

/** What the viewport shows before its engine reports anything. */
export const INITIAL_ENGINE_STATE: EngineState = {
  status: 'starting',
  snapshot: null,
  failure: null,
  dataWorkerCount: 0,
}

/** The engine's status and latest snapshot. */
export const viewportStateAtom = atom<EngineState>(INITIAL_ENGINE_STATE)
viewportStateAtom.debugLabel = 'viewportStateAtom'

/** The colour map the user chose; a null range follows the data. */
export interface ColourMapChoice {
  attribute: string
  /** For vectors: a component or the magnitude. */
  subOption: VectorSubOption
  scheme: ColourScheme
  range: { min: number; max: number } | null
}

/** The colour map of the results viewport: velocity magnitude, rainbow, range from the data. */
export const colourMapChoiceAtom = atom<ColourMapChoice>({
  attribute: 'velocity',
  subOption: 'magnitude',
  scheme: DEFAULT_COLOUR_SCHEME,
  range: null,
})
colourMapChoiceAtom.debugLabel = 'colourMapChoiceAtom'

/** A clipping plane that keeps everything: off, along x, not flipped, at 0 m. */
export const DEFAULT_CLIP: ClippingPlane = {
  enabled: false,
  axis: 'x',
  flipped: false,
  offsetM: 0,
}

/** The clipping plane of the results viewport. */
export const clipAtom = atom<ClippingPlane>(DEFAULT_CLIP)
clipAtom.debugLabel = 'clipAtom'

/** Playback speed multiplier (1 = 3 outputs per second). */
export const playbackSpeedAtom = atom<number>(PLAYBACK.speed)
playbackSpeedAtom.debugLabel = 'playbackSpeedAtom'
