import { useId, useState } from 'react'
import { LINE_STYLES, MARKER_STYLES, type DatasetLayout } from '../../../../../domain/results.ts'
import { Dialog, DialogForm } from '../../../../components/Dialog.tsx'
import { TextField } from '../../../../components/Field.tsx'

const LINE_STYLE_LABELS: Record<DatasetLayout['lineStyle'], string> = {
  solid: 'Solid',
  dashed: 'Dashed',
  none: 'None',
}
const MARKER_STYLE_LABELS: Record<DatasetLayout['markerStyle'], string> = {
  dot: 'Dot',
  triangle: 'Triangle',
  square: 'Square',
  cross: 'Cross',
  none: 'None',
}

/** Edits how one chart dataset is drawn: name, line style, marker style and colour. */
export function DatasetEditDialog({
  layout,
  onSave,
  onClose,
}: {
  layout: DatasetLayout
  onSave: (layout: DatasetLayout) => void
  onClose: () => void
}) {
  const [draft, setDraft] = useState<DatasetLayout>(layout)
  const lineId = useId()
  const markerId = useId()
  const colourId = useId()
  const nameError = draft.name.trim() === '' ? 'Enter a name.' : null
  return (
    <Dialog title="Edit dataset" onClose={onClose} size="small">
      <DialogForm
        onSubmit={() => {
          if (nameError) return
          onSave({ ...draft, name: draft.name.trim() })
          onClose()
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={nameError !== null}>
              Save
            </button>
          </>
        }
      >
        <TextField
          label="Name"
          value={draft.name}
          error={nameError}
          onChange={(name) => setDraft({ ...draft, name })}
        />
        <div className="field">
          <label className="field__label" htmlFor={lineId}>
            Line style
          </label>
          <select
            id={lineId}
            className="select"
            value={draft.lineStyle}
            onChange={(event) =>
              setDraft({ ...draft, lineStyle: event.target.value as DatasetLayout['lineStyle'] })
            }
          >
            {LINE_STYLES.map((style) => (
              <option key={style} value={style}>
                {LINE_STYLE_LABELS[style]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={markerId}>
            Marker style
          </label>
          <select
            id={markerId}
            className="select"
            value={draft.markerStyle}
            onChange={(event) =>
              setDraft({
                ...draft,
                markerStyle: event.target.value as DatasetLayout['markerStyle'],
              })
            }
          >
            {MARKER_STYLES.map((style) => (
              <option key={style} value={style}>
                {MARKER_STYLE_LABELS[style]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={colourId}>
            Colour
          </label>
          <input
            id={colourId}
            type="color"
            className="chart-colour-input"
            value={draft.color.toLowerCase()}
            onChange={(event) => setDraft({ ...draft, color: event.target.value.toUpperCase() })}
          />
        </div>
      </DialogForm>
    </Dialog>
  )
}
