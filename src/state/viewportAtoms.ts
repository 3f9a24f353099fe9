import { atom } from 'jotai'
import {
  DEFAULT_COLOUR_SCHEME,
  DEFAULT_POINT_SIZE_PX,
  PLAYBACK,
  type ColourScheme,
  type DetailLevel,
} from '../../domain/constants.ts'
import type {
  ClippingPlane,
  MATERIAL_DISPLAY_MODES,
  PART_VIEW_MODES,
  VectorSubOption,
} from '../../domain/results.ts'
import type { Engine, EngineState } from '../../engine/client.ts'

type PartViewMode = (typeof PART_VIEW_MODES)[number]
type MaterialDisplayMode = (typeof MATERIAL_DISPLAY_MODES)[number]

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

/** A new results view's colour map: velocity magnitude, rainbow, range from the data. */
export const DEFAULT_COLOUR_MAP_CHOICE: ColourMapChoice = {
  attribute: 'velocity',
  subOption: 'magnitude',
  scheme: DEFAULT_COLOUR_SCHEME,
  range: null,
}

/** The colour map of the results viewport. */
export const colourMapChoiceAtom = atom<ColourMapChoice>(DEFAULT_COLOUR_MAP_CHOICE)
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

/*
 * Saved with the viewport state (spec/results.md §3): the explorer and the canvas menus write these
 * when they change a part's or material's view, the page saves and restores them.
 */

/** How a part (wall or open boundary) of the results viewport is drawn, by object id. */
export interface PartView {
  visible: boolean
  viewMode: PartViewMode
}

/** How a material (fluid) of the results viewport is drawn, by object id. */
export interface MaterialView {
  visible: boolean
  displayMode: MaterialDisplayMode
}

/** Part views by object id; a part absent here uses the page's default (translucent walls). */
export const partViewsAtom = atom<Record<string, PartView>>({})
partViewsAtom.debugLabel = 'partViewsAtom'

/** Material views by object id; a material absent here is drawn as spheres. */
export const materialViewsAtom = atom<Record<string, MaterialView>>({})
materialViewsAtom.debugLabel = 'materialViewsAtom'

/** Whether the coordinate-system origin is shown. */
export const coordinateSystemAtom = atom<boolean>(true)
coordinateSystemAtom.debugLabel = 'coordinateSystemAtom'

/** The output detail level of the results viewport (spec/results.md §9: Low, Medium, High, All). */
export const detailLevelAtom = atom<DetailLevel>('High')
detailLevelAtom.debugLabel = 'detailLevelAtom'

/** The dataset shown while paused: 'fast' (reduced) or 'full'. */
export const datasetAtom = atom<'fast' | 'full'>('full')
datasetAtom.debugLabel = 'datasetAtom'

/** Largest drawn particle size in CSS pixels (the fluid view mode dialog's point size; 15 px). */
export const pointSizeAtom = atom<number>(DEFAULT_POINT_SIZE_PX)
pointSizeAtom.debugLabel = 'pointSizeAtom'
