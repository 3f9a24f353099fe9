import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react'
import {
  dropTargetOf,
  passedDragThreshold,
  type DropTarget,
  type ScreenPoint,
} from './assemblyDrag.ts'

/** A drag under way: what it carries, where the pointer is and the target under it. */
export interface NodeDrag {
  nodeIds: string[]
  names: string[]
  at: ScreenPoint
  over: DropTarget | null
}

interface Press {
  pointerId: number
  start: ScreenPoint
  nodeIds: string[]
  names: string[]
  dragging: boolean
}

/** The drop target under a pointer event (touch pointers stay captured by the pressed row). */
function targetUnder(event: globalThis.PointerEvent): DropTarget | null {
  const under = document.elementFromPoint(event.clientX, event.clientY)
  return dropTargetOf(under ?? (event.target instanceof Element ? event.target : null))
}

/**
 * Dragging tree nodes (spec/setup.md §2): a press on a row becomes a drag once the pointer moved
 * 6 px; releasing it over a part or the create area hands the nodes to `onDrop`; Escape or a
 * release elsewhere drops nothing. A press that never moves far stays a click or double click.
 */
export function useNodeDrag(onDrop: (nodeIds: string[], target: DropTarget) => void) {
  const [drag, setDrag] = useState<NodeDrag | null>(null)
  const press = useRef<Press | null>(null)
  const onDropRef = useRef(onDrop)
  const detach = useRef<(() => void) | null>(null)

  useEffect(() => {
    onDropRef.current = onDrop
  }, [onDrop])
  useEffect(() => () => detach.current?.(), [])

  const end = useCallback(() => {
    press.current = null
    detach.current?.()
    detach.current = null
    setDrag(null)
  }, [])

  const begin = useCallback(
    (event: PointerEvent, nodeIds: string[], names: string[]) => {
      if (event.button !== 0 || nodeIds.length === 0) return
      detach.current?.()
      press.current = {
        pointerId: event.pointerId,
        start: { x: event.clientX, y: event.clientY },
        nodeIds,
        names,
        dragging: false,
      }
      const move = (moved: globalThis.PointerEvent) => {
        const current = press.current
        if (!current || moved.pointerId !== current.pointerId) return
        const at = { x: moved.clientX, y: moved.clientY }
        if (!current.dragging && !passedDragThreshold(current.start, at)) return
        current.dragging = true
        moved.preventDefault()
        setDrag({ nodeIds: current.nodeIds, names: current.names, at, over: targetUnder(moved) })
      }
      const up = (released: globalThis.PointerEvent) => {
        const current = press.current
        if (!current || released.pointerId !== current.pointerId) return
        const target = current.dragging ? targetUnder(released) : null
        end()
        if (target) onDropRef.current(current.nodeIds, target)
      }
      const key = (pressed: KeyboardEvent) => {
        if (pressed.key === 'Escape' && press.current?.dragging) {
          pressed.stopPropagation()
          end()
        }
      }
      window.addEventListener('pointermove', move)
      window.addEventListener('pointerup', up)
      window.addEventListener('pointercancel', end)
      window.addEventListener('keydown', key, true)
      detach.current = () => {
        window.removeEventListener('pointermove', move)
        window.removeEventListener('pointerup', up)
        window.removeEventListener('pointercancel', end)
        window.removeEventListener('keydown', key, true)
      }
    },
    [end],
  )

  return { drag, begin, cancel: end }
}
