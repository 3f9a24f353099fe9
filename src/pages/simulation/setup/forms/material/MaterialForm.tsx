import { useSetAtom } from 'jotai'
import { useMemo, useState } from 'react'
import { datatablePreviewRows, type DatatableInfo } from '../../../../../../domain/datatable.ts'
import {
  GAMMA_GUIDANCE,
  MULTIPHASE_MAX_MATERIALS,
  VISCOSITY_KINDS,
  availableViscosityKinds,
  checkMaterial,
  materialLabel,
  type Material,
  type MaterialUpdate,
  type ViscosityKind,
} from '../../../../../../domain/materials.ts'
import { SETTINGS_MESSAGES } from '../../../../../../domain/settingsRules.ts'
import { unitSymbol } from '../../../../../../domain/units.ts'
import type { Issue } from '../../../../../../domain/validation.ts'
import {
  useAddMaterialMutation,
  useDeleteMaterialMutation,
  useUpdateMaterialMutation,
} from '../../queries/propertyMutations.ts'
import {
  useDatatableQuery,
  useMaterialsQuery,
  useSetupIssuesQuery,
} from '../../queries/setupQueries.ts'
import { sideFormAtom } from '../../state/setupAtoms.ts'
import { TableField } from '../TableField.tsx'
import { useSetupEditable } from '../fields/editable.ts'
import { SelectField } from '../fields/ChoiceFields.tsx'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { SetupTextField } from '../fields/SetupTextField.tsx'
import { materialFieldOf, mergeIssues, rebaseIssues, useRefusals } from '../formIssues.ts'
import { useSetupSettings } from '../part/usePartEdit.ts'
import type { SideFormProps } from '../registry.ts'
import { MaterialList } from './MaterialList.tsx'
import { MaterialPresetsDialog, presetUpdate } from './MaterialPresetsDialog.tsx'
import { materialName } from './materialText.ts'

export const VISCOSITY_KIND_LABELS: Record<ViscosityKind, string> = {
  constant: 'Constant',
  shear_rate: 'Shear rate table',
  temperature: 'Temperature table',
}
/** Guidance under gamma (spec/setup.md §5). */
export const GAMMA_HINT = `Use ${GAMMA_GUIDANCE.fluid} for fluids, ${GAMMA_GUIDANCE.gas} for gases.`
/** Why no further material can be added. */
export const ADD_NEEDS_MULTIPHASE = 'Turn on multiphase (Physics) to add further fluids.'

type MaterialNumberKey =
  | 'density'
  | 'gamma'
  | 'speedOfSound'
  | 'kinematicViscosity'
  | 'thermalConductivity'
  | 'specificHeatCapacity'

const FIELDS: Record<MaterialNumberKey, { label: string; unit: string }> = {
  density: { label: 'Density', unit: unitSymbol('density') },
  gamma: { label: 'Gamma', unit: '' },
  speedOfSound: { label: 'Speed of sound', unit: unitSymbol('velocity') },
  kinematicViscosity: { label: 'Kinematic viscosity', unit: unitSymbol('kinematic_viscosity') },
  thermalConductivity: { label: 'Thermal conductivity', unit: unitSymbol('thermal_conductivity') },
  specificHeatCapacity: { label: 'Specific heat capacity', unit: unitSymbol('specific_heat') },
}

/** The smallest material id not in use (a deleted fluid's id is given again). */
export function nextMaterialId(materials: readonly Pick<Material, 'id'>[]): number {
  const ids = new Set(materials.map((m) => m.id))
  let id = 0
  while (ids.has(id)) id++
  return id
}

/**
 * The material form: the list of fluids (add under multiphase, up to 5; delete from id 2) and the
 * chosen one's properties — name, density, gamma, speed of sound, viscosity (constant or a table;
 * over temperature only with heat transfer) and, with heat transfer, thermal conductivity and
 * specific heat capacity — with 'Load Presets'.
 */
export function MaterialForm({ simulation, form }: SideFormProps<'material'>) {
  const materials = useMaterialsQuery(simulation.id).data
  const settings = useSetupSettings(simulation.id)
  const setForm = useSetAtom(sideFormAtom)
  const setup = useSetupEditable()
  const add = useAddMaterialMutation(simulation.id)
  const remove = useDeleteMaterialMutation(simulation.id)
  if (!materials) return <p className="property-form__note">Loading materials…</p>
  const material = materials.find((m) => m.id === form.materialId) ?? materials[0]
  const canAdd = settings.multiphase && materials.length < MULTIPHASE_MAX_MATERIALS
  const addReason = !settings.multiphase
    ? ADD_NEEDS_MULTIPHASE
    : materials.length >= MULTIPHASE_MAX_MATERIALS
      ? SETTINGS_MESSAGES.multiphaseMaxMaterials
      : null
  return (
    <div className="property-form">
      <MaterialList
        materials={materials}
        selectedId={material?.id ?? null}
        thermodynamics={settings.thermodynamics}
        onSelect={(materialId) => setForm({ kind: 'material', materialId })}
        onDelete={(materialId) => {
          remove.mutate(materialId)
          if (materialId === material?.id) setForm({ kind: 'material', materialId: 0 })
        }}
      />
      <div className="property-form__actions">
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={!canAdd || !setup.editable}
          title={addReason ?? undefined}
          onClick={() => {
            const materialId = nextMaterialId(materials)
            add.mutate(
              { materialId, update: { name: materialLabel(materialId) } },
              { onSuccess: () => setForm({ kind: 'material', materialId }) },
            )
          }}
        >
          Add material
        </button>
        {addReason && <p className="field__hint">{addReason}</p>}
      </div>
      {material && (
        <MaterialProperties
          key={material.id}
          simulationId={simulation.id}
          material={material}
          thermodynamics={settings.thermodynamics}
        />
      )}
    </div>
  )
}

