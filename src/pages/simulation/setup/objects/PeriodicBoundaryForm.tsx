import { useMemo } from 'react'
import {
  checkPeriodicBoundary,
  type PeriodicBoundaryUpdate,
} from '../../../../../domain/periodic.ts'
import { unitSymbol } from '../../../../../domain/units.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { SwitchField } from '../forms/fields/ChoiceFields.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { issuesOfField } from '../forms/fields/FieldIssues.tsx'
import { NumberField } from '../forms/fields/NumberField.tsx'
import { VectorField } from '../forms/fields/VectorField.tsx'
import { mergeIssues, useRefusals } from '../forms/formIssues.ts'
import type { SideFormProps } from '../forms/registry.ts'
import {
  useDeletePeriodicMutation,
  usePeriodicsQuery,
  useUpdatePeriodicMutation,
} from './objectQueries.ts'

const m = unitSymbol('length')
const deg = unitSymbol('angle')
/** Server paths ('sliceAngle', 'periodic.sliceAngle') as the form's 'periodic.…'. */
const periodicFieldOf = (path: string) => `periodic.${path.replace(/^periodics?\.(\d+\.)?/, '')}`

/**
 * The periodic boundary (spec/setup.md §3, §5): a rotational slice of sliceAngle degrees (1 to
 * 120, warned below 15° and when it does not divide 360°) turned by sliceRotation about an axis
 * through a centre.
 */
export function PeriodicBoundaryForm({ simulation }: SideFormProps<'periodicBoundary'>) {
  const periodic = usePeriodicsQuery(simulation.id).data?.[0]
  const update = useUpdatePeriodicMutation(simulation.id)
  const remove = useDeletePeriodicMutation()
  const refusals = useRefusals(periodicFieldOf)
  const setup = useSetupEditable()
  const issues = useMemo(
    () => (periodic ? mergeIssues(refusals.issues, checkPeriodicBoundary(periodic)) : []),
    [periodic, refusals.issues],
  )
  if (!periodic) return <p className="property-form__note">No periodic boundary is defined.</p>
  const save = (edit: PeriodicBoundaryUpdate) => {
    refusals.clear()
    update.mutate({ id: periodic.id, update: edit }, { onError: refusals.capture })
  }
  const of = (field: string) => issuesOfField(issues, `periodic.${field}`)
  return (
    <div className="property-form">
      <p className="property-form__note">Type: rotational slice</p>
      <VectorField
        label="Center"
        unit={m}
        value={periodic.center}
        issues={of('center')}
        onCommit={(center) => save({ center })}
      />
      <VectorField
        label="Axis"
        unit=""
        value={periodic.axis}
        issues={of('axis')}
        onCommit={(axis) => save({ axis })}
      />
      <NumberField
        label="Slice angle"
        unit={deg}
        value={periodic.sliceAngle}
        issues={of('sliceAngle')}
        onCommit={(sliceAngle) => save({ sliceAngle })}
      />
      <NumberField
        label="Slice rotation"
        unit={deg}
        value={periodic.sliceRotation}
        issues={of('sliceRotation')}
        onCommit={(sliceRotation) => save({ sliceRotation })}
      />
      <SwitchField
        label="Visible"
        checked={periodic.visibility}
        onChange={(visibility) => save({ visibility })}
      />
      {setup.editable && (
        <div className="property-form__actions">
          <ArmedDeleteButton
            label="Delete Periodic Boundary"
            onConfirm={() => remove.mutate(periodic.id)}
          />
          <span className="field__hint">Delete (double-click)</span>
        </div>
      )}
    </div>
  )
}
