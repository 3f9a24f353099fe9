import { useQueryClient } from '@tanstack/react-query'
import { useAtom, useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import { CAMERA_MODES, type CameraMode } from '../../../../../domain/results.ts'
import type { RenderIntent } from '../../../../../engine/protocol.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import {
  clipAtom,
  coordinateSystemAtom,
  pointSizeAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../../state/viewportAtoms.ts'
import { CanvasMenu, Segmented } from './CanvasMenu.tsx'
import { velocityArrowsAtom } from './canvasAtoms.ts'
import { ClipDialog } from './ClipDialog.tsx'
import {
  CLIP_MODE_KEYS,
  VELOCITY_COLUMNS,
  formatScaleLength,
  hasVelocityColumns,
  imageFileName,
  nudgeClip,
  viewObjects,
  type ClipTransformMode,
} from './canvasModel.ts'
import { savePostImage } from './saveImage.ts'
import { AxisGizmo, ViewCube } from './ViewGizmos.tsx'
import { FluidViewDialog, SolidViewDialog } from './ViewModeDialogs.tsx'
import './canvas.css'

/** The viewport's messages (spec/results.md §8). */
export const SAVE_IMAGE_MESSAGES = {
  saved: { title: 'Image saved!', description: 'You can see it on the monitoring page' },
  failed: { title: 'Saving image failed', description: 'Try again in a few moments.' },
} as const

const CAMERA_MODE_LABELS: Record<CameraMode, string> = {
  perspective: 'Perspective',
  orthographic: 'Orthographic',
}

type MenuName = 'solid' | 'fluid' | 'clip'

/** True while typing or choosing in a field: keys then belong to it. */
function isEditingField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/**
 * Keys t and r choose the clipping plane's translate or rotate mode; the arrow keys then move it
 * along its axis or turn it to the next axis: while the plane is on, no field has focus, and the Clip
 * dialog is open or the focus is in the 3D view (elsewhere the arrows keep scrolling the page).
 */
function useClipKeys(
  mode: ClipTransformMode,
  setMode: (mode: ClipTransformMode) => void,
  dialogOpen: boolean,
) {
  const [clip, setClip] = useAtom(clipAtom)
  const bounds = useAtomValue(viewportStateAtom).snapshot?.bounds ?? null
  useEffect(() => {
    if (!clip.enabled) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isEditingField(event.target)) return
      const chosen = CLIP_MODE_KEYS[event.key.toLowerCase()]
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
  }, [clip, setClip, bounds, mode, setMode, dialogOpen])
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

/** Save Image: the current frame as the simulation's post image, and as a PNG to download. */
function SaveImageButton({ simulation }: { simulation: Simulation }) {
  const engine = useAtomValue(viewportEngineAtom)
  const shownOutput = useAtomValue(viewportStateAtom).snapshot?.shownOutput ?? null
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  const [saving, setSaving] = useState(false)
  const [download, setDownload] = useState<{ url: string; fileName: string } | null>(null)

  useEffect(
    () => () => {
      if (download) URL.revokeObjectURL(download.url)
    },
    [download],
  )

  const save = async () => {
    if (!engine || saving) return
    setSaving(true)
    const fileName = imageFileName(simulation.name, shownOutput)
    try {
      const png = await engine.saveImage()
      setDownload({ url: URL.createObjectURL(png), fileName })
      const saved = await savePostImage(simulation.id, png, fileName)
      // The monitoring page shows the new post image without waiting for the next poll.
      queryClient.setQueryData(
        routeKey('getSimulation', { params: { id: String(simulation.id) } }),
        saved.simulation,
      )
      pushToast({
        id: 'save-image',
        kind: 'success',
        ...SAVE_IMAGE_MESSAGES.saved,
        links: [{ label: 'Open monitoring', to: `/simulation/${simulation.id}/dashboard` }],
      })
    } catch {
      pushToast({ id: 'save-image', kind: 'error', ...SAVE_IMAGE_MESSAGES.failed })
    } finally {
      setSaving(false)
    }
  }

  return (
    <>
      <button
        type="button"
        className="canvas-tool"
        onClick={() => void save()}
        disabled={!engine || saving}
        aria-busy={saving}
      >
        {saving ? 'Saving…' : 'Save Image'}
      </button>
      {download && (
        <a className="canvas-tool" href={download.url} download={download.fileName}>
          Download PNG
        </a>
      )}
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

/**
 * The canvas menus and the viewport chrome of the Results screen: the solid and fluid view mode
 * dialogs, the Clip dialog, the camera mode switch, the coordinate-system toggle and Save Image
 * (top), the view cube (top right), the axis gizmo and the scale bar (above the timeline). All of
 * it talks to the render worker through intents and reads its snapshot; none of it touches three.js.
 */
export function CanvasMenus({
  simulation,
  list,
}: {
  simulation: Simulation
  list: OutputManifestList
}) {
  const engine = useAtomValue(viewportEngineAtom)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const [coordinateSystem, setCoordinateSystem] = useAtom(coordinateSystemAtom)
  const pointSizePx = useAtomValue(pointSizeAtom)
  const velocityArrows = useAtomValue(velocityArrowsAtom)
  const [openMenu, setOpenMenu] = useState<MenuName | null>(null)
  const [clipMode, setClipMode] = useState<ClipTransformMode>('translate')
  useClipKeys(clipMode, setClipMode, openMenu === 'clip')
  const objects = useMemo(() => viewObjects(list), [list])
  const arrowsAvailable = useMemo(() => hasVelocityColumns(list), [list])
  const camera = snapshot?.camera ?? null

  const dispatch = useCallback((intent: RenderIntent) => engine?.dispatch(intent), [engine])
  useEffect(() => {
    dispatch({ type: 'set_coordinate_system', visible: coordinateSystem })
  }, [dispatch, coordinateSystem])
  useEffect(() => {
    dispatch({ type: 'set_point_size', sizePx: pointSizePx })
  }, [dispatch, pointSizePx])
  useEffect(() => {
    const enabled = velocityArrows && arrowsAvailable
    dispatch({ type: 'set_vectors', enabled, columns: enabled ? VELOCITY_COLUMNS : null })
  }, [dispatch, velocityArrows, arrowsAvailable])

  const menuProps = (name: MenuName) => ({
    open: openMenu === name,
    onOpenChange: (open: boolean) => setOpenMenu(open ? name : null),
  })

  return (
    <ViewportLayer>
      <div className="canvas-toolbar" role="toolbar" aria-label="Canvas menus">
        <CanvasMenu label="Solid view" title="Solid view mode" {...menuProps('solid')}>
          <SolidViewDialog parts={objects.parts} />
        </CanvasMenu>
        <CanvasMenu label="Fluid view" title="Fluid view mode" {...menuProps('fluid')}>
          <FluidViewDialog fluids={objects.fluids} arrowsAvailable={arrowsAvailable} />
        </CanvasMenu>
        <CanvasMenu label="Clip" {...menuProps('clip')}>
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
        <SaveImageButton simulation={simulation} />
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
