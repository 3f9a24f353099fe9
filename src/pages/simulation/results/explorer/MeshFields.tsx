import { useId } from 'react'
import type { Issue } from '../../../../../domain/validation.ts'
import {
  MESH_KIND_LABELS,
  MESH_SIZE_FIELDS,
  defaultMeshDraft,
  fieldMessage,
  type FormMeshKind,
  type MeshDraft,
  type VectorDraft,
} from './explorerModel.ts'

const AXES = ['x', 'y', 'z'] as const
/** Size fields typed as one number each (shown in one row). */
const SCALAR_FIELDS: readonly string[] = ['radius', 'width', 'length', 'height']

/** A labelled number typed as text (so an empty or half-typed value can be flagged). */
export function NumberInput({
  label,
  value,
  onChange,
  error,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  error: string | null
}) {
  const id = useId()
  const messageId = useId()
  return (
    <div className="field explorer-form__number">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className={`input input--small${error ? ' input--invalid' : ''}`}
        inputMode="decimal"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={messageId} className="field__error">
          {error}
        </p>
      )}
    </div>
  )
}

/** Three labelled components ('Position x (m)' …) with one message for the vector. */
export function VectorInput({
  label,
  unit,
  value,
  onChange,
  error,
}: {
  label: string
  unit: string
  value: VectorDraft
  onChange: (value: VectorDraft) => void
  error: string | null
}) {
  const messageId = useId()
  return (
    <fieldset className="explorer-form__vector">
      <legend className="field__label">
        {label}
        {unit ? ` (${unit})` : ''}
      </legend>
      <div className="explorer-form__components">
        {AXES.map((axis, index) => (
          <input
            key={axis}
            className={`input input--small${error ? ' input--invalid' : ''}`}
            inputMode="decimal"
            aria-label={`${label} ${axis}${unit ? ` (${unit})` : ''}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? messageId : undefined}
            value={value[index]}
            onChange={(event) => {
              const next = [...value] as VectorDraft
              next[index] = event.target.value
              onChange(next)
            }}
          />
        ))}
      </div>
      {error && (
        <p id={messageId} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  )
}

/** The mesh part of the sensor and volume clip forms: kind, centre and the kind's sizes. */
export function MeshFields({
  kinds,
  draft,
  onChange,
  issues,
  kindLabel = 'Shape',
  kindLocked = false,
}: {
  kinds: readonly FormMeshKind[]
  draft: MeshDraft
  onChange: (draft: MeshDraft) => void
  /** Issues to show (empty until the first submit). */
  issues: readonly Issue[]
  kindLabel?: string
  kindLocked?: boolean
}) {
  const kindId = useId()
  const set = <K extends keyof MeshDraft>(key: K, value: MeshDraft[K]) =>
    onChange({ ...draft, [key]: value })
  const fields = MESH_SIZE_FIELDS[draft.kind]
  const message = (field: string) => fieldMessage(issues, `mesh.${field}`)
  return (
    <>
      <div className="field">
        <label htmlFor={kindId} className="field__label">
          {kindLabel}
        </label>
        <select
          id={kindId}
          className="select"
          value={draft.kind}
          disabled={kindLocked}
          onChange={(event) => {
            const kind = event.target.value as FormMeshKind
            // Keep the centre; sizes start over at the new kind's defaults.
            onChange({ ...defaultMeshDraft(kind), center: draft.center })
          }}
        >
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {MESH_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </div>
      <VectorInput
        label="Center"
        unit="m"
        value={draft.center}
        onChange={(value) => set('center', value)}
        error={message('center')}
      />
      {fields.includes('dimensions') && (
        <VectorInput
          label="Dimensions"
          unit="m"
          value={draft.dimensions}
          onChange={(value) => set('dimensions', value)}
          error={message('dimensions')}
        />
      )}
      {fields.some((field) => SCALAR_FIELDS.includes(field)) && (
        <div className="explorer-form__row">
          {fields.includes('radius') && (
            <NumberInput
              label="Radius (m)"
              value={draft.radius}
              onChange={(value) => set('radius', value)}
              error={message('radius')}
            />
          )}
          {fields.includes('width') && (
            <NumberInput
              label="Width (m)"
              value={draft.width}
              onChange={(value) => set('width', value)}
              error={message('width')}
            />
          )}
          {fields.includes('length') && (
            <NumberInput
              label="Length (m)"
              value={draft.length}
              onChange={(value) => set('length', value)}
              error={message('length')}
            />
          )}
          {fields.includes('height') && (
            <NumberInput
              label={draft.kind === 'plane' ? 'Offset (m)' : 'Height (m)'}
              value={draft.height}
              onChange={(value) => set('height', value)}
              error={message('height')}
            />
          )}
        </div>
      )}
      {fields.includes('normal') && (
        <VectorInput
          label="Normal"
          unit=""
          value={draft.normal}
          onChange={(value) => set('normal', value)}
          error={message('normal')}
        />
      )}
      {fields.includes('axis') && (
        <VectorInput
          label="Axis"
          unit=""
          value={draft.axis}
          onChange={(value) => set('axis', value)}
          error={message('axis')}
        />
      )}
    </>
  )
}
