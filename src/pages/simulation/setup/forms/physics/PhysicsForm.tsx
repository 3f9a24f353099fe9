import { useSetAtom } from 'jotai'
import { TRUNCATE_CHARS } from '../../../../../../domain/constants.ts'
import { SURFACE_TENSION_MAX_MATERIALS } from '../../../../../../domain/materials.ts'
import type { SimulationSettings } from '../../../../../../domain/settings.ts'
import {
  SETTINGS_MESSAGES,
  canEnableSurfaceTension,
  multiphaseBlockers,
} from '../../../../../../domain/settingsRules.ts'
import { unitSymbol } from '../../../../../../domain/units.ts'
import { issue } from '../../../../../../domain/validation.ts'
import { truncateText } from '../../../../../components/TruncatedText.tsx'
import { sideFormAtom } from '../../state/setupAtoms.ts'
import { SwitchField } from '../fields/ChoiceFields.tsx'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { VectorField } from '../fields/VectorField.tsx'
import { materialName } from '../material/materialText.ts'
import type { SideFormProps } from '../registry.ts'
import { AdjustmentsDialog } from '../settings/AdjustmentsDialog.tsx'
import { useSettingsEdit } from '../settings/useSettingsEdit.ts'

/** Why air drag cannot be switched on. */
export const AIR_DRAG_MULTIPHASE = SETTINGS_MESSAGES.multiphaseAirDrag
/** Guidance under sigma (spec/setup.md §5: water/air example). */
export const SIGMA_HINT = 'Water and air: 0.072 N/m.'

/**
 * The physics of the simulation (spec/setup.md §4, §5): multiphase (not with refinements, air drag
 * or heat flux / heat transfer coefficient walls under heat transfer; up to 5 materials), surface
 * tension and sigma (forces shifting to lyu21), heat transfer (thermodynamics) with the ambient
 * temperature, air drag (not under multiphase) and the rotating system. A switch that changes
 * other settings ends in 'Advanced Settings Were Adjusted'.
 */
export function PhysicsForm({ simulation }: SideFormProps<'physics'>) {
  const { loaded, settings, materials, parts, issues, save, adjustments, dismissAdjustments } =
    useSettingsEdit(simulation.id)
  const setForm = useSetAtom(sideFormAtom)
  if (!loaded) return <p className="property-form__note">Loading physics…</p>
  const on = (field: keyof SimulationSettings) => issuesOfField(issues, `settings.${field}`)
  const blockers = settings.multiphase
    ? []
    : multiphaseBlockers(settings, { refinementCount: 0, parts })
  const surfaceTensionAllowed = canEnableSurfaceTension(settings, materials.length)
  const airDragBlocked = settings.multiphase && !settings.airDrag
  const fluids = materials
    .slice(0, SURFACE_TENSION_MAX_MATERIALS)
    .map((m) => truncateText(materialName(m), TRUNCATE_CHARS.surfaceTensionFluidName))
  return (
    <div className="property-form">
      <fieldset className="property-form__section">
        <legend>Multiphase</legend>
        <SwitchField
          label="Multiphase"
          checked={settings.multiphase}
          disabled={blockers.length > 0}
          disabledReason={blockers.join(' ') || null}
          issues={[
            ...on('multiphase'),
            ...blockers.map((message) => issue('info', 'settings.multiphase', message)),
          ]}
          hint="Several fluids (up to 5) in one simulation."
          onChange={(multiphase) => save({ multiphase })}
        />
        {settings.multiphase && (
          <p className="property-form__note">
            {materials.length} {materials.length === 1 ? 'fluid' : 'fluids'}.{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => setForm({ kind: 'material', materialId: null })}
            >
              Edit materials
            </button>
          </p>
        )}
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Surface tension</legend>
        <SwitchField
          label="Surface tension"
          checked={settings.surfaceTension}
          disabled={!surfaceTensionAllowed && !settings.surfaceTension}
          disabledReason={
            surfaceTensionAllowed ? null : SETTINGS_MESSAGES.surfaceTensionMaxMaterials
          }
          issues={[...on('surfaceTension'), ...on('shifting')]}
          hint={
            settings.multiphase && fluids.length === 2
              ? `Between ${fluids.join(' and ')}; shifting is set to Lyu 2021.`
              : 'Switching it on sets shifting to Lyu 2021.'
          }
          onChange={(surfaceTension) => save({ surfaceTension })}
        />
        {settings.surfaceTension && (
          <NumberField
            label="Sigma"
            unit={unitSymbol('surface_tension')}
            value={settings.sigma}
            hint={SIGMA_HINT}
            issues={on('sigma')}
            onCommit={(sigma) => save({ sigma })}
          />
        )}
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Heat transfer</legend>
        <SwitchField
          label="Heat transfer (thermodynamics)"
          checked={settings.thermodynamics}
          issues={on('thermodynamics')}
          onChange={(thermodynamics) => save({ thermodynamics })}
        />
        {settings.thermodynamics && (
          <NumberField
            label="Ambient temperature"
            unit={unitSymbol('temperature')}
            value={settings.ambientTemperature}
            issues={on('ambientTemperature')}
            onCommit={(ambientTemperature) => save({ ambientTemperature })}
          />
        )}
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Air drag</legend>
        <SwitchField
          label="Air drag"
          checked={settings.airDrag}
          disabled={airDragBlocked}
          disabledReason={airDragBlocked ? AIR_DRAG_MULTIPHASE : null}
          issues={on('airDrag')}
          hint="Drag of the surrounding air on the fluid; needs an air drag domain."
          onChange={(airDrag) => save({ airDrag })}
        />
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Rotating system</legend>
        <SwitchField
          label="Rotating system"
          checked={settings.rotatingSystem}
          issues={on('rotatingSystem')}
          onChange={(rotatingSystem) => save({ rotatingSystem })}
        />
        {settings.rotatingSystem && (
          <>
            <NumberField
              label="Rotation velocity"
              unit="rad/s"
              value={settings.rotationVelocity}
              issues={on('rotationVelocity')}
              onCommit={(rotationVelocity) => save({ rotationVelocity })}
            />
            <VectorField
              label="Rotation axis"
              unit=""
              value={settings.rotationAxis}
              issues={on('rotationAxis')}
              onCommit={(rotationAxis) => save({ rotationAxis })}
            />
            <VectorField
              label="Rotation center"
              unit={unitSymbol('length')}
              value={settings.rotationCenter}
              issues={on('rotationCenter')}
              onCommit={(rotationCenter) => save({ rotationCenter })}
            />
          </>
        )}
      </fieldset>
      {adjustments && <AdjustmentsDialog adjustments={adjustments} onClose={dismissAdjustments} />}
    </div>
  )
}
