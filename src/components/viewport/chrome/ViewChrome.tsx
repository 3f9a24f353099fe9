import { useAtom, useAtomValue } from 'jotai'
import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { CAMERA_MODES, type CameraMode } from '../../../../domain/results.ts'
import type { RenderIntent } from '../../../../engine/protocol.ts'
import {
  clipAtom,
  coordinateSystemAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../state/viewportAtoms.ts'
import { CanvasMenu, Segmented } from './CanvasMenu.tsx'
import { ClipDialog } from './ClipDialog.tsx'
import { AxisGizmo, ViewCube } from './ViewGizmos.tsx'
import {
  CLIP_MODE_KEYS,
  formatScaleLength,
  nudgeClip,
  type ClipTransformMode,
} from './viewChromeModel.ts'
import { isEditingField } from '../../../lib/keyboard.ts'
import './viewChrome.css'

const CAMERA_MODE_LABELS: Record<CameraMode, string> = {
  perspective: 'Perspective',
  orthographic: 'Orthographic',
}

/**
 * While the plane is on, no field has focus, and the Clip dialog is open or the focus is in the 3D
 * view (elsewhere the arrows keep scrolling the page), the arrow keys move the plane along its axis
 * or turn it to the next axis; keys t and r choose between the two when `modeKeys` is set.
 */
function useClipKeys(
  mode: ClipTransformMode,
  setMode: (mode: ClipTransformMode) => void,
  dialogOpen: boolean,
  modeKeys: boolean,
) {
  const [clip, setClip] = useAtom(clipAtom)
  const bounds = useAtomValue(viewportStateAtom).snapshot?.bounds ?? null
  useEffect(() => {
    if (!clip.enabled) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isEditingField(event.target)) return
      const chosen = modeKeys ? CLIP_MODE_KEYS[event.key.toLowerCase()] : undefined
      if (chosen !== undefined) {
        setMode(chosen)
        return
      }
      const inView = event.target instanceof Element && event.target.closest('.viewport') !== null
      if (!dialogOpen && !inView) return
      const next = nudgeClip(clip, mode, event.key, bounds)
      if (next === null) return
      event.preventDefault()
      setClip(next)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [clip, setClip, bounds, mode, setMode, dialogOpen, modeKeys])
}

/**
 * Puts the chrome over the whole 3D view: the page mounts the menus inside the Viewport's bottom
 * overlay, so they portal into the enclosing `.viewport` (inline where there is none, in tests).
 */
function ViewportLayer({ children }: { children: ReactNode }) {
  // Where the layer goes once the anchor is in the document: the view, or inline (undefined: not yet).
  const [host, setHost] = useState<HTMLElement | null | undefined>(undefined)
  const attach = useCallback((anchor: HTMLSpanElement | null) => {
    if (anchor) setHost(anchor.closest<HTMLElement>('.viewport'))
  }, [])
  const layer = <div className="canvas-layer">{children}</div>
  return (
    <>
      <span ref={attach} hidden />
      {host ? createPortal(layer, host) : host === null ? layer : null}
    </>
  )
}

/** The scale bar (snapshot.scaleBar: a nice length and its width in CSS pixels). */
function ScaleBar({ scaleBar }: { scaleBar: { lengthM: number; widthPx: number } }) {
  const label = formatScaleLength(scaleBar.lengthM)
  return (
    <div className="canvas-scale" role="img" aria-label={`Scale bar ${label}`}>
      <span className="canvas-scale__label">{label}</span>
      <span className="canvas-scale__bar" style={{ width: `${Math.round(scaleBar.widthPx)}px` }} />
    </div>
  )
}

/** Open state of one canvas menu (one menu is open at a time). */
export interface CanvasMenuState {
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * The viewport chrome both 3D views share (spec/results.md §3, spec/setup.md §2 "3D viewport"):
 * the Clip dialog, the camera mode switch (perspective or orthographic), the coordinate-system
 * toggle and Fit view (top), the view cube (top right), the axis gizmo and the scale bar (bottom).
 * A page adds its own menus before Clip and its own tools after Fit view. Everything goes to the
 * render worker as intents; none of it touches three.js.
 */
export function ViewChrome({
  menus,
  tools,
  clipModeKeys = true,
}: {
  /** The page's own menus, before Clip; `menu(name)` gives each its open state. */
  menus?: (menu: (name: string) => CanvasMenuState) => ReactNode
  /** The page's own tools, after Fit view (Save Image on Results). */
  tools?: ReactNode
  /** Keys t and r choose the clip's transform mode (the Setup view uses them for its gizmo). */
  clipModeKeys?: boolean
}) {
  const engine = useAtomValue(viewportEngineAtom)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const [coordinateSystem, setCoordinateSystem] = useAtom(coordinateSystemAtom)
  const [openMenu, setOpenMenu] = useState<string | null>(null)
  const [clipMode, setClipMode] = useState<ClipTransformMode>('translate')
  useClipKeys(clipMode, setClipMode, openMenu === 'clip', clipModeKeys)
  const camera = snapshot?.camera ?? null

  const dispatch = useCallback((intent: RenderIntent) => engine?.dispatch(intent), [engine])
  useEffect(() => {
    dispatch({ type: 'set_coordinate_system', visible: coordinateSystem })
  }, [dispatch, coordinateSystem])

  const menu = (name: string): CanvasMenuState => ({
    open: openMenu === name,
    onOpenChange: (open: boolean) => setOpenMenu(open ? name : null),
  })

  return (
    <ViewportLayer>
      <div className="canvas-toolbar" role="toolbar" aria-label="Canvas menus">
        {menus?.(menu)}
        <CanvasMenu label="Clip" {...menu('clip')}>
          <ClipDialog mode={clipMode} onModeChange={setClipMode} />
        </CanvasMenu>
        <Segmented
          label="Camera mode"
          options={CAMERA_MODES}
          value={camera?.mode ?? null}
          labelOf={(mode) => CAMERA_MODE_LABELS[mode]}
          onChange={(mode) => dispatch({ type: 'set_camera_mode', mode })}
        />
        <button
          type="button"
          className="canvas-tool"
          aria-pressed={coordinateSystem}
          onClick={() => setCoordinateSystem(!coordinateSystem)}
        >
          Coordinate system
        </button>
        <button
          type="button"
          className="canvas-tool"
          onClick={() => dispatch({ type: 'fit_view' })}
          disabled={!engine}
        >
          Fit view
        </button>
        {tools}
      </div>
      {camera && (
        <div className="canvas-cube-holder">
          <ViewCube camera={camera} dispatch={dispatch} />
        </div>
      )}
      {camera && (
        <div className="canvas-gizmo-holder">
          <AxisGizmo camera={camera} dispatch={dispatch} />
        </div>
      )}
      {snapshot?.scaleBar && <ScaleBar scaleBar={snapshot.scaleBar} />}
    </ViewportLayer>
  )
}
