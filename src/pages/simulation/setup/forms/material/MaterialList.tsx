import { useId, useState } from 'react'
import { MATERIAL_LIST_COLLAPSE_AFTER } from '../../../../../../domain/constants.ts'
import {
  canDeleteMaterial,
  checkMaterial,
  summarizeMaterialIssues,
  type Material,
} from '../../../../../../domain/materials.ts'
import { ArmedDeleteButton } from '../../../results/explorer/ArmedDeleteButton.tsx'
import { useSetupEditable } from '../fields/editable.ts'
import { materialName } from './materialText.ts'

/**
 * The simulation's materials (spec/setup.md §9: the list collapses after 5, 'see N more' / 'see N
 * less'), each with its state ('Properties are required.' / 'Check your properties.'); the chosen
 * one is edited below. Only materials from id 2 on can be deleted (a double click).
 */
export function MaterialList({
  materials,
  selectedId,
  thermodynamics,
  onSelect,
  onDelete,
}: {
  materials: readonly Material[]
  selectedId: number | null
  thermodynamics: boolean
  onSelect: (materialId: number) => void
  onDelete: (materialId: number) => void
}) {
  const [expanded, setExpanded] = useState(false)
  const setup = useSetupEditable()
  const hidden = materials.length - MATERIAL_LIST_COLLAPSE_AFTER
  const shown =
    expanded || hidden <= 0 ? materials : materials.slice(0, MATERIAL_LIST_COLLAPSE_AFTER)
  return (
    <div className="material-list">
      <ul className="material-list__items" aria-label="Materials">
        {shown.map((material) => (
          <MaterialRow
            key={material.id}
            material={material}
            selected={material.id === selectedId}
            thermodynamics={thermodynamics}
            onSelect={() => onSelect(material.id)}
            onDelete={
              canDeleteMaterial(material.id) && setup.editable ? () => onDelete(material.id) : null
            }
          />
        ))}
      </ul>
      {hidden > 0 && (
        <button
          type="button"
          className="link-button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? `see ${hidden} less` : `see ${hidden} more`}
        </button>
      )}
    </div>
  )
}

function MaterialRow({
  material,
  selected,
  thermodynamics,
  onSelect,
  onDelete,
}: {
  material: Material
  selected: boolean
  thermodynamics: boolean
  onSelect: () => void
  onDelete: (() => void) | null
}) {
  const stateId = useId()
  const summary = summarizeMaterialIssues(
    'material',
    checkMaterial(material, { thermodynamics }, 'material'),
  )
  const name = materialName(material)
  return (
    <li className={`material-list__item${selected ? ' material-list__item--selected' : ''}`}>
      <button
        type="button"
        className="material-list__select"
        aria-current={selected ? 'true' : undefined}
        aria-describedby={summary.length > 0 ? stateId : undefined}
        onClick={onSelect}
      >
        <span className="material-list__name">{name}</span>
        {summary.map((i) => (
          <span
            key={i.message}
            id={stateId}
            className={`material-list__state setup-field__issue setup-field__issue--${i.level}`}
          >
            {i.message}
          </span>
        ))}
      </button>
      {onDelete && <ArmedDeleteButton label={`Delete ${name}`} onConfirm={onDelete} />}
    </li>
  )
}
