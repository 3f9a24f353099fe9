import { useAtomValue } from 'jotai'
import { useState } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import { viewportEngineAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { usePartsQuery } from '../queries/setupQueries.ts'
import {
  MESH_CHECK_LISTS,
  cameraAtDefect,
  defectName,
  defectSizeText,
  isMarkedDefect,
  meshDefects,
  type MeshDefectEntry,
} from './meshDefects.ts'
import './meshCheck.css'

function DefectList(props: {
  kind: MeshDefectEntry['kind']
  defects: readonly MeshDefectEntry[]
  marked: (defect: MeshDefectEntry) => boolean
  canZoom: boolean
  onZoom: (defect: MeshDefectEntry) => void
}) {
  const title = MESH_CHECK_LISTS[props.kind]
  return (
    <section className="mesh-check__section">
      <h3 className="mesh-check__heading">
        {title} ({props.defects.length})
      </h3>
      {props.defects.length === 0 ? (
        <p className="mesh-check__none">None</p>
      ) : (
        <ul className="mesh-check__list" aria-label={title}>
          {props.defects.map((defect) => {
            const name = defectName(defect)
            const marked = props.marked(defect)
            return (
              <li
                key={defect.key}
                className={`mesh-check__defect${marked ? ' mesh-check__defect--marked' : ''}`}
                aria-current={marked || undefined}
              >
                <span className="mesh-check__name">{name}</span>
                <span className="mesh-check__size">{defectSizeText(defect)}</span>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={`Zoom to ${name}`}
                  disabled={!props.canZoom}
                  onClick={() => props.onZoom(defect)}
                >
                  Zoom
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

/**
 * Mesh-health mode (spec/setup.md §2): holes and non-manifold edges of the part meshes highlighted.
 * Pressed while the engine says the mode is on (a Zoom of the Mesh Check dialog turns it on too).
 */
export function MeshHealthTool() {
  const engine = useAtomValue(viewportEngineAtom)
  const enabled = useAtomValue(viewportStateAtom).snapshot?.setup?.meshHealth ?? false
  return (
    <button
      type="button"
      className="canvas-tool"
      aria-pressed={enabled}
      disabled={!engine}
      onClick={() => engine?.dispatch({ type: 'setup_mesh_health', enabled: !enabled })}
    >
      Mesh health
    </button>
  )
}

/**
 * The Mesh Check button and dialog (spec/setup.md §2): the holes and non-manifold edges of the
 * parts' meshes, listed per defect. Zoom turns mesh-health mode on (every defect's edges drawn),
 * rings the defect in the view, points the camera at it and closes the dialog so the view shows.
 */
export function MeshCheckTool({ simulation }: { simulation: Simulation }) {
  const [open, setOpen] = useState(false)
  const engine = useAtomValue(viewportEngineAtom)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const camera = snapshot?.camera
  const marker = snapshot?.setup?.meshHealth ? (snapshot.setup.defectMarker ?? null) : null
  const parts = usePartsQuery(simulation.id).data ?? []
  const { holes, nonManifold } = meshDefects(parts)
  const zoom = (defect: MeshDefectEntry) => {
    if (!engine || !camera) return
    engine.dispatch({ type: 'setup_mesh_health', enabled: true })
    engine.dispatch({
      type: 'setup_defect_marker',
      marker: { center: defect.center, sizeM: defect.size },
    })
    engine.dispatch({ type: 'set_camera', camera: cameraAtDefect(defect, camera) })
    setOpen(false)
  }
  const lists = { canZoom: !!engine && !!camera, marked: isMarkedDefect(marker), onZoom: zoom }
  return (
    <>
      <button type="button" className="canvas-tool" onClick={() => setOpen(true)}>
        Mesh check
      </button>
      {open && (
        <Dialog title="Mesh Check" size="small" onClose={() => setOpen(false)}>
          <div className="dialog__body mesh-check">
            <DefectList kind="hole" defects={holes} {...lists} />
            <DefectList kind="nonManifold" defects={nonManifold} {...lists} />
          </div>
        </Dialog>
      )}
    </>
  )
}
