import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import {
  AIR_DRAG_KINDS,
  airDragCellCount,
  checkAirDragDomain,
  type AirDragDomainUpdate,
  type AirDragKind,
} from '../../../../../domain/airDrag.ts'
import { formatNumber, unitSymbol } from '../../../../../domain/units.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { SelectField, SwitchField } from '../forms/fields/ChoiceFields.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { issuesOfField } from '../forms/fields/FieldIssues.tsx'
import { NumberField } from '../forms/fields/NumberField.tsx'
import { VectorField } from '../forms/fields/VectorField.tsx'
import { mergeIssues, useRefusals } from '../forms/formIssues.ts'
import type { SideFormProps } from '../forms/registry.ts'
import { TableField } from '../forms/TableField.tsx'
import {
  useAirDragDomainQuery,
  useSwitchAirDragMutation,
  useUpdateAirDragDomainMutation,
} from './objectQueries.ts'

const m = unitSymbol('length')
const ms = unitSymbol('velocity')
const KIND_LABELS: Record<AirDragKind, string> = {
  constant: 'Constant velocity',
  table: 'Velocity table',
  simulation: 'From another simulation',
}
const airDragFieldOf = (path: string) => `airDrag.${path.replace(/^airDrag\./, '')}`

/**
 * The air drag domain (spec/setup.md §3, §5): a box of air whose velocity is constant, given by
 * a table over time, or taken from outputs of another simulation of the project; its grid of
 * cubic cells (at most 50,000,000) can be shown in the view. Delete switches air drag off.
 */
export function AirDragDomainForm({ simulation }: SideFormProps<'airDragDomain'>) {
  const domain = useAirDragDomainQuery(simulation.id).data
  const update = useUpdateAirDragDomainMutation(simulation.id)
  const switchOff = useSwitchAirDragMutation(simulation.id)
  const refusals = useRefusals(airDragFieldOf)
  const setup = useSetupEditable()
  const projectParams = { params: { id: String(simulation.projectId) } }
  const project = useQuery({
    queryKey: routeKey('getProject', projectParams),
    queryFn: ({ signal }) => callApi('getProject', projectParams, { signal }),
  }).data
  const issues = useMemo(
    () => (domain ? mergeIssues(refusals.issues, checkAirDragDomain(domain)) : []),
    [domain, refusals.issues],
  )
  if (!domain) return <p className="property-form__note">Loading the air drag domain…</p>
  const save = (edit: AirDragDomainUpdate) => {
    refusals.clear()
    update.mutate(edit, { onError: refusals.capture })
  }
  const of = (field: string) => issuesOfField(issues, `airDrag.${field}`)
  const cells = airDragCellCount(domain)
  const others = (project?.simulations ?? []).filter((s) => s.id !== simulation.id)
  return (
    <div className="property-form">
      <SelectField
        label="Air velocity"
        value={domain.kind}
        options={AIR_DRAG_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }))}
        onChange={(kind) => save({ kind })}
      />
      <VectorField
        label="Center"
        unit={m}
        value={domain.center}
        issues={of('center')}
        onCommit={(center) => save({ center })}
      />
      <VectorField
        label="Size"
        unit={m}
        value={domain.size}
        issues={of('size')}
        onCommit={(size) => save({ size })}
      />
      {domain.kind === 'constant' ? (
        <VectorField
          label="Velocity"
          unit={ms}
          value={domain.velocity}
          issues={of('velocity')}
          onCommit={(velocity) => save({ velocity })}
        />
      ) : (
        <>
          <NumberField
            label="Cell size"
            unit={m}
            value={domain.cellSize}
            issues={of('cellSize')}
            onCommit={(cellSize) => save({ cellSize })}
            hint={cells === null ? undefined : `${formatNumber(cells)} cells`}
          />
          <SwitchField
            label="Show grid"
            checked={domain.gridVisibility}
            onChange={(gridVisibility) => save({ gridVisibility })}
          />
        </>
      )}
      {domain.kind === 'table' && (
        <TableField
          label="Velocity table"
          simulationId={simulation.id}
          kind="airDrag"
          tableId={domain.tableId}
          onTableCreated={(tableId) => save({ tableId })}
          issues={of('tableId')}
        />
      )}
      {domain.kind === 'simulation' && (
        <>
          <SelectField
            label="Reference simulation"
            value={domain.refSimulationId === null ? null : String(domain.refSimulationId)}
            placeholder="Choose a simulation"
            options={others.map((s) => ({ value: String(s.id), label: s.name }))}
            issues={of('refSimulationId')}
            onChange={(id) => save({ refSimulationId: Number(id) })}
          />
          <SwitchField
            label="Range of outputs"
            checked={domain.outputRange}
            onChange={(outputRange) => save({ outputRange })}
          />
          {domain.outputRange ? (
            <>
              <NumberField
                label="Start output"
                unit=""
                value={domain.outputStart}
                issues={of('outputStart')}
                onCommit={(outputStart) => save({ outputStart })}
              />
              <NumberField
                label="End output"
                unit=""
                value={domain.outputEnd}
                issues={of('outputEnd')}
                onCommit={(outputEnd) => save({ outputEnd })}
              />
            </>
          ) : (
            <NumberField
              label="Output"
              unit=""
              value={domain.outputSingle}
              issues={of('outputSingle')}
              onCommit={(outputSingle) => save({ outputSingle })}
            />
          )}
        </>
      )}
      <SwitchField
        label="Visible"
        checked={domain.visibility}
        onChange={(visibility) => save({ visibility })}
      />
      {setup.editable && (
        <div className="property-form__actions">
          <ArmedDeleteButton
            label="Delete Air Drag Domain"
            onConfirm={() => switchOff.mutate({ on: false })}
          />
          <span className="field__hint">Delete (double-click): switches air drag off</span>
        </div>
      )}
    </div>
  )
}
