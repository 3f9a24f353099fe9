import { useMemo } from 'react'
import { checkCalcDomain } from '../../../../../domain/settingsRules.ts'
import { unitSymbol } from '../../../../../domain/units.ts'
import type { LooseVec3 } from '../../../../../domain/vector.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import {
  useDeleteCalcDomainMutation,
  useUpdateCalcDomainMutation,
  type CalcDomainEdit,
} from '../queries/propertyMutations.ts'
import { useCalcDomainQuery } from '../queries/setupQueries.ts'
import { useSetupEditable } from './fields/editable.ts'
import { SwitchField } from './fields/ChoiceFields.tsx'
import { issuesOfField } from './fields/FieldIssues.tsx'
import { VectorField } from './fields/VectorField.tsx'
import { calcDomainFieldOf, mergeIssues, useRefusals } from './formIssues.ts'
import type { SideFormProps } from './registry.ts'

const m = unitSymbol('length')

/**
 * The 'Deletion Boundary' (calculation domain): particles leaving the box between min and max are
 * deleted. Off, it warns 'Add a deletion boundary to save on cost.'; on, min must stay below max.
 */
export function CalcDomainForm({ simulation }: SideFormProps<'calcDomain'>) {
  const domain = useCalcDomainQuery(simulation.id).data
  const update = useUpdateCalcDomainMutation(simulation.id)
  const remove = useDeleteCalcDomainMutation(simulation.id)
  const refusals = useRefusals(calcDomainFieldOf)
  const setup = useSetupEditable()
  const issues = useMemo(() => {
    if (!domain) return []
    const settings = {
      calcDomainActive: domain.active,
      calcDomainMin: domain.min,
      calcDomainMax: domain.max,
    }
    const server = domain.issues.map((i) => ({ ...i, field: calcDomainFieldOf(i.field) }))
    return mergeIssues(refusals.issues, checkCalcDomain(settings), server)
  }, [domain, refusals.issues])
  if (!domain) return <p className="property-form__note">Loading the deletion boundary…</p>

  const save = (edit: CalcDomainEdit) => {
    refusals.clear()
    update.mutate({ active: domain.active, ...edit }, { onError: refusals.capture })
  }
  return (
    <div className="property-form">
      <SwitchField
        label="Active"
        checked={domain.active}
        issues={issuesOfField(issues, 'settings.calcDomainActive')}
        onChange={(active) => save({ active })}
      />
      <VectorField
        label="Minimum"
        unit={m}
        value={domain.min}
        issues={issuesOfField(issues, 'settings.calcDomainMin')}
        onCommit={(min: LooseVec3) => save({ min })}
      />
      <VectorField
        label="Maximum"
        unit={m}
        value={domain.max}
        issues={issuesOfField(issues, 'settings.calcDomainMax')}
        onCommit={(max: LooseVec3) => save({ max })}
      />
      {domain.active && setup.editable && (
        <div className="property-form__actions">
          <ArmedDeleteButton label="Delete Deletion Boundary" onConfirm={() => remove.mutate()} />
          <span className="field__hint">Delete (double-click)</span>
        </div>
      )}
    </div>
  )
}
