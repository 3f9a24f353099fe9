/**
 * What the pointer does in the setup view: clicks and double clicks (after the engine's 300 ms
 * window) and hover on objects, and the drags of the gizmo handles and the seed-point handle (a
 * press on a handle takes the pointer from the camera until release; the part moves in the view at
 * once and the release emits the placement or point to save).
 */
import type { ForwardedPointerEvent } from '../../protocol.ts'
import type { SetupEvent } from '../../setupProtocol.ts'
import { cameraBasis } from '../camera.ts'
import type { SceneHost } from '../host.ts'
import type { GizmoAxis } from './gizmo.ts'
import { dragMoved, moveDrag, type SetupDrag } from './setupDrags.ts'
import { HANDLE_PICK_PX, pickGizmoHandle } from './setupPicking.ts'
import { projectToScreen, transformDirection, transformPoint, transformRay } from './setupMath.ts'
import type { SetupState } from './SetupState.ts'

/** The pointer's share of the setup scene. */
export class SetupPointer {
  #host: SceneHost
  #state: SetupState
  #emit: (event: SetupEvent) => void
  #refresh: (id: string) => void
  #drag: SetupDrag | null = null
  #hovered: string | null = null
  #hoveredHandle: GizmoAxis | null = null

  /** `refresh(id)`: an object's look changed (hover, a drag). */
  constructor(
    host: SceneHost,
    state: SetupState,
    emit: (event: SetupEvent) => void,
    refresh: (id: string) => void,
  ) {
    this.#host = host
    this.#state = state
    this.#emit = emit
    this.#refresh = refresh
  }

  hovered(): string | null {
    return this.#hovered
  }

  /** The gizmo handle to light up: the one dragged, else the one under the pointer. */
  activeHandle(): GizmoAxis | null {
    return this.#drag?.kind === 'gizmo' ? this.#drag.axis : this.#hoveredHandle
  }

  /** The object being dragged (its moved placement must survive a `setup_objects`). */
  draggedId(): string | null {
    return this.#drag?.id ?? null
  }

  /**
   * A press on a handle starts a drag, moves follow it, the release ends it. True when the event
   * was a drag's (the camera must not see it).
   */
  handle(event: ForwardedPointerEvent): boolean {
    const drag = this.#drag
    if (drag !== null && event.pointerId === drag.pointerId) {
      if (event.type === 'pointermove') {
        const ray = this.#state.rayAt(event.x, event.y)
        if (ray !== null && moveDrag(drag, ray)) this.#show(drag)
      } else if (event.type === 'pointerup') {
        this.#drag = null
        if (dragMoved(drag)) this.#finish(drag)
        else this.#state.moved.delete(drag.id)
      } else if (event.type === 'pointercancel' || event.type === 'pointerleave') {
        this.#drag = null
        this.#state.moved.delete(drag.id)
      }
      this.#refresh(drag.id)
      this.#host.invalidate()
      return true
    }
    if (event.type !== 'pointerdown' || event.button !== 0) return false
    if (event.shiftKey || event.ctrlKey || event.metaKey) return false
    this.#drag = this.#start(event)
    if (this.#drag !== null) this.#host.invalidate()
    return this.#drag !== null
  }

  isDragging(): boolean {
    return this.#drag !== null
  }

  /** A click (after the double-click window): the object under it, or null for empty space. */
  click(x: number, y: number, additive: boolean): void {
    this.#emit({ type: 'click', id: this.#state.pickAt(x, y), additive })
  }

  /** A double click on an object (nothing on empty space). */
  doubleClick(x: number, y: number): void {
    const id = this.#state.pickAt(x, y)
    if (id !== null) this.#emit({ type: 'double_click', id })
  }

  /** The object (or gizmo handle) under a resting pointer. */
  hoverAt(x: number, y: number): void {
    const gizmo = this.#state.gizmo()
    const scene = this.#host.scene()
    const handle =
      gizmo === null || scene === null
        ? null
        : pickGizmoHandle(gizmo.shape, scene.viewProjection().elements, this.#host.size(), x, y)
    this.#setHover(handle !== null ? gizmo!.id : this.#state.pickAt(x, y), handle)
  }

  clearHover(): void {
    this.#setHover(null, null)
  }

  #setHover(id: string | null, handle: GizmoAxis | null): void {
    if (id === this.#hovered && handle === this.#hoveredHandle) return
    const previous = this.#hovered
    this.#hovered = id
    this.#hoveredHandle = handle
    if (previous !== null) this.#refresh(previous)
    if (id !== null) this.#refresh(id)
    this.#host.invalidate()
  }

  #start(event: ForwardedPointerEvent): SetupDrag | null {
    const scene = this.#host.scene()
    const ray = this.#state.rayAt(event.x, event.y)
    if (scene === null || ray === null) return null
    const viewProjection = scene.viewProjection().elements
    const size = this.#host.size()
    const gizmo = this.#state.gizmo()
    const axis =
      gizmo === null ? null : pickGizmoHandle(gizmo.shape, viewProjection, size, event.x, event.y)
    if (gizmo !== null && axis !== null) {
      const toParent = gizmo.shape.frame.clone().invert()
      return {
        kind: 'gizmo',
        pointerId: event.pointerId,
        id: gizmo.id,
        tool: gizmo.shape.tool,
        axis,
        toParent,
        pressRay: transformRay(ray, toParent),
        pivot: gizmo.shape.pivot,
        start: gizmo.transform,
        current: gizmo.transform,
      }
    }
    // The seed point of a selected editable part drags in the view plane.
    for (const id of this.#state.selection) {
      const view = this.#state.objects.get(id)
      const seed = this.#state.seedPointOf(id)
      if (view === undefined || seed === null || !view.editable || !view.appearance.visible)
        continue
      const frame = this.#state.poseOf(id)
      const screen = projectToScreen(viewProjection, size, transformPoint(frame, seed))
      if (screen === null || Math.hypot(screen.x - event.x, screen.y - event.y) > HANDLE_PICK_PX)
        continue
      const toParent = frame.clone().invert()
      return {
        kind: 'seed',
        pointerId: event.pointerId,
        id,
        toParent,
        forward: transformDirection(toParent, cameraBasis(this.#host.camera()).forward),
        start: [...seed],
        current: [...seed],
      }
    }
    return null
  }

  /** The part (or its seed point) moves in the view at once. */
  #show(drag: SetupDrag): void {
    const moved = this.#state.moved.get(drag.id) ?? {}
    if (drag.kind === 'seed') moved.seedPoint = drag.current
    else moved.transform = drag.current
    this.#state.moved.set(drag.id, moved)
  }

  /** The drag ended: what it moved stays in the view and goes out to be saved. */
  #finish(drag: SetupDrag): void {
    this.#show(drag)
    if (drag.kind === 'seed')
      this.#emit({ type: 'seed_point', id: drag.id, position: [...drag.current] })
    else
      this.#emit({
        type: 'transform',
        id: drag.id,
        translation: [...drag.current.translation],
        rotationDeg: [...drag.current.rotationDeg],
      })
  }
}
