import { useAtomValue } from 'jotai'
import { useState } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import { viewportEngineAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { usePartsQuery } from '../queries/setupQueries.ts'
import { cameraAtDefect, meshDefects, type MeshDefectEntry } from './meshDefects.ts'

function DefectList({
  title,
  defects,
  onZoom,
}: {
  title: string
  defects: readonly MeshDefectEntry[]
  onZoom: (defect: MeshDefectEntry) => void
}) {
  const label = title === 'Holes' ? 'Hole' : 'Non-manifold edge'
  return (
    <section aria-label={title}>
      <h3>
        {title} ({formatNumber(defects.length)})
      </h3>
      {defects.length === 0 ? (
        <p>None</p>
      ) : (
        <ul className="mesh-check__list">
          {defects.map((defect) => {
            const name = `${defect.partName}: ${label} ${defect.number}`
            return (
              <li key={defect.key}>
                <span>
                  {name} ({formatNumber(defect.size)} m)
                </span>{' '}
                <button type="button" aria-label={`Zoom to ${name}`} onClick={() => onZoom(defect)}>
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
 * The Mesh Check button and dialog (spec/setup.md §2): the holes and non-manifold edges of the
 * parts' meshes, listed per defect; Zoom points the camera at one (mesh-health mode shows them).
 */
export function MeshCheckTool({ simulation }: { simulation: Simulation }) {
  const [open, setOpen] = useState(false)
  const engine = useAtomValue(viewportEngineAtom)
  const camera = useAtomValue(viewportStateAtom).snapshot?.camera
  const parts = usePartsQuery(simulation.id).data ?? []
  const { holes, nonManifold } = meshDefects(parts)
  const zoom = (defect: MeshDefectEntry) => {
    if (!engine || !camera) return
    engine.dispatch({ type: 'setup_mesh_health', enabled: true })
    engine.dispatch({ type: 'set_camera', camera: cameraAtDefect(defect, camera) })
  }
  return (
    <>
      <button type="button" className="canvas-tool" onClick={() => setOpen(true)}>
        Mesh check
      </button>
      {open && (
        <Dialog title="Mesh Check" size="small" onClose={() => setOpen(false)}>
          <DefectList title="Holes" defects={holes} onZoom={zoom} />
          <DefectList title="Non-Manifold" defects={nonManifold} onZoom={zoom} />
        </Dialog>
      )}
    </>
  )
}