/** The tables a material's rules look at (its viscosity table). */
function useViscosityTable(material: Material): DatatableInfo[] {
  const tableId =
    material.viscosityKind === 'shear_rate'
      ? material.viscosityShearRateTableId
      : material.viscosityKind === 'temperature'
        ? material.viscosityTemperatureTableId
        : null
  const table = useDatatableQuery(
    tableId,
    datatablePreviewRows(
      material.viscosityKind === 'temperature' ? 'viscosityTemperature' : 'viscosityShearRate',
    ),
  ).data
  return useMemo(() => (table ? [table] : []), [table])
}

function useMaterialIssues(
  simulationId: number,
  material: Material,
  thermodynamics: boolean,
  refusals: readonly Issue[],
): Issue[] {
  const server = useSetupIssuesQuery(simulationId).data?.issues
  const tables = useViscosityTable(material)
  return useMemo(() => {
    const tableRowCount = (id: number) => tables.find((t) => t.id === id)?.resultCount
    return mergeIssues(
      refusals,
      checkMaterial(material, { thermodynamics, tableRowCount }, 'material'),
      rebaseIssues(server ?? [], `materials.${material.id}`, 'material'),
    )
  }, [material, thermodynamics, refusals, server, tables])
}

function MaterialProperties({
  simulationId,
  material,
  thermodynamics,
}: {
  simulationId: number
  material: Material
  thermodynamics: boolean
}) {
  const update = useUpdateMaterialMutation(simulationId)
  const refusals = useRefusals(materialFieldOf)
  const issues = useMaterialIssues(simulationId, material, thermodynamics, refusals.issues)
  const [presetsOpen, setPresetsOpen] = useState(false)
  const setup = useSetupEditable()
  const on = (field: string) => issuesOfField(issues, `material.${field}`)
  const save = (changes: MaterialUpdate) => {
    refusals.clear()
    update.mutate({ materialId: material.id, update: changes }, { onError: refusals.capture })
  }
  const number = (key: MaterialNumberKey, hint?: string) => (
    <NumberField
      label={FIELDS[key].label}
      unit={FIELDS[key].unit}
      value={material[key]}
      hint={hint}
      issues={on(key)}
      onCommit={(value) => save({ [key]: value })}
    />
  )
  const kinds = availableViscosityKinds(thermodynamics)
  const name = materialName(material)
  return (
    <section className="property-form__section" aria-label={`${name} properties`}>
      <div className="property-form__title-row">
        <h3 className="property-form__heading">{name}</h3>
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={!setup.editable}
          onClick={() => setPresetsOpen(true)}
        >
          Load Presets
        </button>
      </div>
      <SetupTextField
        label="Name"
        value={material.name}
        maxLength={100}
        issues={on('name')}
        onCommit={(value) => save({ name: value })}
      />
      {number('density')}
      {number('gamma', GAMMA_HINT)}
      {number('speedOfSound')}
      <SelectField
        label="Viscosity"
        value={material.viscosityKind}
        options={VISCOSITY_KINDS.map((kind) => ({
          value: kind,
          label: VISCOSITY_KIND_LABELS[kind],
          disabled: !kinds.includes(kind),
        }))}
        issues={on('viscosityKind')}
        onChange={(kind) => save({ viscosityKind: kind })}
      />
      {material.viscosityKind === 'constant' && number('kinematicViscosity')}
      {material.viscosityKind === 'shear_rate' && (
        <TableField
          label="Viscosity over shear rate"
          simulationId={simulationId}
          kind="viscosityShearRate"
          tableId={material.viscosityShearRateTableId}
          onTableCreated={(id) => save({ viscosityShearRateTableId: id })}
          issues={on('viscosityShearRateTableId')}
        />
      )}
      {material.viscosityKind === 'temperature' && (
        <TableField
          label="Viscosity over temperature"
          simulationId={simulationId}
          kind="viscosityTemperature"
          tableId={material.viscosityTemperatureTableId}
          onTableCreated={(id) => save({ viscosityTemperatureTableId: id })}
          issues={on('viscosityTemperatureTableId')}
        />
      )}
      {thermodynamics ? (
        <>
          {number('thermalConductivity')}
          {number('specificHeatCapacity')}
        </>
      ) : (
        <p className="property-form__note">
          Thermal conductivity and specific heat capacity apply with the heat transfer model
          (Physics).
        </p>
      )}
      {presetsOpen && (
        <MaterialPresetsDialog
          materialName={name}
          onClose={() => setPresetsOpen(false)}
          onApply={(preset) => {
            save(presetUpdate(preset, material))
            setPresetsOpen(false)
          }}
        />
      )}
    </section>
  )
}
