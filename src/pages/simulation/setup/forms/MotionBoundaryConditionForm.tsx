import { useSetAtom } from 'jotai'
import type { Movement } from '../../../../../domain/movements.ts'
import { LoadingBlock } from '../../../../components/Spinner.tsx'
import { MovementEditor } from '../movements/MovementEditor.tsx'
import {
  createBodyOf,
  draftOfMovement,
  newMovementDraft,
  updateBodyOf,
  type MovementDraft,
} from '../movements/movementDraft.ts'
import { partCenterOf, useMovementContext, useSelectedPartId } from '../movements/movementLists.ts'
import {
  useCreateMovementMutation,
  useUpdateMovementMutation,
} from '../queries/movementMutations.ts'
import { useUpdatePartMutation } from '../queries/partMutations.ts'
import { sideFormAtom } from '../state/setupAtoms.ts'
import type { SideFormProps } from './registry.ts'
import '../movements/movements.css'

/** Shown when 'Define Movement' is open without one rigid part selected. */
export const SELECT_ONE_WALL = 'Select one solid part to define the movement of its wall.'

/**
 * 'Define Movement' (spec/setup.md §2 movingBoundaryCondition): the virtual movement behind a rigid
 * wall's moving velocity condition. The wall's geometry stays put; the movement only gives the
 * velocity its particles carry. Saving a new one makes it the part's velocity condition.
 */
export function MotionBoundaryConditionForm({
  simulation,
}: SideFormProps<'movingBoundaryCondition'>) {
  const partId = useSelectedPartId()
  const context = useMovementContext(simulation.id)
  const setForm = useSetAtom(sideFormAtom)
  const create = useCreateMovementMutation()
  const update = useUpdateMovementMutation(simulation.id)
  const updatePart = useUpdatePartMutation(simulation.id)

  const part = context.parts?.find((p) => p.id === partId)
  if (partId === null || (part && part.component.type !== 'rigid'))
    return <p className="motion-form__hint">{SELECT_ONE_WALL}</p>
  if (context.loading || !part || !context.movements)
    return <LoadingBlock label="Loading movements" />
  const component = part.component
  if (component.type !== 'rigid') return null
  const existing: Movement | undefined = context.movements.find(
    (m) => m.id === component.velocityConditionMovementId,
  )
  const backToPart = () => setForm({ kind: 'part', folder: 'boundary_conditions' })

  const save = async (draft: MovementDraft) => {
    if (existing) {
      await update.mutateAsync({ movementId: existing.id, update: updateBodyOf(draft) })
    } else {
      const created = await create.mutateAsync({
        partId: part.id,
        movement: createBodyOf({ ...draft, virtualMovement: true }),
      })
      await updatePart.mutateAsync({
        partId: part.id,
        update: {
          component: {
            type: 'rigid',
            velocityKind: 'moving',
            velocityConditionMovementId: created.id,
          },
        },
      })
    }
    backToPart()
  }

  return (
    <div className="motion-form">
      <p className="motion-form__hint">
        The wall of {part.name} stays in place; its particles move with this velocity.
      </p>
      <MovementEditor
        key={existing?.id ?? 'new'}
        initial={
          existing
            ? draftOfMovement(existing)
            : newMovementDraft(
                'translatory',
                context.movements.map((m) => m.name),
                true,
              )
        }
        movementId={existing?.id ?? null}
        movements={context.movements.filter((m) => m.id !== existing?.id)}
        partNames={context.partNames}
        partCenter={partCenterOf(part)}
        endTime={context.endTime}
        withLinks={false}
        submitLabel={existing ? 'Save' : 'Define'}
        pending={create.isPending || update.isPending || updatePart.isPending}
        onCancel={backToPart}
        onSubmit={(draft) => save(draft).catch(() => undefined)}
      />
    </div>
  )
}
