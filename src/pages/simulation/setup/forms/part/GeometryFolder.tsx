import { useState } from 'react'
import { DISPLAY_DECIMALS } from '../../../../../../domain/constants.ts'
import {
  makeUniqueName,
  percentToResolution,
  resolutionToPercent,
  SHAPE_BOUNDS,
  type Part,
  type ShapeType,
} from '../../../../../../domain/parts.ts'
import { unitSymbol } from '../../../../../../domain/units.ts'
import type { LooseVec3 } from '../../../../../../domain/vector.ts'
import { Fact } from '../../../../../components/Fact.tsx'
import {
  usePartsQuery,
  useSetupSensorsQuery,
  useSetupVolumeClipsQuery,
} from '../../queries/setupQueries.ts'
import { SwitchField } from '../fields/ChoiceFields.tsx'
import { useSetupEditable } from '../fields/editable.ts'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { SetupTextField } from '../fields/SetupTextField.tsx'
import { SliderField } from '../fields/SliderField.tsx'
import { VectorField } from '../fields/VectorField.tsx'
import {
  MIXED_PLACEHOLDER,
  POINTCLOUD_NOT_EDITABLE,
  mergeVectorEdit,
  shapeUpdate,
  shared,
  sharedVector,
} from './partSelection.ts'
import type { PartFolderProps } from './usePartEdit.ts'
import { trackEvent } from '../../../../../analytics/analytics.ts'

/** How the shape types read in the form. */
export const SHAPE_TYPE_LABELS: Record<ShapeType, string> = {
  plane: 'Plane',
  stl: 'STL file',
  stl_cube: 'Cube',
  pointcloud: 'Point cloud',
  empty: 'No geometry',
}

const m = unitSymbol('length')
const deg = unitSymbol('angle')

type ShapeVectorKey = 'translation' | 'rotation' | 'scale' | 'dimensions'

/** Names of the setup's other objects, which a part's name must not repeat. */
function useOtherNames(simulationId: number, partId: number | undefined): string[] {
  const parts = usePartsQuery(simulationId).data ?? []
  const sensors = useSetupSensorsQuery(simulationId).data ?? []
  const clips = useSetupVolumeClipsQuery(simulationId).data ?? []
  return [
    ...parts.filter((p) => p.id !== partId).map((p) => p.name),
    ...sensors.map((s) => s.name),
    ...clips.map((c) => c.name),
  ]
}

/**
 * The Geometry folder: name (unique among parts, sensors and volume clips), the shape and its file,
 * resolution or dimensions, placement (translation, rotation in degrees, scale), flipped normals,
 * the fill height of a filling and the seed point. Point clouds cannot be edited, and take neither
 * a fill height nor a seed point: their particles are the cloud's.
 */
