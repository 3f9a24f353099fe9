import { useState } from 'react'
import { materialLabel, type MaterialUpdate } from '../../../../../../domain/materials.ts'
import type { MaterialPresetWithSound } from '../../../../../../domain/rest/setupRoutes.ts'
import { unitSymbol } from '../../../../../../domain/units.ts'
import { Dialog } from '../../../../../components/Dialog.tsx'
import { Fact } from '../../../../../components/Fact.tsx'
import { useMaterialPresetsQuery } from '../../queries/setupQueries.ts'
import { withUnit } from '../formText.ts'

/** Title of the presets modal (spec/setup.md §2). */
export const LOAD_PRESETS_TITLE = 'Load Presets'

/**
 * The material update a preset makes: its density, viscosity (constant), gamma and thermal
 * properties; the material takes the preset's name while it still has its default label.
 */
export function presetUpdate(
  preset: MaterialPresetWithSound,
  material: { id: number; name: string },
): MaterialUpdate {
  const update: MaterialUpdate = {
    density: preset.density,
    gamma: preset.gamma,
    viscosityKind: 'constant',
    kinematicViscosity: preset.kinematicViscosity,
  }
  if (preset.thermalConductivity !== null) update.thermalConductivity = preset.thermalConductivity
  if (preset.specificHeatCapacity !== null)
    update.specificHeatCapacity = preset.specificHeatCapacity
  const name = material.name.trim()
  if (name === '' || name === materialLabel(material.id)) update.name = preset.name
  return update
}

/**
 * The 'Load Presets' modal (GET /material_presets): pick a real fluid, read its values and
 * description, and apply them to the material.
 */
export function MaterialPresetsDialog({
  materialName,
  onApply,
  onClose,
}: {
  materialName: string
  onApply: (preset: MaterialPresetWithSound) => void
  onClose: () => void
}) {
  const presets = useMaterialPresetsQuery()
  const [chosenId, setChosenId] = useState<number | null>(null)
  const list = presets.data ?? []
  const chosen = list.find((p) => p.id === chosenId) ?? null
  return (
    <Dialog
      title={LOAD_PRESETS_TITLE}
      subtitle={`Fill ${materialName} with a real fluid's values.`}
      onClose={onClose}
    >
      <div className="dialog__body preset-dialog">
        {presets.isPending && <p>Loading presets…</p>}
        {presets.isError && <p className="field__error">The presets could not be loaded.</p>}
        {list.length > 0 && (
          <fieldset className="preset-dialog__list">
            <legend>Presets</legend>
            {list.map((preset) => (
              <label key={preset.id} className="preset-dialog__option">
                <input
                  type="radio"
                  name="material-preset"
                  value={preset.id}
                  checked={chosenId === preset.id}
                  onChange={() => setChosenId(preset.id)}
                />
                <span>{preset.name}</span>
              </label>
            ))}
          </fieldset>
        )}
        {chosen && (
          <section className="preset-dialog__details" aria-label={`${chosen.name} values`}>
            <p className="preset-dialog__description">{chosen.description}</p>
            <dl className="facts">
              <Fact term="Density">{withUnit(chosen.density, unitSymbol('density'))}</Fact>
              <Fact term="Kinematic viscosity">
                {withUnit(chosen.kinematicViscosity, unitSymbol('kinematic_viscosity'))}
              </Fact>
              <Fact term="Gamma">{withUnit(chosen.gamma, '')}</Fact>
              {chosen.thermalConductivity !== null && (
                <Fact term="Thermal conductivity">
                  {withUnit(chosen.thermalConductivity, unitSymbol('thermal_conductivity'))}
                </Fact>
              )}
              {chosen.specificHeatCapacity !== null && (
                <Fact term="Specific heat capacity">
                  {withUnit(chosen.specificHeatCapacity, unitSymbol('specific_heat'))}
                </Fact>
              )}
              <Fact term="Physical speed of sound">
                {withUnit(chosen.physicalSpeedOfSound, unitSymbol('velocity'))}
              </Fact>
            </dl>
            <p className="field__hint">
              The speed of sound is not loaded: weakly-compressible runs use about 10 times the
              largest flow speed instead of the physical one.
            </p>
          </section>
        )}
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={chosen === null}
          onClick={() => {
            if (chosen) onApply(chosen)
          }}
        >
          Apply
        </button>
      </footer>
    </Dialog>
  )
}
