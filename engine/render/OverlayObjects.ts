/**
 * The results scene's sensors and volume clips as drawn objects, built from the setup scene's
 * pieces: a SetupNode per object (a point sensor's marker, a surface sensor's or a clip's placed
 * mesh) under one root, meshes fetched and decoded by the data workers' setup path
 * (SetupResources: diffed by hash, never fetched twice). Clips are drawn translucent so the fluid
 * inside them shows. Nothing here is picked or dragged.
 */
import { Matrix4, type Object3D } from 'three'
import type { OverlaySnapshot, VolumeClipView } from '../overlayProtocol.ts'
import type { SetupObjectView } from '../setupProtocol.ts'
import { clipPlaneEquation } from './clip.ts'
import type { SceneHost } from './host.ts'
import { diffSetupObjects, geometryKey } from './setup/objects.ts'
import { SetupResources, toLoadedMesh, type SetupResourceKind } from './setup/SetupResources.ts'
import { SetupView } from './setup/SetupView.ts'

const IDENTITY = new Matrix4()

/** A clip as drawn: its own appearance, translucent. */
function clipLook(clip: VolumeClipView): SetupObjectView {
  return { ...clip.view, appearance: { ...clip.view.appearance, translucent: true } }
}

/** Sensors and volume clips over the results. */
export class OverlayObjects {
  #host: SceneHost
  #view = new SetupView()
  #resources: SetupResources
  #objects = new Map<string, SetupObjectView>()
  #used = false

  constructor(host: SceneHost) {
    this.#host = host
    this.#resources = new SetupResources(host, (id, kind) => this.#settled(id, kind))
  }

  /** The objects to draw with the shown output. */
  root(): Object3D {
    return this.#view.root
  }

  /** True once sensors or clips were set (the snapshot reports them from then on). */
  used(): boolean {
    return this.#used
  }

  /** Takes the whole list of sensors and clips (unchanged meshes are not fetched again). */
  set(sensors: readonly SetupObjectView[], clips: readonly VolumeClipView[]): void {
    this.#used = true
    const next = [...sensors, ...clips.map(clipLook)]
    const diff = diffSetupObjects(this.#objects, next, null, null)
    for (const id of diff.removed) {
      this.#objects.delete(id)
      this.#resources.drop(id)
      this.#view.remove(id)
    }
    for (const view of [...diff.added, ...diff.changed.map((change) => change.view)]) {
      this.#objects.set(view.id, view)
      this.#want(view)
    }
    for (const id of this.#objects.keys()) this.#refresh(id)
    this.#order()
    this.#host.invalidate()
  }

  /** The camera, the clip plane or the viewport changed. */
  viewChanged(): void {
    this.#view.setClip(clipPlaneEquation(this.#host.clip()))
    this.#view.setViewport(this.#host.size())
    this.#order()
  }

  /** Translucent clips back to front, coincident faces told apart (SetupView.orderForDrawing). */
  #order(): void {
    this.#view.orderForDrawing(this.#host.camera(), (id) => {
      const mesh = this.#resources.get(id, 'mesh')
      const visible = this.#objects.get(id)?.appearance.visible === true
      return visible && mesh !== null && mesh.data.triangleCount > 0 ? mesh.data.bounds : null
    })
  }

  /** A renewed token: failed fetches get another chance. */
  retryFailed(): void {
    this.#resources.retryFailed()
  }

  /** Meshes being fetched and what failed (ids as the UI posted them). */
  snapshot(): OverlaySnapshot {
    return { loading: this.#resources.loading(), failed: this.#resources.failures() }
  }

  /** Triangles of the overlay meshes drawn. */
  drawnTriangles(): number {
    let triangles = 0
    for (const [, node] of this.#view.nodes()) triangles += node.drawn().triangles
    return triangles
  }

  dispose(): void {
    this.#resources.dispose()
    this.#view.dispose()
  }

  #want(view: SetupObjectView): void {
    const geometry = view.geometry
    const mesh = geometry.type === 'mesh' ? geometry : null
    this.#resources.want(
      view.id,
      'mesh',
      mesh === null ? null : geometryKey(mesh),
      async (worker, requestId) =>
        toLoadedMesh(
          await worker.loadSetupMesh({
            url: mesh!.url,
            accessToken: this.#host.accessToken(),
            requestId,
          }),
        ),
    )
    if (mesh === null) this.#view.existingNode(view.id)?.setMesh(null)
  }

  #settled(id: string, kind: SetupResourceKind): void {
    if (kind !== 'mesh') return
    this.#view.node(id).setMesh(this.#resources.get(id, 'mesh')?.data ?? null)
    this.#refresh(id)
    this.#order()
    this.#host.invalidate()
    this.#host.requestFrame()
  }

  #refresh(id: string): void {
    const view = this.#objects.get(id)
    if (view === undefined) return
    this.#view.node(id).update({
      view,
      placement: IDENTITY,
      pose: IDENTITY,
      selected: false,
      hovered: false,
      meshHealth: false,
      showSeed: false,
      seedPoint: null,
    })
  }
}
