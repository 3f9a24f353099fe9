/**
 * The setup scene of the render worker (engine/setupProtocol.ts): takes the objects the UI posts
 * (diffed by id: unchanged hashes are never fetched again), fetches their meshes, point clouds and
 * keyframe tracks through the data-worker pool, draws them (SetupView), plays the movement
 * timeline and reports it all in `snapshot.setup`; the pointer's clicks, hover and drags are
 * SetupPointer's. The engine owns the camera, the frames and the routing of pointer events.
 */
import type { Object3D } from 'three'
import { KEYFRAME_WARNING_THRESHOLD } from '../../../domain/movements.ts'
import type { ForwardedPointerEvent } from '../../protocol.ts'
import {
  SETUP_SCENE_MESSAGES,
  type SetupEvent,
  type SetupIntent,
  type SetupObjectView,
  type SetupSnapshot,
} from '../../setupProtocol.ts'
import type { CameraState } from '../../../domain/results.ts'
import type { Bounds } from '../camera.ts'
import { clipPlaneEquation } from '../clip.ts'
import { computeDrawCounts } from '../detail.ts'
import { frameBounds, frontRightTopCamera } from '../framing.ts'
import type { SceneHost, ViewScene } from '../host.ts'
import { diffSetupObjects, geometryKey, keyframesKey, pointcloudKey } from './objects.ts'
import { metresPerPixelAt, transformPoint } from './setupMath.ts'
import { SetupPointer } from './SetupPointer.ts'
import { SetupResources, toLoadedMesh, type SetupResourceKind } from './SetupResources.ts'
import { SetupState } from './SetupState.ts'
import { SetupView } from './SetupView.ts'

export { GIZMO_SIZE_PX } from './SetupState.ts'

/** Keyframe tracks are sampled this finely at least (a short run), and in at most ~4000 steps. */
const TRACK_MIN_STEP_S = 1 / 240
const TRACK_STEPS = 4000

/** Setup intents the controller applies (the engine handles set_scene). */
export type SetupControllerIntent = Exclude<SetupIntent, { type: 'set_scene' }>

/** The setup scene's logic. */
export class SetupController implements ViewScene {
  #host: SceneHost
  #view = new SetupView()
  #state: SetupState
  #pointer: SetupPointer
  #used = false
  #active = false
  /** The camera was placed on purpose (a restored view): the setup is not framed by itself. */
  #cameraPlaced = false
  /** The camera the last framing set (null: never framed), and the objects it framed. */
  #framed: CameraState | null = null
  #framedIds = new Set<string>()

  constructor(host: SceneHost, emit: (event: SetupEvent) => void) {
    this.#host = host
    const resources = new SetupResources(host, (id, kind) => this.#settled(id, kind))
    this.#state = new SetupState(host, resources)
    this.#pointer = new SetupPointer(host, this.#state, emit, (id) => this.#refresh(id))
  }

  /** The objects to draw while the setup scene is shown. */
  root(): Object3D {
    return this.#view.root
  }

  /** True once the setup scene was used (the snapshot reports it from then on). */
  used(): boolean {
    return this.#used
  }

  /** The setup scene is shown (true) or not: the first view with content is framed. */
  setActive(active: boolean): void {
    this.#used ||= active
    this.#active = active
    if (active) this.#frameAutomatically()
  }

  applyIntent(intent: SetupControllerIntent): void {
    this.#used = true
    const state = this.#state
    const now = this.#host.nowMs()
    switch (intent.type) {
      case 'setup_objects':
        this.#setObjects(intent.objects, intent.endTimeS)
        break
      case 'setup_selection':
        state.selection = new Set(intent.ids)
        break
      case 'setup_tool':
        state.tool = intent.tool
        break
      case 'setup_mesh_health':
        state.meshHealth = intent.enabled
        this.#view.setDefectMarker(state.defectMarker, state.meshHealth)
        break
      case 'setup_defect_marker':
        state.defectMarker = intent.marker
        this.#view.setDefectMarker(state.defectMarker, state.meshHealth)
        break
      case 'setup_play':
        state.timeline.play(now, intent.speed, intent.loop, state.duration())
        break
      case 'setup_pause':
        state.timeline.pause()
        break
      case 'setup_seek':
        state.timeline.seek(intent.timeS, state.duration())
        break
      case 'setup_speed':
        state.timeline.setSpeed(now, intent.speed)
        break
      case 'setup_focus': {
        const bounds = state.objectBounds(intent.id)
        const size = this.#host.size()
        if (bounds !== null)
          this.#host.animateCamera(
            frameBounds(this.#host.camera(), bounds, size.width / size.height),
          )
        break
      }
    }
    this.#refreshAll()
  }

  #setObjects(objects: readonly SetupObjectView[], endTimeS: number | null): void {
    const state = this.#state
    const diff = diffSetupObjects(state.objects, objects, state.endTimeS, endTimeS)
    state.endTimeS = endTimeS
    state.received = true
    for (const id of diff.removed) {
      state.objects.delete(id)
      state.resources.drop(id)
      this.#view.remove(id)
    }
    // What was moved in the view now comes back from the server (or was refused): show that.
    const dragged = this.#pointer.draggedId()
    for (const id of [...state.moved.keys()]) if (id !== dragged) state.moved.delete(id)
    for (const view of [...diff.added, ...diff.changed.map((change) => change.view)]) {
      state.objects.set(view.id, view)
      this.#want(view)
    }
    state.timeline.clampTo(state.duration())
    this.#frameAutomatically()
  }

