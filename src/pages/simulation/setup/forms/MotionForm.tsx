import { useState } from 'react'
import { TRUNCATE_CHARS } from '../../../../../domain/constants.ts'
import { MOVEMENT_MESSAGES, movementUnits, type Movement } from '../../../../../domain/movements.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import { UNEXPECTED_RESPONSE_MESSAGE, messageOf } from '../../../../api/ApiError.ts'
import { IconEdit, IconPlus } from '../../../../components/icons.tsx'
import { LoadingBlock } from '../../../../components/Spinner.tsx'
import { Tooltip } from '../../../../components/Tooltip.tsx'
import { truncateText } from '../../../../components/TruncatedText.tsx'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { MOVEMENT_TYPE_LABELS } from '../movements/MovementEditor.tsx'
import { MovementDialog } from '../movements/MovementDialog.tsx'
import {
  movementSpan,
  partCenterOf,
  realMovements,
  useMovementContext,
  useSelectedPartId,
} from '../movements/movementLists.ts'
import { useDeleteMovementMutation } from '../queries/movementMutations.ts'
import { useSetupEditable } from './fields/editable.ts'
import type { SideFormProps } from './registry.ts'
import '../movements/movements.css'

/** Shown when the Motion folder is open without exactly one part selected. */
export const SELECT_ONE_PART = 'Select one part to define its movements.'

/** The motion side form's error text for a failed movements call. */
export function movementsErrorText(error: unknown): string {
  return messageOf(error) === UNEXPECTED_RESPONSE_MESSAGE
    ? MOVEMENT_MESSAGES.notInterpretable
    : messageOf(error)
}

/**
 * The Motion form (spec/setup.md §2, §4): the selected part's movements with add, edit and delete
 * (a double click: the first arms, the second deletes). Adding and editing open the movement dialog.
 */
export function MotionForm({ simulation }: SideFormProps<'motion'>) {
  const partId = useSelectedPartId()
  const context = useMovementContext(simulation.id)
  const setup = useSetupEditable()
  const remove = useDeleteMovementMutation(simulation.id)
  const [editing, setEditing] = useState<Movement | 'new' | null>(null)

  if (partId === null) return <p className="motion-form__hint">{SELECT_ONE_PART}</p>
  if (context.movementsError)
    return (
      <p className="motion-form__error" role="alert">
        {movementsErrorText(context.movementsError)}
      </p>
    )
  if (context.loading || !context.movements) return <LoadingBlock label="Loading movements" />
  const part = context.parts?.find((p) => p.id === partId)
  const all = realMovements(context.movements)
  const own = all.filter((m) => m.partId === partId)
  const addButton = (
    <button
      type="button"
      className="button button--secondary button--small"
      disabled={!setup.editable}
      onClick={() => setEditing('new')}
    >
      <IconPlus width={14} height={14} aria-hidden="true" /> Add movement
    </button>
  )

  return (
    <div className="motion-form">
      <div className="motion-form__head">
        <h3 className="motion-form__part">{part?.name ?? `Part ${partId}`}</h3>
        {setup.editable ? addButton : <Tooltip content={setup.reason}>{addButton}</Tooltip>}
      </div>
      {own.length === 0 ? (
        <p className="motion-form__hint">This part does not move.</p>
      ) : (
        <ul className="motion-list" aria-label="Movements">
          {own.map((movement) => {
            const units = movementUnits(movement.type)
            const name = truncateText(movement.name, TRUNCATE_CHARS.movementName)
            return (
              <li key={movement.id} className="motion-list__item">
                <div className="motion-list__text">
                  <span className="motion-list__name" title={movement.name}>
                    {name === movement.name ? name : `${name}…`}
                  </span>
                  <span className="motion-list__facts">
                    {MOVEMENT_TYPE_LABELS[movement.type]} · {movementSpan(movement, formatNumber)} ·{' '}
                    {formatNumber(movement.vel)} {units.vel}
                    {movement.acc !== 0 && `, ${formatNumber(movement.acc)} ${units.acc}`}
                  </span>
                </div>
                <button
                  type="button"
                  className="icon-button icon-button--small"
                  aria-label={`Edit ${movement.name}`}
                  onClick={() => setEditing(movement)}
                >
                  <IconEdit width={14} height={14} />
                </button>
                <ArmedDeleteButton
                  label={`Delete ${movement.name}`}
                  disabled={!setup.editable}
                  onConfirm={() => remove.mutate(movement.id)}
                />
              </li>
            )
          })}
        </ul>
      )}
      {editing !== null && (
        <MovementDialog
          simulationId={simulation.id}
          partId={partId}
          movement={editing === 'new' ? null : editing}
          movements={all}
          partNames={context.partNames}
          partCenter={partCenterOf(part)}
          endTime={context.endTime}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  )
}
