/**
 * The results scene's sensors and volume clips (spec/results.md §2: the explorer's sensors and
 * volume clips, drawn over the outputs): what the Results page posts, what the render worker asks
 * of the data workers for the clips' masks, and what it reports. Sensors are drawn as their
 * markers or placed meshes and clips as their placed meshes, translucent, with the setup scene's
 * pieces (meshes come through the data workers' setup path, never the main thread). A shown clip
 * keeps only the particles of its fluids inside its mesh (outside when inverted): the masks are
 * mask objects of the output format (one Uint8 `inside` per row of a fluid) that a data worker
 * computes with domain/clipMask.ts, drawn on the GPU as an attribute and a uniform.
 */
import type { AirDragGrid } from '../domain/airDragGridFile.ts'
import type { Mesh } from '../domain/meshes.ts'
import type { OutputKey, OutputSource } from './protocol.ts'
import type { WrittenDataset } from '../domain/outputFormat.ts'
import type { SetupObjectView } from './setupProtocol.ts'

/**
 * A volume clip in the results scene. `view` draws it like a setup object (id 'volume_clip:4',
 * geometry its placed mesh); `view.appearance.visible` is the explorer's toggle: a shown clip
 * also masks the fluid drawn.
 */
export interface VolumeClipView {
  view: SetupObjectView
  /** The clip's mesh definition (domain/meshes.ts): the inside test of domain/clipMask.ts. */
  mesh: Mesh
  /** Keeps the particles outside the mesh instead. */
  inverted: boolean
  /** The material whose fluid it clips; null: every fluid. */
  materialId: number | null
}

/** The results scene's sensors and volume clips, in the snapshot. */
export interface OverlaySnapshot {
  /** Ids whose mesh is being fetched, or whose masks are being computed. */
  loading: string[]
  /** What could not be drawn or masked, with why (only logged by the UI, spec/setup.md §8). */
  failed: { id: string; message: string }[]
}

/**
 * The air drag domain's grid (GET /simulations/{id}/air_drag_domain/grid, decoded), drawn as its
 * box outline and cell centres while `visible` (the Results explorer's Air Drag item).
 */
export interface AirDragGridOverlay {
  grid: AirDragGrid
  visible: boolean
}

/** The overlay intent (a member of engine/protocol.ts RenderIntent). */
export type OverlayIntent = {
  type: 'set_overlays'
  /** Point sensors (geometry `point`) and surface sensors (their placed mesh). */
  sensors: SetupObjectView[]
  clips: VolumeClipView[]
  /** The air drag grid (absent or null: none). */
  airDragGrid?: AirDragGridOverlay | null
}

/**
 * A volume clip's mesh as a data worker needs it to mask the particles (domain/clipMask.ts, the
 * same test the results server's masks and statistics use).
 */
export interface ClipMaskSpec {
  /** Names the mask: a new mesh is a new key (masks of the old key are never reused for it). */
  key: string
  mesh: Mesh
  /** The material whose fluid it masks; null: every fluid. */
  materialId: number | null
}

/** Masks of volume clips over the fluids of one output (cache, else a fetch, as SubsetRequest). */
export interface ClipMaskRequest {
  key: OutputKey
  source: OutputSource
  dataset: WrittenDataset
  /** The output's fluids (object id and material id). */
  fluids: { objectId: string; materialId: number | null }[]
  clips: ClipMaskSpec[]
}

/** One clip's mask over one fluid: 1 where a row lies inside the clip's mesh (not inverted). */
export interface ClipMask {
  clipKey: string
  /** The fluid object whose rows it follows. */
  objectId: string
  /** One byte per row (transferred); null when the clip cannot mask (`error` says why). */
  inside: Uint8Array | null
  insideCount: number
  error: string | null
}
