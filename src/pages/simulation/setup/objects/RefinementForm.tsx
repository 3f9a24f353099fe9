import { useMemo } from 'react'
import {
  checkRefinement,
  type MeshBody,
  type Refinement,
  type RefinementUpdate,
} from '../../../../../domain/meshes.ts'
import { unitSymbol } from '../../../../../domain/units.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { SwitchField } from '../forms/fields/ChoiceFields.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { issuesOfField } from '../forms/fields/FieldIssues.tsx'
import { NumberField } from '../forms/fields/NumberField.tsx'
import { SetupTextField } from '../forms/fields/SetupTextField.tsx'
import { VectorField } from '../forms/fields/VectorField.tsx'
import { mergeIssues, useRefusals } from '../forms/formIssues.ts'
import type { SideFormProps } from '../forms/registry.ts'
import {
  useDeleteRefinementMutation,
  useRefinementsQuery,
  useUpdateRefinementMutation,
} from './objectQueries.ts'

const m = unitSymbol('length')
const refinementFieldOf = (path: string) =>
  `refinement.${path.replace(/^refinements?\.(\d+\.)?/, '')}`

/** The zone's shape fields by mesh kind: a cube's dimensions, a sphere's or cylinder's radius. */
function ShapeFields({
  mesh,
  issues,
  onMesh,
}: {
  mesh: Refinement['mesh']
  issues: Parameters<typeof issuesOfField>[0]
  onMesh: (body: MeshBody) => void
}) {
  const of = (field: string) => issuesOfField(issues, `refinement.mesh.${field}`)
  switch (mesh.kind) {
    case 'cube':
      return (
        <VectorField
          label="Dimensions"
          unit={m}
          value={mesh.dimensions}
          issues={of('dimensions')}
          onCommit={(dimensions) => onMesh({ kind: 'cube', dimensions })}
        />
      )
    case 'sphere':
      return (
        <NumberField
          label="Radius"
          unit={m}
          value={mesh.radius}
          issues={of('radius')}
          onCommit={(radius) => onMesh({ kind: 'sphere', radius })}
        />
      )
    case 'cylinder':
      return (
        <>
          <NumberField
            label="Radius"
            unit={m}
            value={mesh.radius}
            issues={of('radius')}
            onCommit={(radius) => onMesh({ kind: 'cylinder', radius })}
          />
          <NumberField
            label="Height"
            unit={m}
            value={mesh.height}
            issues={of('height')}
            onCommit={(height) => onMesh({ kind: 'cylinder', height })}
          />
        </>
      )
    default:
      return null
  }
}

/**
 * A refinement zone (spec/setup.md §3 "Refinement"): its name, level (> 0) and the closed mesh
 * inside which particles are refined (placed by its centre).
 */
export function RefinementForm({ simulation, form }: SideFormProps<'refinement'>) {
  const refinement = useRefinementsQuery(simulation.id).data?.find(
    (r) => r.id === form.refinementId,
  )
  const update = useUpdateRefinementMutation(simulation.id)
  const remove = useDeleteRefinementMutation()
  const refusals = useRefusals(refinementFieldOf)
  const setup = useSetupEditable()
  const issues = useMemo(
    () =>
      refinement ? mergeIssues(refusals.issues, checkRefinement(refinement, 'refinement')) : [],
    [refinement, refusals.issues],
  )
  if (!refinement) return <p className="property-form__note">This refinement zone is gone.</p>
  const save = (edit: RefinementUpdate, mesh?: MeshBody) => {
    refusals.clear()
    update.mutate(
      {
        refinementId: refinement.id,
        update: edit,
        ...(mesh && { mesh: { meshId: refinement.mesh.id, body: mesh } }),
      },
      { onError: refusals.capture },
    )
  }
  return (
    <div className="property-form">
      <SetupTextField
        label="Name"
        value={refinement.name}
        issues={issuesOfField(issues, 'refinement.name')}
        onCommit={(name) => save({ name })}
      />
      <NumberField
        label="Level"
        unit=""
        value={refinement.level}
        issues={issuesOfField(issues, 'refinement.level')}
        onCommit={(level) => save({ level })}
      />
      <p className="property-form__note">Shape: {refinement.mesh.kind}</p>
      <VectorField
        label="Center"
        unit={m}
        value={refinement.mesh.center}
        issues={issuesOfField(issues, 'refinement.mesh.center')}
        onCommit={(center) => save({}, { kind: refinement.mesh.kind, center })}
      />
      <ShapeFields mesh={refinement.mesh} issues={issues} onMesh={(body) => save({}, body)} />
      <SwitchField
        label="Visible"
        checked={refinement.appearance.visibility}
        onChange={(visibility) => save({ appearance: { visibility } })}
      />
      {setup.editable && (
        <div className="property-form__actions">
          <ArmedDeleteButton
            label={`Delete ${refinement.name}`}
            onConfirm={() => remove.mutate(refinement.id)}
          />
          <span className="field__hint">Delete (double-click)</span>
        </div>
      )}
    </div>
  )
}