  /** Fetches what an object needs (the keys it holds already: nothing happens). */
  #want(view: SetupObjectView): void {
    const resources = this.#state.resources
    const token = () => this.#host.accessToken()
    const geometry = view.geometry
    const mesh = geometry.type === 'mesh' ? geometry : null
    resources.want(view.id, 'mesh', mesh === null ? null : geometryKey(mesh), async (worker, id) =>
      toLoadedMesh(
        await worker.loadSetupMesh({ url: mesh!.url, accessToken: token(), requestId: id }),
      ),
    )
    if (mesh === null) this.#view.existingNode(view.id)?.setMesh(null)
    const cloud = view.pointcloud
    resources.want(view.id, 'pointcloud', pointcloudKey(view), (worker, requestId) =>
      worker.loadSetupPointCloud({ url: cloud!.url, accessToken: token(), requestId }),
    )
    if (cloud === null) this.#view.existingNode(view.id)?.setPointCloud(null)
    // Only parts move; the track is sampled over the timeline (to the last keyframe without an end).
    const keyframes = view.kind === 'part' ? view.keyframes : null
    const endTimeS = this.#state.endTimeS ?? 0
    resources.want(
      view.id,
      'keyframes',
      keyframes === null ? null : keyframesKey(view, this.#state.endTimeS),
      (worker, requestId) =>
        worker.loadKeyframeTrack({
          url: keyframes!.url,
          accessToken: token(),
          requestId,
          endTimeS,
          stepS: Math.max(TRACK_MIN_STEP_S, endTimeS / TRACK_STEPS),
        }),
    )
  }

