import { canDeleteMaterial } from '../../../../../domain/materials.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import {
  useDeleteCalcDomainMutation,
  useDeleteMaterialMutation,
} from '../queries/propertyMutations.ts'
import { parseObjectId } from '../state/setupAtoms.ts'
import type { ExplorerEntry } from './explorerModel.ts'
import { WithReason } from './WithReason.tsx'

/**
 * The double-click delete of a material (only from id 2 on: spec/setup.md §5) or of an active
 * deletion boundary; nothing for other entries.
 */
export function DeleteSingle({
  simulation,
  entry,
  active = true,
  onDeleted,
}: {
  simulation: Simulation
  entry: ExplorerEntry
  /** The deletion boundary exists. */
  active?: boolean
  onDeleted: () => void
}) {
  const setup = useSetupEditable()
  const deleteMaterial = useDeleteMaterialMutation(simulation.id)
  const deleteDomain = useDeleteCalcDomainMutation(simulation.id)
  const { kind, id } = parseObjectId(entry.id)
  const reason = setup.editable ? null : setup.reason
  if (kind === 'material' && id !== null && canDeleteMaterial(id))
    return (
      <WithReason reason={reason}>
        <ArmedDeleteButton
          label={`Delete ${entry.name}`}
          disabled={!setup.editable || deleteMaterial.isPending}
          onConfirm={() => {
            onDeleted()
            deleteMaterial.mutate(id)
          }}
        />
      </WithReason>
    )
  if (kind === 'calc_domain' && active)
    return (
      <WithReason reason={reason}>
        <ArmedDeleteButton
          label={`Delete ${entry.name}`}
          disabled={!setup.editable || deleteDomain.isPending}
          onConfirm={() => {
            onDeleted()
            deleteDomain.mutate()
          }}
        />
      </WithReason>
    )
  return null
}
