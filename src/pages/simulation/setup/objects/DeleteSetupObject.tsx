import type { Simulation } from '../../../../../domain/projects.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { WithReason } from '../explorer/WithReason.tsx'
import type { ExplorerEntry } from '../explorer/explorerModel.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { parseObjectId } from '../state/setupAtoms.ts'
import {
  useDeletePeriodicMutation,
  useDeleteRefinementMutation,
  usePeriodicsQuery,
  useSwitchAirDragMutation,
} from './objectQueries.ts'

/**
 * The explorer's double-click delete of a refinement zone, the periodic boundary, or the air drag
 * domain (which switches air drag off); nothing for other entries or ones not defined.
 */
export function DeleteSetupObject({
  simulation,
  entry,
  onDeleted,
}: {
  simulation: Simulation
  entry: ExplorerEntry
  onDeleted: () => void
}) {
  const setup = useSetupEditable()
  const deleteRefinement = useDeleteRefinementMutation()
  const deletePeriodic = useDeletePeriodicMutation()
  const switchAirDrag = useSwitchAirDragMutation(simulation.id)
  const periodic = usePeriodicsQuery(simulation.id).data?.[0]
  const { kind, id } = parseObjectId(entry.id)
  let remove: (() => void) | null = null
  if (kind === 'refinement' && id !== null) remove = () => deleteRefinement.mutate(id)
  if (kind === 'periodic_boundary' && periodic) remove = () => deletePeriodic.mutate(periodic.id)
  if (kind === 'air_drag_domain' && entry.selectable)
    remove = () => switchAirDrag.mutate({ on: false })
  if (remove === null) return null
  const confirm = remove
  return (
    <WithReason reason={setup.editable ? null : setup.reason}>
      <ArmedDeleteButton
        label={`Delete ${entry.name}`}
        disabled={!setup.editable}
        onConfirm={() => {
          onDeleted()
          confirm()
        }}
      />
    </WithReason>
  )
}
