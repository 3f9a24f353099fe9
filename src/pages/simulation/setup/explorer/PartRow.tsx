import { useSetAtom } from 'jotai'
import { useState } from 'react'
import type { Part } from '../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { IconWarning } from '../../../../components/icons.tsx'
import { Tooltip } from '../../../../components/Tooltip.tsx'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { useDeletePartMutation, useUpdatePartMutation } from '../queries/partMutations.ts'
import { setupSelectionAtom } from '../state/setupAtoms.ts'
import { ExplorerRow, type RowControls } from './ExplorerRow.tsx'
import type { ExplorerEntry } from './explorerModel.ts'
import { useOpenObject } from './openObject.ts'
import { WithReason } from './WithReason.tsx'

/** A part: warnings (tooltip; opens Information), visibility and delete. */
export function PartRow({
  simulation,
  entry,
  part,
  warnings,
  controls,
  onSelect,
}: {
  simulation: Simulation
  entry: ExplorerEntry
  part: Part
  warnings: string[]
  controls: RowControls
  onSelect: (id: string) => void
}) {
  const setup = useSetupEditable()
  const setSelection = useSetAtom(setupSelectionAtom)
  const update = useUpdatePartMutation(simulation.id)
  const remove = useDeletePartMutation(simulation.id)
  const open = useOpenObject(simulation)
  const lockedReason = setup.editable ? null : setup.reason
  // The box follows the click at once; the saved value takes over when the update settles (a
  // refused update rolls the cache back, and so the box).
  const [clickedVisibility, setClickedVisibility] = useState<boolean | null>(null)
  return (
    <ExplorerRow entry={entry} controls={controls}>
      {warnings.length > 0 && (
        <Tooltip content={warnings.join(' ')}>
          <button
            type="button"
            className="icon-button icon-button--small setup-explorer__warning"
            aria-label={`${part.name} has warnings: ${warnings.join(' ')}`}
            onClick={() => {
              onSelect(entry.id)
              open(entry.id, 'information')
            }}
          >
            <IconWarning width={14} height={14} />
          </button>
        </Tooltip>
      )}
      <WithReason reason={lockedReason}>
        <input
          type="checkbox"
          className="setup-explorer__visibility"
          aria-label={`Show ${part.name}`}
          checked={clickedVisibility ?? part.appearance.visibility}
          disabled={!setup.editable}
          onChange={(event) => {
            const visibility = event.target.checked
            setClickedVisibility(visibility)
            update.mutate(
              { partId: part.id, update: { appearance: { visibility } } },
              { onSettled: () => setClickedVisibility(null) },
            )
          }}
        />
      </WithReason>
      <WithReason reason={lockedReason}>
        <ArmedDeleteButton
          label={`Delete ${part.name}`}
          disabled={!setup.editable || remove.isPending}
          onConfirm={() => {
            setSelection((current) => current.filter((id) => id !== entry.id))
            remove.mutate(part.id)
          }}
        />
      </WithReason>
    </ExplorerRow>
  )
}