  /** A fetch ended: draw what came (a failed mesh draws nothing and counts as initialised). */
  #settled(id: string, kind: SetupResourceKind): void {
    const resources = this.#state.resources
    const node = this.#view.node(id)
    if (kind === 'mesh') node.setMesh(resources.get(id, 'mesh')?.data ?? null)
    if (kind === 'pointcloud') node.setPointCloud(resources.get(id, 'pointcloud'))
    if (kind === 'keyframes') this.#state.timeline.clampTo(this.#state.duration())
    this.#refresh(id)
    this.#frameAutomatically()
    this.#host.invalidate()
    this.#host.requestFrame()
  }

  /** A renewed token: failed fetches get another chance. */
  retryFailed(): void {
    this.#state.resources.retryFailed()
  }

  /** The camera was placed on purpose (a restored view): the setup is not framed over it. */
  markCameraFitted(): void {
    this.#cameraPlaced = true
  }

  /** The clip plane or the viewport changed. */
  viewChanged(): void {
    this.#view.setClip(clipPlaneEquation(this.#host.clip()))
    this.#view.setViewport(this.#host.size())
  }

  // ── Pointer (SetupPointer) ──────────────────────────────────────────────────────────────────

  /** Gizmo and seed-point drags; true when the event was a drag's (the camera must not see it). */
  handlePointer(event: ForwardedPointerEvent): boolean {
    return this.#pointer.handle(event)
  }

  click(x: number, y: number, additive: boolean): void {
    this.#pointer.click(x, y, additive)
  }

  doubleClick(x: number, y: number): void {
    this.#pointer.doubleClick(x, y)
  }

  hoverAt(x: number, y: number): void {
    this.#pointer.hoverAt(x, y)
  }

  clearHover(): void {
    this.#pointer.clearHover()
  }

  // ── Frames ──────────────────────────────────────────────────────────────────────────────────

  /** Advances the timeline; true while it plays (frames must keep coming). */
  tick(nowMs: number): boolean {
    const timeline = this.#state.timeline
    if (timeline.tick(nowMs, this.#state.duration())) this.#refreshAll()
    return timeline.isPlaying()
  }

  /**
   * Before a frame is drawn: translucent objects are sorted back to front and coincident faces
   * told apart (SetupView.orderForDrawing); the gizmo and the arrows keep their size on screen;
   * while the camera moves (`interacting`) and 1,000,000 or more particles of point clouds are
   * shown, 100,000 are drawn, shared in proportion (spec/results.md §9, as the results' point
   * clouds).
   */
  beforeDraw(interacting = false): void {
    const clouds = [...this.#view.nodes()]
      .map(([, node]) => ({ node, ...node.cloudSize() }))
      .filter((cloud) => cloud.count > 0)
    const counts = computeDrawCounts(
      clouds.map((cloud) => (cloud.visible ? cloud.count : 0)),
      'All',
      interacting,
    )
    clouds.forEach((cloud, index) => cloud.node.drawCloud(counts[index] ?? cloud.count))
    const camera = this.#host.camera()
    const height = this.#host.size().height
    const gizmo = this.#state.gizmo()
    this.#view.placeGizmo(
      gizmo === null ? null : { ...gizmo.shape, active: this.#pointer.activeHandle() },
    )
    this.#view.orderForDrawing(camera, (id) => this.#state.objectBounds(id))
    for (const [id, node] of this.#view.nodes()) {
      const origin = node.arrowOrigin()
      if (origin === null) continue
      const world = transformPoint(this.#state.poseOf(id), origin)
      node.scaleArrow(metresPerPixelAt(camera, height, world))
    }
  }

  /** Triangles and particles drawn. */
  drawn(): { points: number; triangles: number } {
    let points = 0
    let triangles = 0
    for (const [, node] of this.#view.nodes()) {
      const drawn = node.drawn()
      points += drawn.points
      triangles += drawn.triangles
    }
    return { points, triangles }
  }

  /** Bounds of everything visible (world). */
  bounds(): Bounds | null {
    return this.#state.bounds()
  }

  /**
   * Frames what is visible from the direction the camera looks in (during an orientation
   * animation: its destination); new objects are framed again until the camera is moved.
   */
  fitView(): void {
    this.#cameraPlaced = false
    this.#frame(this.#host.cameraDestination() ?? this.#host.camera())
  }

  /** Frames the visible objects from `from`'s direction; false when nothing is visible. */
  #frame(from: CameraState): boolean {
    const state = this.#state
    const bounds = state.bounds()
    if (bounds === null) return false
    const size = this.#host.size()
    this.#host.setCamera(frameBounds(from, bounds, size.width / size.height))
    this.#framed = this.#host.camera()
    this.#framedIds = new Set(
      [...state.objects.keys()].filter((id) => state.objectBounds(id) !== null),
    )
    return true
  }

  /**
   * The first time the shown setup is initialised with something to see, it is framed from the
   * front-right-top; after that, an object that appears (a part added, a mesh loaded) is framed
   * with the rest as long as the camera is where the last framing put it.
   */
  #frameAutomatically(): void {
    if (this.#cameraPlaced || !this.#active || !this.#state.initialized()) return
    const framed = this.#framed
    if (framed === null) {
      this.#frame(frontRightTopCamera(this.#host.camera()))
      return
    }
    const untouched = this.#host.camera() === framed && this.#host.cameraDestination() === null
    if (!untouched) return
    const state = this.#state
    const appeared = [...state.objects.keys()].some(
      (id) => !this.#framedIds.has(id) && state.objectBounds(id) !== null,
    )
    if (appeared) this.#frame(framed)
  }

  snapshot(): SetupSnapshot {
    const state = this.#state
    const initialized = state.initialized()
    const keyframeWarnings: string[] = []
    const pointcloudCounts: Record<string, number> = {}
    for (const [id, view] of state.objects) {
      const track = state.resources.get(id, 'keyframes')
      if (track !== null && track.keyframeCount >= KEYFRAME_WARNING_THRESHOLD)
        keyframeWarnings.push(view.name)
      const cloud = state.resources.get(id, 'pointcloud')
      if (cloud !== null && view.pointcloud?.visible === true) pointcloudCounts[id] = cloud.count
    }
    return {
      initialized,
      message: initialized ? SETUP_SCENE_MESSAGES.initialized : SETUP_SCENE_MESSAGES.initializing,
      hovered: this.#pointer.hovered(),
      loading: state.resources.loading(),
      failed: state.resources.failures(),
      tool: state.tool,
      dragging: this.#pointer.isDragging(),
      ...state.timeline.state(),
      endTimeS: state.endTimeS,
      keyframeWarnings,
      pointcloudCounts,
      meshHealth: state.meshHealth,
      defectMarker: state.defectMarker,
    }
  }

  dispose(): void {
    this.#state.resources.dispose()
    this.#view.dispose()
  }

  #refresh(id: string): void {
    const state = this.#state
    const view = state.objects.get(id)
    if (view === undefined) return
    const selected = state.selection.has(id)
    this.#view.node(id).update({
      view,
      placement: state.placementOf(id),
      pose: state.poseOf(id),
      selected,
      hovered: this.#pointer.hovered() === id,
      meshHealth: state.meshHealth,
      showSeed: selected && view.appearance.visible,
      seedPoint: state.seedPointOf(id),
    })
    this.#host.invalidate()
  }

  #refreshAll(): void {
    for (const id of this.#state.objects.keys()) this.#refresh(id)
    this.#host.invalidate()
  }
}
