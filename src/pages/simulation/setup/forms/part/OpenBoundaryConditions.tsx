import { useState } from 'react'
import {
  DELETE_TABLE_CONFIRMATION,
  IO_DIRECTIONS,
  IO_PROFILE_KINDS,
  IO_TYPES,
  PART_MESSAGES,
  availableIoProfileKinds,
  availableIoTypes,
  needsTableDeletionConfirmation,
  type IoDirection,
  type IoProfileKind,
  type IoType,
  type OpenBoundaryComponent,
  type Part,
} from '../../../../../../domain/parts.ts'
import { datatablePreviewRows } from '../../../../../../domain/datatable.ts'
import { unitSymbol } from '../../../../../../domain/units.ts'
import { Dialog } from '../../../../../components/Dialog.tsx'
import { useDatatableQuery } from '../../queries/setupQueries.ts'
import { RadioGroupField, SelectField } from '../fields/ChoiceFields.tsx'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { MIXED_PLACEHOLDER, shared } from './partSelection.ts'
import { TableField } from '../TableField.tsx'
import type { PartFolderProps } from './usePartEdit.ts'

export const IO_DIRECTION_LABELS: Record<IoDirection, string> = {
  inflow: 'Inflow',
  outflow: 'Outflow',
}
export const IO_TYPE_LABELS: Record<IoType, string> = {
  riemann_velocity: 'Velocity',
  riemann_pressure: 'Pressure',
}
export const IO_PROFILE_LABELS: Record<IoProfileKind, string> = {
  constant: 'Constant',
  field: 'Field (table)',
}
/** The profile choices, the plain one first. */
const PROFILE_ORDER: readonly IoProfileKind[] = [
  'constant',
  ...IO_PROFILE_KINDS.filter((k) => k !== 'constant'),
]

/** Why the table profile is not offered. */
export const PROFILE_SINGLE_PART = 'A non-constant profile is unavailable for a multi-selection.'

const open = (part: Part): OpenBoundaryComponent | null =>
  part.component.type === 'openboundary' ? part.component : null

/**
 * Boundary conditions of inlets and outlets: direction, condition type (an inlet with pressure is
 * not allowed, so inflow locks it to velocity), the profile (one constant value, or a table for a
 * single part) and the constant pressure, velocity and temperature. Changing the condition type
 * while the profile table has rows asks 'Delete Previously Defined Table?' first.
 */
export function OpenBoundaryConditions(props: PartFolderProps) {
  const { parts, edit, issues, settings } = props
  const single = parts.length === 1 ? parts[0] : undefined
  const direction = shared(parts, (p) => open(p)?.ioDirection ?? null)
  const ioType = shared(parts, (p) => open(p)?.ioType ?? null)
  const profileKind = shared(parts, (p) => open(p)?.ioProfileKind ?? null)
  const tableId = single ? (open(single)?.ioTableId ?? null) : null
  const table = useDatatableQuery(tableId, datatablePreviewRows('openBoundary'))
  const [pending, setPending] = useState<Partial<OpenBoundaryComponent> | null>(null)
  const on = (field: string) => issuesOfField(issues, `part.component.${field}`)
  const save = (fields: Partial<OpenBoundaryComponent>) =>
    edit((p) =>
      p.component.type === 'openboundary'
        ? { component: { type: 'openboundary', ...fields } }
        : null,
    )
  /** A type change drops the table: ask first while it has rows. */
  const saveTypeChange = (fields: Partial<OpenBoundaryComponent>) => {
    const rows = table.data?.resultCount ?? 0
    if (single && needsTableDeletionConfirmation({ ioTableId: tableId }, rows)) setPending(fields)
    else save(fields)
  }

  const number = (
    key: 'ioPressure' | 'ioVelocity' | 'ioTemperature',
    label: string,
    unit: string,
  ) => {
    const value = shared(parts, (p) => open(p)?.[key] ?? null)
    return (
      <NumberField
        label={label}
        unit={unit}
        value={value.value}
        placeholder={value.mixed ? MIXED_PLACEHOLDER : undefined}
        issues={on(key)}
        onCommit={(next) => save({ [key]: next })}
      />
    )
  }

  const profileKinds = availableIoProfileKinds(parts.length)
  const types = direction.value ? availableIoTypes(direction.value) : IO_TYPES
  return (
    <div className="property-form">
      <SelectField
        label="Direction"
        value={direction.value}
        placeholder={MIXED_PLACEHOLDER}
        options={IO_DIRECTIONS.map((d) => ({ value: d, label: IO_DIRECTION_LABELS[d] }))}
        issues={on('ioDirection')}
        onChange={(next) => {
          const locked = availableIoTypes(next)
          const mustChangeType = parts.some((p) => {
            const c = open(p)
            return c !== null && !locked.includes(c.ioType)
          })
          if (mustChangeType) saveTypeChange({ ioDirection: next, ioType: 'riemann_velocity' })
          else save({ ioDirection: next })
        }}
      />
      <SelectField
        label="Condition type"
        value={ioType.value}
        placeholder={MIXED_PLACEHOLDER}
        options={IO_TYPES.map((t) => ({
          value: t,
          label: IO_TYPE_LABELS[t],
          disabled: !types.includes(t),
        }))}
        disabled={direction.value === 'inflow'}
        disabledReason={direction.value === 'inflow' ? PART_MESSAGES.inletWithPressure : null}
        issues={on('ioType')}
        onChange={(next) => saveTypeChange({ ioType: next })}
      />
      <RadioGroupField
        label="Profile"
        value={profileKind.value}
        options={PROFILE_ORDER.map((k) => ({
          value: k,
          label: IO_PROFILE_LABELS[k],
          disabled: !profileKinds.includes(k),
        }))}
        hint={profileKinds.includes('field') ? undefined : PROFILE_SINGLE_PART}
        issues={on('ioProfileKind')}
        onChange={(next) => save({ ioProfileKind: next })}
      />
      {profileKind.value === 'constant' && (
        <>
          {ioType.value === 'riemann_pressure' &&
            number('ioPressure', 'Pressure', unitSymbol('pressure'))}
          {ioType.value === 'riemann_velocity' &&
            number('ioVelocity', 'Velocity', unitSymbol('velocity'))}
          {settings.thermodynamics &&
            number('ioTemperature', 'Temperature', unitSymbol('temperature'))}
        </>
      )}
      {profileKind.value === 'constant' && table.data && (
        <p className="property-form__note">
          The field profile's table ({table.data.resultCount} rows) is kept.
        </p>
      )}
      {profileKind.value === 'field' && single && (
        <TableField
          label="Profile table"
          simulationId={props.simulationId}
          kind="openBoundary"
          tableId={tableId}
          onTableCreated={(id) => save({ ioTableId: id })}
          issues={on('ioTableId')}
        />
      )}
      {pending && (
        <Dialog title={DELETE_TABLE_CONFIRMATION} size="small" onClose={() => setPending(null)}>
          <div className="dialog__body">
            <p>
              The profile table of {single?.name} holds {table.data?.resultCount ?? 0} rows. A
              different condition type needs a new table, so this one will be removed.
            </p>
          </div>
          <footer className="dialog__footer">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setPending(null)}
            >
              Cancel
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                save({ ...pending, ioTableId: null })
                setPending(null)
              }}
            >
              Delete table
            </button>
          </footer>
        </Dialog>
      )}
    </div>
  )
}
