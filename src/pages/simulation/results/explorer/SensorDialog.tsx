import { useState } from 'react'
import { Dialog, DialogForm } from '../../../../components/Dialog.tsx'
import { TextField } from '../../../../components/Field.tsx'
import { EditDialogFooter } from './EditDialogFooter.tsx'
import {
  NAME_MAX_LENGTH,
  SURFACE_SENSOR_MESH_KINDS,
  checkSensorDraft,
  fieldMessage,
  type SensorDraft,
} from './explorerModel.ts'
import { MeshFields, VectorInput } from './MeshFields.tsx'
import { SAMPLING_CHOICES, SAMPLING_LABELS } from './sensorDraft.ts'

/**
 * Add or edit a sensor: a name, a point position in m or a surface mesh (kind and size), and how
 * often the running solver samples it (from outputs only, every step, or a fixed rate: the
 * samples show a short impact between outputs). A sensor's kind is chosen when adding it.
 * Messages show from the first Save on.
 */
export function SensorDialog({
  mode,
  initial,
  takenNames,
  saving,
  onSave,
  onClose,
}: {
  mode: 'add' | 'edit'
  initial: SensorDraft
  /** Names of the other sensors, volume clips and parts. */
  takenNames: readonly string[]
  saving: boolean
  onSave: (draft: SensorDraft) => void
  onClose: () => void
}) {
  const [draft, setDraft] = useState(initial)
  const [submitted, setSubmitted] = useState(false)
  const issues = checkSensorDraft(draft, takenNames)
  const shown = submitted ? issues : []
  const set = <K extends keyof SensorDraft>(key: K, value: SensorDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }))

  return (
    <Dialog title={mode === 'add' ? 'Add sensor' : 'Edit sensor'} onClose={onClose} size="small">
      <DialogForm
        onSubmit={() => {
          setSubmitted(true)
          if (issues.length === 0) onSave(draft)
        }}
        footer={
          <EditDialogFooter
            mode={mode}
            saving={saving}
            invalid={submitted && issues.length > 0}
            onCancel={onClose}
          />
        }
      >
        <TextField
          label="Name"
          value={draft.name}
          onChange={(value) => set('name', value)}
          maxLength={NAME_MAX_LENGTH + 1}
          error={fieldMessage(shown, 'name')}
        />
        <fieldset className="explorer-form__kind" disabled={mode === 'edit'}>
          <legend className="field__label">Sensor type</legend>
          <label className="check">
            <input
              type="radio"
              name="sensor-kind"
              checked={draft.kind === 'point'}
              onChange={() => set('kind', 'point')}
            />
            Point
          </label>
          <label className="check">
            <input
              type="radio"
              name="sensor-kind"
              checked={draft.kind === 'surface'}
              onChange={() => set('kind', 'surface')}
            />
            Surface
          </label>
        </fieldset>
        {draft.kind === 'point' ? (
          <VectorInput
            label="Position"
            unit="m"
            value={draft.position}
            onChange={(value) => set('position', value)}
            error={fieldMessage(shown, 'position')}
          />
        ) : (
          <MeshFields
            kinds={SURFACE_SENSOR_MESH_KINDS}
            kindLabel="Mesh kind"
            draft={draft.mesh}
            onChange={(mesh) => set('mesh', mesh)}
            issues={shown}
            kindLocked={mode === 'edit'}
          />
        )}
        <fieldset className="explorer-form__kind explorer-form__kind--stacked">
          <legend className="field__label">Sampling</legend>
          {SAMPLING_CHOICES.map((choice) => (
            <label key={choice} className="check">
              <input
                type="radio"
                name="sensor-sampling"
                checked={draft.sampling === choice}
                onChange={() => set('sampling', choice)}
              />
              {SAMPLING_LABELS[choice]}
            </label>
          ))}
        </fieldset>
        {draft.sampling === 'rate' && (
          <TextField
            label="Samples per second (1/s)"
            value={draft.sampleRate}
            onChange={(value) => set('sampleRate', value)}
            hint="Of simulated time; at most one sample per solver step."
            error={fieldMessage(shown, 'sampleRate')}
          />
        )}
      </DialogForm>
    </Dialog>
  )
}
