import { useId, useState } from 'react'
import { Dialog, DialogForm } from '../../../../components/Dialog.tsx'
import { TextField } from '../../../../components/Field.tsx'
import { EditDialogFooter } from './EditDialogFooter.tsx'
import {
  NAME_MAX_LENGTH,
  VOLUME_CLIP_MESH_KINDS,
  checkVolumeClipDraft,
  fieldMessage,
  type ExplorerObject,
  type VolumeClipDraft,
} from './explorerModel.ts'
import { MeshFields } from './MeshFields.tsx'

/** The material select's value for "every material". */
const ALL_MATERIALS = 'all'

/**
 * Add or edit a volume clip: name, mesh (cube, cylinder, sphere or plane with size and centre),
 * the clipped material or all, and whether the clip is inverted.
 */
export function VolumeClipDialog({
  mode,
  initial,
  takenNames,
  fluids,
  saving,
  onSave,
  onClose,
}: {
  mode: 'add' | 'edit'
  initial: VolumeClipDraft
  takenNames: readonly string[]
  /** The fluids of the output: material ids and names. */
  fluids: readonly ExplorerObject[]
  saving: boolean
  onSave: (draft: VolumeClipDraft) => void
  onClose: () => void
}) {
  const [draft, setDraft] = useState(initial)
  const [submitted, setSubmitted] = useState(false)
  const materialId = useId()
  const issues = checkVolumeClipDraft(draft, takenNames)
  const shown = submitted ? issues : []

  return (
    <Dialog
      title={mode === 'add' ? 'Add volume clip' : 'Edit volume clip'}
      onClose={onClose}
      size="small"
    >
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
          onChange={(name) => setDraft((current) => ({ ...current, name }))}
          maxLength={NAME_MAX_LENGTH + 1}
          error={fieldMessage(shown, 'name')}
        />
        <MeshFields
          kinds={VOLUME_CLIP_MESH_KINDS}
          draft={draft.mesh}
          onChange={(mesh) => setDraft((current) => ({ ...current, mesh }))}
          issues={shown}
        />
        <div className="field">
          <label htmlFor={materialId} className="field__label">
            Material
          </label>
          <select
            id={materialId}
            className="select"
            value={draft.materialId === null ? ALL_MATERIALS : String(draft.materialId)}
            onChange={(event) => {
              const value = event.target.value
              setDraft((current) => ({
                ...current,
                materialId: value === ALL_MATERIALS ? null : Number(value),
              }))
            }}
          >
            <option value={ALL_MATERIALS}>All materials</option>
            {fluids.map((fluid) => (
              <option key={fluid.objectId} value={String(fluid.sourceId)}>
                {fluid.name}
              </option>
            ))}
          </select>
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.inverted}
            onChange={(event) =>
              setDraft((current) => ({ ...current, inverted: event.target.checked }))
            }
          />
          Inverted
        </label>
      </DialogForm>
    </Dialog>
  )
}
