import { unitSymbol } from '../../../../../../domain/units.ts'
import type { LooseVec3 } from '../../../../../../domain/vector.ts'
import { SwitchField } from '../fields/ChoiceFields.tsx'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { VectorField } from '../fields/VectorField.tsx'
import {
  INITIAL_PRESET_SET,
  MIXED_PLACEHOLDER,
  componentUpdate,
  mergeVectorEdit,
  shared,
  sharedVector,
} from './partSelection.ts'
import { TableField } from '../TableField.tsx'
import type { PartFolderProps } from './usePartEdit.ts'

/** Shown for parts without initial conditions. */
export const NO_INITIAL_CONDITIONS_NOTE = 'Initial conditions apply to fluid fillings and flows.'
/** Shown while the temperature does not apply. */
export const TEMPERATURE_NEEDS_HEAT_TRANSFER =
  'The initial temperature applies with the heat transfer model (Physics).'

/**
 * The Initial Conditions folder of fillings and flows: the fluid's starting velocity, pressure and
 * (with heat transfer) temperature, or an initial distribution table instead. Nothing can be
 * edited while an initial preset is set.
 */
export function InitialConditionsFolder(props: PartFolderProps) {
  const { simulationId, parts, edit, issues, settings } = props
  const applies = parts.every((p) => p.component.type === 'filling' || p.component.type === 'flow')
  if (!applies) return <p className="property-form__note">{NO_INITIAL_CONDITIONS_NOTE}</p>
  const single = parts.length === 1 ? parts[0] : undefined
  const preset = shared(parts, (p) => p.component.initialPreset)
  const locked = parts.some((p) => p.component.initialPreset !== null)
  const lock = locked ? { disabled: true, disabledReason: INITIAL_PRESET_SET } : {}
  const distribution = shared(parts, (p) => p.component.initialDistribution)
  const velocity = sharedVector(parts, (p) => p.component.initialVelocity)
  const pressure = shared(parts, (p) => p.component.initialPressure)
  const temperature = shared(parts, (p) => p.component.initialTemperature)
  const on = (field: string) => issuesOfField(issues, `part.component.${field}`)
  return (
    <div className="property-form">
      {locked && (
        <p className="property-form__note">
          {INITIAL_PRESET_SET} {preset.value ? `(${preset.value})` : ''}
        </p>
      )}
      <SwitchField
        label="Initial distribution from a table"
        checked={distribution.value ?? false}
        mixed={distribution.mixed}
        disabled={locked || !single}
        disabledReason={
          locked ? INITIAL_PRESET_SET : single ? null : 'Select a single part to use a table.'
        }
        onChange={(checked) =>
          edit((p) => ({ component: componentUpdate(p, { initialDistribution: checked }) }))
        }
      />
      {distribution.value && single ? (
        <TableField
          label="Initial distribution table"
          simulationId={simulationId}
          kind="initialDistribution"
          tableId={single.component.initialDistributionTableId}
          onTableCreated={(id) =>
            edit((p) => ({ component: componentUpdate(p, { initialDistributionTableId: id }) }))
          }
          issues={on('initialDistributionTableId')}
        />
      ) : (
        <>
          <VectorField
            label="Initial velocity"
            unit={unitSymbol('velocity')}
            value={velocity.value}
            placeholder={velocity.mixed ? MIXED_PLACEHOLDER : undefined}
            issues={on('initialVelocity')}
            onCommit={(next: LooseVec3) =>
              edit((p) => ({
                component: componentUpdate(p, {
                  initialVelocity: mergeVectorEdit(
                    p.component.initialVelocity,
                    velocity.value,
                    next,
                  ),
                }),
              }))
            }
            {...lock}
          />
          <NumberField
            label="Initial pressure"
            unit={unitSymbol('pressure')}
            value={pressure.value}
            placeholder={pressure.mixed ? MIXED_PLACEHOLDER : undefined}
            issues={on('initialPressure')}
            onCommit={(value) =>
              edit((p) => ({ component: componentUpdate(p, { initialPressure: value }) }))
            }
            {...lock}
          />
          {settings.thermodynamics ? (
            <NumberField
              label="Initial temperature"
              unit={unitSymbol('temperature')}
              value={temperature.value}
              placeholder={temperature.mixed ? MIXED_PLACEHOLDER : undefined}
              issues={on('initialTemperature')}
              onCommit={(value) =>
                edit((p) => ({ component: componentUpdate(p, { initialTemperature: value }) }))
              }
              {...lock}
            />
          ) : (
            <p className="property-form__note">{TEMPERATURE_NEEDS_HEAT_TRANSFER}</p>
          )}
        </>
      )}
    </div>
  )
}
