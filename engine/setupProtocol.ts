/**
 * The setup scene's contract (spec/setup.md §2 "3D viewport (Setup)"): what the Setup page posts
 * to the render worker, what it hears back, and what the render worker asks of the data workers
 * for it. The render worker owns one engine with two scenes, results and setup, chosen by the
 * `set_scene` intent; the camera, controls, clipping plane, axes and scale bar are shared.
 *
 * Ownership: the UI owns the setup's truth (server state) and the selection (a jotai atom). It
 * posts the objects as plain views (`setup_objects`, every time one changes) and the selection
 * (`setup_selection`). The engine reports what a person did in the view as events (`onSetupEvent`):
 * a click (after the 300 ms double-click window), a double click, a finished gizmo drag, a moved
 * seed point. The UI turns them into selection changes or API calls, and the new server state comes
 * back as `setup_objects`. Geometry never crosses the main thread: meshes, point clouds and
 * keyframes are fetched and decoded by the data workers and handed to the render worker.
 */
import type { Vec3 } from '../domain/vector.ts'

/** The two scenes of the render worker. */
export const SCENE_KINDS = ['results', 'setup'] as const
/** One scene. */
export type SceneKind = (typeof SCENE_KINDS)[number]

/** Kinds of objects in the setup scene. */
export const SETUP_OBJECT_KINDS = [
  'part',
  'sensor',
  'volume_clip',
  'refinement',
  'calc_domain',
  'air_drag_domain',
  'periodic_boundary',
] as const
/** One kind of setup object. */
export type SetupObjectKind = (typeof SETUP_OBJECT_KINDS)[number]

/** Gizmo tools of the setup view (keys t and r switch to translate and rotate). */
export const SETUP_TOOLS = ['select', 'translate', 'rotate'] as const
/** One gizmo tool. */
export type SetupTool = (typeof SETUP_TOOLS)[number]

/**
 * Where an object's geometry comes from.
 * - `mesh`: a stored mesh (DMSH bytes, domain/meshFile.ts) at a same-origin URL under
 *   /api; a new `hash` means new bytes (spec/setup.md §4: a changed mesh blob hash triggers a
 *   refresh). Part meshes are in the part's own coordinates and placed by `transform`; sensor,
 *   clip and refinement meshes are placed already (identity transform).
 * - `box`: an axis-aligned box drawn as edges (the calculation domain, 'Deletion Boundary').
 * - `point`: a marker (a point sensor).
 * - `lines`: line segments, world metres, x y z of each end in turn (the air drag grid, the
 *   periodic boundary's slice); a box around them is what picks it.
 * - `none`: nothing to draw (an empty part).
 */
export type SetupGeometry =
  | { type: 'mesh'; url: string; hash: string }
  | { type: 'box'; min: Vec3; max: Vec3 }
  | { type: 'point'; position: Vec3 }
  | { type: 'lines'; positions: readonly number[] }
  | { type: 'none' }

/** Placement of a part's own-coordinate mesh: x ↦ translation + R(rotationDeg, XYZ) · (scale ⊙ x). */
export interface SetupTransform {
  translation: Vec3
  /** Degrees about x, y, z, applied in that order (three.js Euler order 'XYZ'). */
  rotationDeg: Vec3
  scale: Vec3
}

/** How an object is drawn (the part appearance of spec/setup.md §3, visibility included). */
export interface SetupAppearance {
  /** '#rrggbb'. */
  color: string
  /** 0 … 1. */
  opacity: number
  wireframe: boolean
  translucent: boolean
  visible: boolean
}

