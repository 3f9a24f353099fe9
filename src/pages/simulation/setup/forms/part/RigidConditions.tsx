import { useSetAtom } from 'jotai'
import {
  THERMO_KINDS,
  VELOCITY_KINDS,
  availableThermoKinds,
  type Part,
  type RigidComponent,
  type ThermoKind,
  type VelocityKind,
} from '../../../../../../domain/parts.ts'
import { unitSymbol } from '../../../../../../domain/units.ts'
import { useMovementsQuery } from '../../queries/setupQueries.ts'
import { sideFormAtom } from '../../state/setupAtoms.ts'
import { SelectField } from '../fields/ChoiceFields.tsx'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { MIXED_PLACEHOLDER, shared } from './partSelection.ts'
import type { PartFolderProps } from './usePartEdit.ts'

export const VELOCITY_KIND_LABELS: Record<VelocityKind, string> = {
  slip: 'Slip',
  no_slip: 'No slip',
  moving: 'Moving',
}

export const THERMO_KIND_LABELS: Record<ThermoKind, string> = {
  adiabatic: 'Adiabatic',
  heat_flux: 'Heat flux',
  heat_transfer_coefficient: 'Heat transfer coefficient',
  temperature: 'Temperature',
}

/** Shown while the thermal condition does not apply. */
export const THERMAL_NEEDS_HEAT_TRANSFER =
  'Thermal conditions apply with the heat transfer model (Physics).'
/** Shown while the contact angle does not apply. */
export const CONTACT_ANGLE_NEEDS_SURFACE_TENSION =
  'The contact angle applies with surface tension (Physics).'
/** Why heat flux and heat transfer coefficient walls are not offered under multiphase. */
export const HEAT_WALLS_MULTIPHASE =
  'Heat flux and heat transfer coefficient are disabled under multiphase.'

type RigidNumberKey =
  | 'heatFlux'
  | 'boundaryTemperature'
  | 'referenceTemperature'
  | 'heatTransferCoefficient'
  | 'contactAngle'

const FIELDS: Record<RigidNumberKey, { label: string; unit: string }> = {
  heatFlux: { label: 'Heat flux', unit: unitSymbol('heat_flux') },
  boundaryTemperature: { label: 'Boundary temperature', unit: unitSymbol('temperature') },
  referenceTemperature: { label: 'Reference temperature', unit: unitSymbol('temperature') },
  heatTransferCoefficient: { label: 'Heat transfer coefficient', unit: 'W/(m²K)' },
  contactAngle: { label: 'Contact angle', unit: unitSymbol('angle') },
}

const rigid = (part: Part): RigidComponent | null =>
  part.component.type === 'rigid' ? part.component : null

/**
 * Boundary conditions of solid walls: the velocity condition (slip, no slip, or moving with the
 * movement that drives it), the thermal condition with its values while heat transfer is on
 * (adiabatic or temperature only under multiphase), and the contact angle with surface tension.
 */
export function RigidConditions({ simulationId, parts, edit, issues, settings }: PartFolderProps) {
  const setForm = useSetAtom(sideFormAtom)
  const movements = useMovementsQuery(simulationId).data ?? []
  const velocityKind = shared(parts, (p) => rigid(p)?.velocityKind ?? null)
  const thermoKind = shared(parts, (p) => rigid(p)?.thermoKind ?? null)
  const movementId = shared(parts, (p) => rigid(p)?.velocityConditionMovementId ?? null)
  const single = parts.length === 1 ? parts[0] : undefined
  const partMovements = single ? movements.filter((m) => m.partId === single.id) : []
  const thermoKinds = availableThermoKinds(settings)
  const on = (field: string) => issuesOfField(issues, `part.component.${field}`)
  const save = (fields: Partial<RigidComponent>) =>
    edit((p) => (p.component.type === 'rigid' ? { component: { type: 'rigid', ...fields } } : null))

  const number = (key: RigidNumberKey) => {
    const value = shared(parts, (p) => rigid(p)?.[key] ?? null)
    return (
      <NumberField
        key={key}
        label={FIELDS[key].label}
        unit={FIELDS[key].unit}
        value={value.value}
        placeholder={value.mixed ? MIXED_PLACEHOLDER : undefined}
        issues={on(key)}
        onCommit={(next) => save({ [key]: next })}
      />
    )
  }

  return (
    <div className="property-form">
      <fieldset className="property-form__section">
        <legend>Velocity</legend>
        <SelectField
          label="Velocity condition"
          value={velocityKind.value}
          placeholder={MIXED_PLACEHOLDER}
          options={VELOCITY_KINDS.map((kind) => ({
            value: kind,
            label: VELOCITY_KIND_LABELS[kind],
          }))}
          issues={on('velocityKind')}
          onChange={(kind) => save({ velocityKind: kind })}
        />
        {velocityKind.value === 'moving' && (
          <>
            <SelectField
              label="Movement"
              value={movementId.value === null ? null : String(movementId.value)}
              placeholder={movementId.mixed ? MIXED_PLACEHOLDER : 'Select a movement'}
              options={partMovements.map((m) => ({ value: String(m.id), label: m.name }))}
              disabled={!single}
              disabledReason={single ? null : 'Select a single part to choose its movement.'}
              issues={on('velocityConditionMovementId')}
              onChange={(id) => save({ velocityConditionMovementId: Number(id) })}
            />
            {single && (
              <button
                type="button"
                className="link-button property-form__link"
                onClick={() => setForm({ kind: 'movingBoundaryCondition' })}
              >
                Define Movement
              </button>
            )}
          </>
        )}
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Thermal</legend>
        {settings.thermodynamics ? (
          <>
            <SelectField
              label="Thermal condition"
              value={thermoKind.value}
              placeholder={MIXED_PLACEHOLDER}
              options={THERMO_KINDS.map((kind) => ({
                value: kind,
                label: THERMO_KIND_LABELS[kind],
                disabled: !thermoKinds.includes(kind),
              }))}
              hint={settings.multiphase ? HEAT_WALLS_MULTIPHASE : undefined}
              issues={on('thermoKind')}
              onChange={(kind) => save({ thermoKind: kind })}
            />
            {thermoKind.value === 'heat_flux' && number('heatFlux')}
            {thermoKind.value === 'temperature' && number('boundaryTemperature')}
            {thermoKind.value === 'heat_transfer_coefficient' && (
              <>
                {number('referenceTemperature')}
                {number('heatTransferCoefficient')}
              </>
            )}
          </>
        ) : (
          <p className="property-form__note">{THERMAL_NEEDS_HEAT_TRANSFER}</p>
        )}
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Wetting</legend>
        {settings.surfaceTension ? (
          number('contactAngle')
        ) : (
          <p className="property-form__note">{CONTACT_ANGLE_NEEDS_SURFACE_TENSION}</p>
        )}
      </fieldset>
    </div>
  )
}
