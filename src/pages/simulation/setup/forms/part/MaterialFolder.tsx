import { useSetAtom } from 'jotai'
import { useId } from 'react'
import {
  checkMaterial,
  summarizeMaterialIssues,
  type Material,
} from '../../../../../../domain/materials.ts'
import { useMaterialsQuery } from '../../queries/setupQueries.ts'
import { sideFormAtom } from '../../state/setupAtoms.ts'
import { SelectField } from '../fields/ChoiceFields.tsx'
import { FieldIssues, issuesOfField } from '../fields/FieldIssues.tsx'
import { materialName } from '../material/materialText.ts'
import { MIXED_PLACEHOLDER, allFluid, shared } from './partSelection.ts'
import type { PartFolderProps } from './usePartEdit.ts'

/** Shown instead of the material of parts that hold no fluid. */
export const NO_MATERIAL_NOTE = 'Solid walls and refinements have no material.'
/** Why further fluids cannot be picked with multiphase off. */
export const SINGLE_PHASE_NOTE = 'Only Fluid 1 is used without multiphase (Physics).'

/**
 * The Material folder of fluid parts: which material they are made of ('Material is required'),
 * that material's state ('Properties are required.' / 'Check your properties.') and a link to its
 * form. Without multiphase only material 0 is used.
 */
export function MaterialFolder({ simulationId, parts, edit, issues, settings }: PartFolderProps) {
  const materials = useMaterialsQuery(simulationId).data ?? []
  const setForm = useSetAtom(sideFormAtom)
  if (!allFluid(parts)) return <p className="property-form__note">{NO_MATERIAL_NOTE}</p>
  const materialId = shared(parts, (p) => p.materialId)
  const material = materials.find((m) => m.id === materialId.value)
  const options = materials.map((m) => ({
    value: String(m.id),
    label: materialName(m),
    disabled: !settings.multiphase && m.id !== 0,
  }))
  return (
    <div className="property-form">
      <SelectField
        label="Material"
        value={materialId.value === null || !material ? null : String(materialId.value)}
        placeholder={materialId.mixed ? MIXED_PLACEHOLDER : 'Select a material'}
        options={options}
        issues={issuesOfField(issues, 'part.materialId')}
        hint={settings.multiphase ? undefined : SINGLE_PHASE_NOTE}
        onChange={(value) => edit(() => ({ materialId: Number(value) }))}
      />
      {material && (
        <MaterialState
          material={material}
          thermodynamics={settings.thermodynamics}
          onOpen={() => setForm({ kind: 'material', materialId: material.id })}
        />
      )}
    </div>
  )
}

/** A material's one-line state and the link to its form. */
function MaterialState({
  material,
  thermodynamics,
  onOpen,
}: {
  material: Material
  thermodynamics: boolean
  onOpen: () => void
}) {
  const stateId = useId()
  const summary = summarizeMaterialIssues(
    'material',
    checkMaterial(material, { thermodynamics }, 'material'),
  )
  return (
    <div className="property-form__group">
      <FieldIssues id={stateId} issues={summary} />
      <button type="button" className="link-button" onClick={onOpen}>
        Edit {materialName(material)}
      </button>
    </div>
  )
}
