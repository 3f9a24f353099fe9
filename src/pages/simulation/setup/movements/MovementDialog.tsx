import type { Movement } from '../../../../../domain/movements.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import {
  followerChanges,
  useCreateMovementMutation,
  useSetFollowers,
  useUpdateMovementMutation,
} from '../queries/movementMutations.ts'
import { MovementEditor } from './MovementEditor.tsx'
import {
  createBodyOf,
  draftOfMovement,
  newMovementDraft,
  updateBodyOf,
  type MovementDraft,
} from './movementDraft.ts'

/**
 * 'Add Movement' / 'Edit Movement' over the Motion form: the movement editor in a dialog. Saving
 * adds or changes the movement, then links and unlinks its followers; the dialog closes when the
 * movement is saved (a refused save keeps it open, with the failure toast).
 */
export function MovementDialog(props: {
  simulationId: number
  partId: number
  /** The movement edited; null adds one. */
  movement: Movement | null
  /** Every real movement of the simulation. */
  movements: readonly Movement[]
  partNames: ReadonlyMap<number, string>
  partCenter: Vec3
  endTime: number | null
  onClose: () => void
}) {
  const { simulationId, partId, movement, movements } = props
  const create = useCreateMovementMutation()
  const update = useUpdateMovementMutation(simulationId)
  const setFollowers = useSetFollowers(simulationId)
  const initial: MovementDraft = movement
    ? draftOfMovement(movement)
    : newMovementDraft(
        'translatory',
        movements.map((m) => m.name),
      )

  const save = async (draft: MovementDraft) => {
    if (movement === null) {
      const created = await create.mutateAsync({ partId, movement: createBodyOf(draft) })
      props.onClose()
      await setFollowers(created.id, followerChanges([], draft.followers))
      return
    }
    await update.mutateAsync({ movementId: movement.id, update: updateBodyOf(draft) })
    props.onClose()
    await setFollowers(movement.id, followerChanges(movement.followers, draft.followers))
  }

  return (
    <Dialog title={movement ? 'Edit Movement' : 'Add Movement'} onClose={props.onClose}>
      <div className="dialog__body movement-dialog">
        <MovementEditor
          initial={initial}
          movementId={movement?.id ?? null}
          movements={movements}
          partNames={props.partNames}
          partCenter={props.partCenter}
          endTime={props.endTime}
          submitLabel={movement ? 'Save' : 'Add'}
          pending={create.isPending || update.isPending}
          onCancel={props.onClose}
          onSubmit={(draft) => save(draft).catch(() => undefined)}
        />
      </div>
    </Dialog>
  )
}
