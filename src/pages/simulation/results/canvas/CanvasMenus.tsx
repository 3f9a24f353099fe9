import { useQueryClient } from '@tanstack/react-query'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import type { RenderIntent } from '../../../../../engine/protocol.ts'
import { CanvasMenu } from '../../../../components/viewport/chrome/CanvasMenu.tsx'
import { ViewChrome } from '../../../../components/viewport/chrome/ViewChrome.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import {
  pointSizeAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../../state/viewportAtoms.ts'
import { velocityArrowsAtom } from './canvasAtoms.ts'
import { VELOCITY_COLUMNS, hasVelocityColumns, imageFileName, viewObjects } from './canvasModel.ts'
import { savePostImage } from './saveImage.ts'
import { FluidViewDialog, SolidViewDialog } from './ViewModeDialogs.tsx'

/** The viewport's messages (spec/results.md §8). */
export const SAVE_IMAGE_MESSAGES = {
  saved: { title: 'Image saved!', description: 'You can see it on the monitoring page' },
  failed: { title: 'Saving image failed', description: 'Try again in a few moments.' },
} as const

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
  const pointSizePx = useAtomValue(pointSizeAtom)
  const velocityArrows = useAtomValue(velocityArrowsAtom)
  const objects = useMemo(() => viewObjects(list), [list])
  const arrowsAvailable = useMemo(() => hasVelocityColumns(list), [list])

  const dispatch = useCallback((intent: RenderIntent) => engine?.dispatch(intent), [engine])
  useEffect(() => {
    dispatch({ type: 'set_point_size', sizePx: pointSizePx })
  }, [dispatch, pointSizePx])
  useEffect(() => {
    const enabled = velocityArrows && arrowsAvailable
    dispatch({ type: 'set_vectors', enabled, columns: enabled ? VELOCITY_COLUMNS : null })
  }, [dispatch, velocityArrows, arrowsAvailable])

  return (
    <ViewChrome
      menus={(menu) => (
        <>
          <CanvasMenu label="Solid view" title="Solid view mode" {...menu('solid')}>
            <SolidViewDialog parts={objects.parts} />
          </CanvasMenu>
          <CanvasMenu label="Fluid view" title="Fluid view mode" {...menu('fluid')}>
            <FluidViewDialog fluids={objects.fluids} arrowsAvailable={arrowsAvailable} />
          </CanvasMenu>
        </>
      )}
      tools={<SaveImageButton simulation={simulation} />}
    />
  )
}