/** One object of the setup scene, as the UI posts it (plain data, small: no geometry). */
export interface SetupObjectView {
  /** 'part:12', 'sensor:3', 'volume_clip:4', 'refinement:2', 'calc_domain'. */
  id: string
  kind: SetupObjectKind
  name: string
  geometry: SetupGeometry
  transform: SetupTransform
  appearance: SetupAppearance
  /** A part's seed point, world metres; drawn as a handle while the part is selected, draggable when `editable`. */
  seedPoint: Vec3 | null
  /**
   * The part's particles from the latest discretization (drawn when `visible`) in the part's
   * colour. `role` says how: a fluid's (filling, flow) as they are; a wall's or an open
   * boundary's (`wall`) smaller and lighter, so the fluid inside shows (absent: `fluid`). A
   * translucent part's are translucent. With 1,000,000 or more points visible in all, 100,000 are
   * drawn while the camera moves (spec/results.md §9).
   */
  pointcloud: {
    url: string
    hash: string
    count: number
    visible: boolean
    role?: 'fluid' | 'wall'
  } | null
  /**
   * An open boundary's flow arrow: at the placed shape's centre along its normal (world), pointing
   * into the domain for inflow and out of it for outflow. `normal` is taken as pointing into the
   * domain: the engine draws inflow along it and outflow against it. It moves with the part.
   * Null for everything else.
   */
  arrow: { origin: Vec3; normal: Vec3; direction: 'inflow' | 'outflow' } | null
  /**
   * The part's movement keyframes (GET /parts/{id}/movements/keyframes), fetched and interpolated
   * by a data worker; a new hash refetches. Null: the part does not move.
   */
  keyframes: { url: string; hash: string } | null
  /** Picked by click and hover. */
  selectable: boolean
  /** Gizmos and seed-point drags are allowed (parts of an editable setup). */
  editable: boolean
  /** Drawn with a warning outline (a part with potential mesh issues or discretization warnings). */
  warning: boolean
}

/** Intents of the setup scene; members of engine/protocol.ts RenderIntent. */
export type SetupIntent =
  /** Which scene is drawn; the other keeps its state. */
  | { type: 'set_scene'; scene: SceneKind }
  /**
   * Every object of the setup, whole (the engine diffs by id: unchanged geometry is not refetched).
   * `endTimeS` bounds the movement timeline (the simulation's end time; null: not set).
   */
  | { type: 'setup_objects'; objects: SetupObjectView[]; endTimeS: number | null }
  /** The selected object ids (highlighted; the gizmo attaches to a single editable part). */
  | { type: 'setup_selection'; ids: string[] }
  | { type: 'setup_tool'; tool: SetupTool }
  /** Highlights holes and non-manifold edges of part meshes (spec/setup.md §2 mesh-health mode). */
  | { type: 'setup_mesh_health'; enabled: boolean }
  /** Rings the one defect the Mesh Check dialog zoomed to (shown in mesh-health mode); null: none. */
  | { type: 'setup_defect_marker'; marker: SetupDefectMarker | null }
  /** Movement timeline: play from the current time, at `speed` (1 = real time), looping or not. */
  | { type: 'setup_play'; speed: number; loop: boolean }
  | { type: 'setup_pause' }
  | { type: 'setup_seek'; timeS: number }
  | { type: 'setup_speed'; speed: number }
  /** Moves the camera to frame one object (a double click in the explorer). */
  | { type: 'setup_focus'; id: string }

/** A mesh defect to ring in the view: its centre (world, m) and extent (m). */
export interface SetupDefectMarker {
  center: Vec3
  sizeM: number
}

/** What a person did in the setup view; the UI decides what it means. */
export type SetupEvent =
  /** A single click (after the double-click window). `id` null: empty space (clears the selection). */
  | { type: 'click'; id: string | null; additive: boolean }
  /** A double click on an object (opens its form). */
  | { type: 'double_click'; id: string }
  /** A gizmo drag ended: the part's new placement, to be saved. */
  | { type: 'transform'; id: string; translation: Vec3; rotationDeg: Vec3 }
  /** A seed-point drag ended: the part's new seed point, to be saved. */
  | { type: 'seed_point'; id: string; position: Vec3 }

/** The view's state message (spec/setup.md §2: 'Initializing...' turns into 'Successfully initialized.'). */
export const SETUP_SCENE_MESSAGES = {
  initializing: 'Initializing...',
  initialized: 'Successfully initialized.',
} as const

