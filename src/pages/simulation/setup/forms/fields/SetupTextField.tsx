import { useState } from 'react'
import type { Issue } from '../../../../../../domain/validation.ts'
import { TextField } from '../../../../../components/Field.tsx'
import { useSetupEditable } from './editable.ts'

/**
 * A text of the setup (a name): typed freely, committed on blur or Enter when changed. Shows the
 * first error of its issues under it.
 */
export function SetupTextField({
  label,
  value,
  onCommit,
  issues = [],
  maxLength,
  limit,
}: {
  label: string
  value: string
  onCommit: (value: string) => void
  issues?: readonly Issue[]
  maxLength?: number
  limit?: number
}) {
  const setup = useSetupEditable()
  const [draft, setDraft] = useState<string | null>(null)
  const commit = () => {
    if (draft === null) return
    setDraft(null)
    if (draft.trim() !== value) onCommit(draft.trim())
  }
  const local = draft !== null && draft.trim() === '' ? `${label} is required` : null
  return (
    <div
      className="setup-field"
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit()
      }}
    >
      {setup.editable ? (
        <TextField
          label={label}
          value={draft ?? value}
          onChange={setDraft}
          onBlur={commit}
          error={local ?? issues[0]?.message ?? null}
          maxLength={maxLength}
          limit={limit}
        />
      ) : (
        <div className="field">
          <span className="field__label">{label}</span>
          <p className="setup-field__readonly">{value}</p>
        </div>
      )}
    </div>
  )
}