export function GeometryFolder({ simulationId, parts, edit, issues }: PartFolderProps) {
  const single = parts.length === 1 ? parts[0] : undefined
  const otherNames = useOtherNames(simulationId, single?.id)
  const [renamed, setRenamed] = useState<string | null>(null)
  const setup = useSetupEditable()
  const locked = parts.some((p) => p.shape.type === 'pointcloud')
  const lock = locked ? { disabled: true, disabledReason: POINTCLOUD_NOT_EDITABLE } : {}
  const shapeType = shared(parts, (p) => p.shape.type)
  const on = (field: string) => issuesOfField(issues, field)

  const vector = (key: ShapeVectorKey, get: (p: Part) => LooseVec3 | null) => {
    const value = sharedVector(parts, get)
    return {
      value: value.value,
      placeholder: value.mixed ? MIXED_PLACEHOLDER : undefined,
      issues: on(`part.shape.${key}`),
      onCommit: (next: LooseVec3) =>
        edit((p) => ({
          shape: shapeUpdate(p, { [key]: mergeVectorEdit(get(p), value.value, next) }),
        })),
      ...lock,
    }
  }

  const resolution = shared(parts, (p) => (p.shape.type === 'stl' ? p.shape.resolution : null))
  const fileName = shared(parts, (p) =>
    p.shape.type === 'stl' ? [p.shape.fileName, p.shape.fileExtension] : null,
  )
  const flipNormals = shared(parts, (p) => p.shape.flipNormals)
  const fillings = parts.every((p) => p.component.type === 'filling')
  const height = shared(parts, (p) => (p.component.type === 'filling' ? p.component.height : null))
  const seedPoint = sharedVector(parts, (p) => p.seedPoint)
  const hasSeedPoint = parts.every((p) => p.seedPoint !== null)

  return (
    <div className="property-form">
      {single ? (
        <>
          <SetupTextField
            label="Name"
            value={single.name}
            maxLength={100}
            issues={on('part.name')}
            onCommit={(typed) => {
              const name = makeUniqueName(typed, otherNames)
              setRenamed(name !== typed.trim() ? name : null)
              edit(() => ({ name }))
            }}
          />
          {renamed && (
            <p className="field__hint property-form__note" role="status">
              That name is already used in this setup: saved as “{renamed}”.
            </p>
          )}
        </>
      ) : (
        <dl className="facts property-facts">
          <Fact term="Selected parts">{parts.map((p) => p.name).join(', ')}</Fact>
        </dl>
      )}
      <dl className="facts property-facts">
        <Fact term="Shape">
          {shapeType.value ? SHAPE_TYPE_LABELS[shapeType.value] : MIXED_PLACEHOLDER}
        </Fact>
        {shapeType.value === 'stl' && (
          <Fact term="File">{fileName.value ? fileLabel(fileName.value) : MIXED_PLACEHOLDER}</Fact>
        )}
      </dl>
      {locked && <p className="field__hint property-form__note">{POINTCLOUD_NOT_EDITABLE}</p>}
      {issuesOfField(issues, 'part.shape')
        .filter((i) => i.field === 'part.shape')
        .map((i) => (
          <p key={i.message} className={`setup-field__issue setup-field__issue--${i.level}`}>
            {i.message}
          </p>
        ))}

      {shapeType.value === 'stl' && (
        <SliderField
          label="Resolution"
          unit="%"
          min={SHAPE_BOUNDS.resolutionPercent.min}
          max={SHAPE_BOUNDS.resolutionPercent.max}
          value={resolution.value === null ? null : resolutionToPercent(resolution.value)}
          placeholder={resolution.mixed ? MIXED_PLACEHOLDER : 'Not set'}
          issues={on('part.shape.resolution')}
          onCommit={(percent) => {
            edit((p) => ({ shape: shapeUpdate(p, { resolution: percentToResolution(percent) }) }))
            trackEvent('ui_mesh-resolution-value_changed', { value: percent })
          }}
          {...lock}
        />
      )}
      {shapeType.value === 'stl_cube' && (
        <VectorField
          label="Dimensions"
          unit={m}
          {...vector('dimensions', (p) =>
            p.shape.type === 'stl_cube' ? p.shape.dimensions : null,
          )}
        />
      )}
      <VectorField
        label="Translation"
        unit={m}
        {...vector('translation', (p) => p.shape.translation)}
      />
      <VectorField
        label="Rotation"
        unit={deg}
        decimals={DISPLAY_DECIMALS.rotation}
        {...vector('rotation', (p) => p.shape.rotation)}
      />
      <VectorField label="Scale" unit="" {...vector('scale', (p) => p.shape.scale)} />
      <SwitchField
        label="Flip normals"
        checked={flipNormals.value ?? false}
        mixed={flipNormals.mixed}
        onChange={(checked) => edit((p) => ({ shape: shapeUpdate(p, { flipNormals: checked }) }))}
        {...lock}
      />
      {fillings && !locked && (
        <NumberField
          label="Fill height"
          unit={m}
          optional
          value={height.value}
          placeholder={height.mixed ? MIXED_PLACEHOLDER : 'Whole geometry'}
          hint="Empty fills the whole geometry."
          issues={on('part.component.height')}
          onCommit={(value) => edit(() => ({ component: { type: 'filling', height: value } }))}
        />
      )}
      {locked ? null : hasSeedPoint ? (
        <div className="property-form__group">
          <VectorField
            label="Seed point"
            unit={m}
            value={seedPoint.value}
            placeholder={seedPoint.mixed ? MIXED_PLACEHOLDER : undefined}
            issues={on('part.seedPoint')}
            hint="Where the discretizer starts filling; it can be moved in the view."
            onCommit={(next) =>
              edit((p) => ({ seedPoint: mergeVectorEdit(p.seedPoint, seedPoint.value, next) }))
            }
            {...lock}
          />
          <button
            type="button"
            className="link-button"
            disabled={locked || !setup.editable}
            onClick={() => edit(() => ({ seedPoint: null }))}
          >
            Remove seed point
          </button>
        </div>
      ) : (
        <div className="field setup-field">
          <span className="field__label">Seed point</span>
          <p className="field__hint">
            {seedPoint.mixed ? 'Some of the selected parts have one.' : 'None (optional).'}
          </p>
          <button
            type="button"
            className="button button--secondary button--small property-form__inline-button"
            disabled={locked || !setup.editable}
            onClick={() => edit((p) => (p.seedPoint ? null : { seedPoint: seedPointFor(p) }))}
          >
            Add seed point
          </button>
        </div>
      )}
    </div>
  )
}

/** A file's name with its extension ('tank.stl'). */
function fileLabel([name, extension]: (string | null)[]): string {
  if (!name) return 'No file'
  if (!extension || name.toLowerCase().endsWith(`.${extension.toLowerCase()}`)) return name
  return `${name}.${extension}`
}

/** A new seed point: the shape's centre when known, else its translation. */
function seedPointFor(part: Part): LooseVec3 {
  return part.shape.info ? [...part.shape.info.center] : [...part.shape.translation]
}