/** The setup part of a RenderSnapshot (present while the setup scene has been used). */
export interface SetupSnapshot {
  /** True once every object with a mesh has its mesh (spec/setup.md §4 "The canvas counts as initialised …"). */
  initialized: boolean
  message: (typeof SETUP_SCENE_MESSAGES)[keyof typeof SETUP_SCENE_MESSAGES]
  /** The object under the pointer (hover, throttled to 30 ms). */
  hovered: string | null
  /** Objects whose geometry, point cloud or keyframes are being fetched. */
  loading: string[]
  /** Objects whose geometry could not be loaded, with why (only logged by the UI, spec §8). */
  failed: { id: string; message: string }[]
  tool: SetupTool
  /** A gizmo or seed-point drag is under way. */
  dragging: boolean
  /** Movement timeline. */
  timeS: number
  endTimeS: number | null
  playing: boolean
  speed: number
  loop: boolean
  /** Names of parts with KEYFRAME_WARNING_THRESHOLD (5000) keyframes or more. */
  keyframeWarnings: string[]
  /** Particles of discretized point clouds drawn, per part id ('part:12' → count). */
  pointcloudCounts: Record<string, number>
  /** Mesh-health mode is on (absent: off). */
  meshHealth?: boolean
  /** The defect ringed in mesh-health mode (absent or null: none). */
  defectMarker?: SetupDefectMarker | null
}

// ── Data workers: setup geometry ───────────────────────────────────────────────────────────────

/** A fetch of one setup resource by a data worker. */
export interface SetupFetchRequest {
  /** Same-origin URL under /api (from SetupObjectView). */
  url: string
  accessToken: string | null
  /**
   * Names the fetch so that DataWorkerApi.cancel(requestId) stops it (the object left the scene
   * or its hash changed). Optional: an unnamed fetch runs to its end.
   */
  requestId?: string
}

/** A decoded triangle mesh, ready to upload (buffers transferred to the render worker). */
export interface SetupMeshData {
  /** xyz per vertex, metres. */
  positions: Float32Array
  /** Unit normal per vertex (flat per triangle where the mesh has sharp edges). */
  normals: Float32Array
  /**
   * Smooth unit normal per vertex (the same on every copy of a vertex split at a sharp edge): the
   * selection outline pushes the surface out along it without cracking at the edges.
   */
  outlineNormals: Float32Array
  /** Three per triangle, in the leaf order of `bvh` (the same triangles as the stored mesh). */
  indices: Uint32Array
  triangleCount: number
  /** Axis-aligned bounds of `positions`. */
  bounds: { min: Vec3; max: Vec3 }
  /** Bounding-volume hierarchy for picking, built in the data worker (opaque to the UI). */
  bvh: ArrayBuffer | null
  /** Edges used by one triangle (holes) and by three or more (non-manifold), as line segment pairs. */
  defectSegments: Float32Array
  /** The first this many segments of `defectSegments` are holes; the rest are non-manifold edges. */
  holeSegmentCount: number
}

/**
 * A decoded point cloud (xyz per particle, world metres), in a stratified order: every prefix
 * covers the cloud uniformly, so a big cloud draws a prefix while the camera moves.
 */
export interface SetupPointCloudData {
  positions: Float32Array
  count: number
}

/**
 * A part's movement as poses sampled at a fixed step over [0, endTimeS] (interpolated from the
 * keyframes in the data worker, engine/data/keyframes.ts): the render worker only looks them up.
 */
export interface KeyframeTrack {
  stepS: number
  /** xyz per sample. */
  positions: Float32Array
  /** xyzw unit quaternion per sample. */
  rotations: Float32Array
  sampleCount: number
  /** Keyframes the server sent (the 5000 warning counts these). */
  keyframeCount: number
}

/** The setup calls of a data worker (part of DataWorkerApi, called by the render worker over its port). */
export interface SetupDataWorkerApi {
  loadSetupMesh(request: SetupFetchRequest): Promise<SetupMeshData>
  loadSetupPointCloud(request: SetupFetchRequest): Promise<SetupPointCloudData>
  loadKeyframeTrack(
    request: SetupFetchRequest & { endTimeS: number; stepS: number },
  ): Promise<KeyframeTrack>
}
