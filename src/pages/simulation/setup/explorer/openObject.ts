import { useSetAtom } from 'jotai'
import { useCallback } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { SENSORS_LOCKED_MESSAGE } from '../../../../../domain/rest/sensorRoutes.ts'
import { canEditSensors } from '../../../../../domain/results.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import {
  parseObjectId,
  setupObjectDialogAtom,
  sideFormAtom,
  type PartFolder,
  type SetupObjectDialog,
  type SetupObjectId,
  type SideForm,
} from '../state/setupAtoms.ts'

/** What opening an object shows: a side form, the sensor or clip dialog, or nothing. */
export type OpenTarget = { form: SideForm } | { dialog: SetupObjectDialog } | null

/**
 * What a double click (explorer or view), Enter or an Input Validation item opens for an object:
 * a part's form at `folder` (Geometry by default), a material's form, the coordinate system's and
 * the deletion boundary's, the air drag domain's and the periodic boundary's small forms, a
 * refinement zone's form, a sensor's or volume clip's dialog.
 */
export function openTargetOf(id: SetupObjectId, folder: PartFolder = 'geometry'): OpenTarget {
  const { kind, id: numericId } = parseObjectId(id)
  switch (kind) {
    case 'part':
      return numericId === null
        ? null
        : { form: folder === 'motion' ? { kind: 'motion' } : { kind: 'part', folder } }
    case 'material':
      return numericId === null ? null : { form: { kind: 'material', materialId: numericId } }
    case 'coordinate_system':
      return { form: { kind: 'coordinateSystem' } }
    case 'calc_domain':
      return { form: { kind: 'calcDomain' } }
    case 'air_drag_domain':
      return { form: { kind: 'airDragDomain' } }
    case 'periodic_boundary':
      return { form: { kind: 'periodicBoundary' } }
    case 'refinement':
      return numericId === null ? null : { form: { kind: 'refinement', refinementId: numericId } }
    case 'sensor':
      return numericId === null ? null : { dialog: { kind: 'sensor', sensorId: numericId } }
    case 'volume_clip':
      return numericId === null ? null : { dialog: { kind: 'volumeClip', clipId: numericId } }
    default:
      return null
  }
}

/**
 * Sensors and volume clips can be added or edited only while the setup is editable and the
 * simulation is neither running nor scheduled; the reason when not (null: they can).
 */
export function sensorEditBlocker(
  simulation: Pick<Simulation, 'state'>,
  setup: { editable: boolean; reason: string | null },
): string | null {
  if (!setup.editable) return setup.reason
  return canEditSensors(simulation.state) ? null : SENSORS_LOCKED_MESSAGE
}

/** Opens an object's form or dialog (a sensor's or clip's only while they can be edited). */
export function useOpenObject(simulation: Pick<Simulation, 'state'>) {
  const setForm = useSetAtom(sideFormAtom)
  const setDialog = useSetAtom(setupObjectDialogAtom)
  const setup = useSetupEditable()
  const sensorBlocker = sensorEditBlocker(simulation, setup)
  return useCallback(
    (id: SetupObjectId, folder?: PartFolder) => {
      const target = openTargetOf(id, folder)
      if (target === null) return
      if ('form' in target) setForm(target.form)
      else if (sensorBlocker === null) setDialog(target.dialog)
    },
    [setForm, setDialog, sensorBlocker],
  )
}
