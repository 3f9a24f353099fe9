import { DISPLAY_DECIMALS } from '../../../../../../domain/constants.ts'
import {
  INTEGRATION_SCHEMES,
  SHIFTING_KINDS,
  type SimulationSettings,
} from '../../../../../../domain/settings.ts'
import {
  SETTINGS_MESSAGES,
  checkOutputCount,
  isParticleDiameterEditable,
  outputCount,
} from '../../../../../../domain/settingsRules.ts'
import { unitSymbol } from '../../../../../../domain/units.ts'
import { SelectField, SwitchField } from '../fields/ChoiceFields.tsx'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { VectorField } from '../fields/VectorField.tsx'
import type { SideFormProps } from '../registry.ts'
import { AccelerationFileField } from './AccelerationFileField.tsx'
import { AdjustmentsDialog } from './AdjustmentsDialog.tsx'
import { OutputCountField } from './OutputCountField.tsx'
import { useSettingsEdit } from './useSettingsEdit.ts'

export const INTEGRATION_SCHEME_LABELS: Record<SimulationSettings['integrationScheme'], string> = {
  dual_timestep_rk_4: 'Dual time step RK4',
  runge_kutta_4: 'Runge-Kutta 4',
}
export const SHIFTING_LABELS: Record<SimulationSettings['shifting'], string> = {
  lyu21: 'Lyu 2021',
  sun17: 'Sun 2017',
  zero: 'Off',
}
/** Why the particle diameter is fixed. */
export const DIAMETER_FROM_POINTCLOUD = 'A point cloud part fixes the particle diameter.'
/** Why the switches multiphase sets cannot be changed. */
export const SET_BY_MULTIPHASE = 'Set by multiphase (Physics).'

/**
 * The simulation settings (spec/setup.md §3, §5): particle diameter, end time, output interval and
 * count, gravity, integration scheme, shifting, time step, density limiter and its threshold (in
 * percent), acceleration limiter and file, improved wall pressure and low dissipation operators.
 */
export function SettingsForm({ simulation }: SideFormProps<'settings'>) {
  const { loaded, settings, parts, issues, save, adjustments, dismissAdjustments } =
    useSettingsEdit(simulation.id)
  if (!loaded) return <p className="property-form__note">Loading settings…</p>
  const on = (field: keyof SimulationSettings) => issuesOfField(issues, `settings.${field}`)
  const diameterEditable = isParticleDiameterEditable(parts)
  const multiphase = settings.multiphase
  const byMultiphase = multiphase ? { disabled: true, disabledReason: SET_BY_MULTIPHASE } : {}
  const s = unitSymbol('time')
  // The output count's own bounds show on the count field, not twice.
  const count = outputCount(settings)
  const countMessages = count === null ? [] : checkOutputCount(count).map((i) => i.message)
  return (
    <div className="property-form">
      <fieldset className="property-form__section">
        <legend>Resolution and time</legend>
        <NumberField
          label="Particle diameter"
          unit={unitSymbol('length')}
          value={settings.particleDiameter}
          disabled={!diameterEditable}
          disabledReason={diameterEditable ? null : DIAMETER_FROM_POINTCLOUD}
          issues={on('particleDiameter')}
          onCommit={(particleDiameter) => save({ particleDiameter })}
        />
        <NumberField
          label="End time"
          unit={s}
          value={settings.endTime}
          issues={on('endTime')}
          onCommit={(endTime) => save({ endTime })}
        />
        <NumberField
          label="Output interval"
          unit={s}
          decimals={DISPLAY_DECIMALS.outputInterval}
          value={settings.outputTimeInterval}
          issues={on('outputTimeInterval').filter((i) => !countMessages.includes(i.message))}
          onCommit={(outputTimeInterval) => save({ outputTimeInterval })}
        />
        <OutputCountField
          settings={settings}
          onInterval={(outputTimeInterval) => save({ outputTimeInterval })}
        />
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Forces</legend>
        <VectorField
          label="Gravity"
          unit={unitSymbol('acceleration')}
          value={settings.gravity}
          issues={on('gravity')}
          onCommit={(gravity) => save({ gravity })}
        />
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Numerics</legend>
        <SelectField
          label="Integration scheme"
          value={settings.integrationScheme}
          options={INTEGRATION_SCHEMES.map((v) => ({
            value: v,
            label: INTEGRATION_SCHEME_LABELS[v],
          }))}
          issues={on('integrationScheme')}
          onChange={(integrationScheme) => save({ integrationScheme })}
        />
        <SelectField
          label="Shifting"
          value={settings.shifting}
          options={SHIFTING_KINDS.map((v) => ({
            value: v,
            label: SHIFTING_LABELS[v],
            disabled: v === 'zero' && settings.surfaceTension,
          }))}
          hint={settings.surfaceTension ? SETTINGS_MESSAGES.surfaceTensionShifting : undefined}
          issues={on('shifting')}
          onChange={(shifting) => save({ shifting })}
        />
        <SwitchField
          label="Dynamic time step"
          checked={settings.dynamicTimeStep}
          onChange={(dynamicTimeStep) => save({ dynamicTimeStep })}
          {...byMultiphase}
        />
        <SwitchField
          label="Density limiter"
          checked={settings.densityLimiter}
          onChange={(densityLimiter) => save({ densityLimiter })}
          {...byMultiphase}
        />
        {settings.densityLimiter && (
          <NumberField
            label="Density threshold"
            unit="%"
            scale={100}
            value={settings.densityThreshold}
            hint="Standard: 30 %."
            issues={on('densityThreshold')}
            onCommit={(densityThreshold) => save({ densityThreshold })}
          />
        )}
        <SwitchField
          label="Acceleration limiter"
          checked={settings.accelerationLimiter}
          onChange={(accelerationLimiter) => save({ accelerationLimiter })}
        />
        <SwitchField
          label="Improved wall pressure"
          checked={settings.noRiemannWall}
          onChange={(noRiemannWall) => save({ noRiemannWall })}
          {...byMultiphase}
        />
        <SwitchField
          label="Low dissipation operators"
          checked={settings.lowDissipationOperators}
          onChange={(lowDissipationOperators) => save({ lowDissipationOperators })}
        />
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Acceleration</legend>
        <AccelerationFileField
          simulationId={simulation.id}
          settings={settings}
          issues={[...on('accelerationFile'), ...on('accelerationFileId')]}
          onRemove={() => save({ accelerationFileId: null })}
        />
      </fieldset>
      {adjustments && <AdjustmentsDialog adjustments={adjustments} onClose={dismissAdjustments} />}
    </div>
  )
}
