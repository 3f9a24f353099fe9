import './fields.css'
import { useId, useState } from 'react'
import { checkAppearance } from '../../../../../../domain/appearance.ts'
import type { Issue } from '../../../../../../domain/validation.ts'
import { Tooltip } from '../../../../../components/Tooltip.tsx'
import { useSetupEditable } from './editable.ts'
import { FieldIssues, fieldLevel } from './FieldIssues.tsx'

/** The colour rule's message for a typed text, if it breaks it (spec/setup.md §5: '#rrggbb'). */
function typedColourIssue(text: string): Issue | null {
  return (
    checkAppearance({ color: text.trim(), opacity: 1 }, 'typed').find(
      (i) => i.field === 'typed.color',
    ) ?? null
  )
}

/**
 * A colour of the setup: the browser's picker beside a '#rrggbb' text field (spec/setup.md §5: the
 * picker accepts 7-character hex strings). The picker commits on each pick, the text on blur or
 * Enter when it is a valid colour.
 */
export function ColorField(props: {
  label: string
  /** '#rrggbb', or null when the selected objects differ. */
  value: string | null
  onCommit: (value: string) => void
  issues?: readonly Issue[]
  disabled?: boolean
  disabledReason?: string | null
  placeholder?: string
}) {
  const { label, value, onCommit, issues = [] } = props
  const setup = useSetupEditable()
  const disabled = props.disabled === true || !setup.editable
  const reason = props.disabledReason ?? (setup.editable ? null : setup.reason)
  const id = useId()
  const messageId = useId()
  const [draft, setDraft] = useState<string | null>(null)
  const typedIssue = draft === null ? null : typedColourIssue(draft)
  const allIssues = typedIssue ? [typedIssue, ...issues] : issues
  const level = fieldLevel(allIssues)
  const commitText = () => {
    if (draft === null || typedIssue) return
    setDraft(null)
    const next = draft.trim().toUpperCase()
    if (next !== value?.toUpperCase()) onCommit(next)
  }
  const controls = (
    <span className="setup-colour">
      <input
        type="color"
        className="setup-colour__swatch"
        aria-label={`${label} picker`}
        value={value ?? '#000000'}
        disabled={disabled}
        onChange={(event) => {
          setDraft(null)
          onCommit(event.target.value.toUpperCase())
        }}
      />
      <input
        id={id}
        className={`input input--small setup-field__input${level ? ` setup-field__input--${level}` : ''}`}
        value={draft ?? value ?? ''}
        placeholder={props.placeholder}
        maxLength={7}
        spellCheck={false}
        disabled={disabled}
        aria-invalid={level === 'error' ? true : undefined}
        aria-describedby={allIssues.length > 0 ? messageId : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commitText}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commitText()
          if (event.key === 'Escape') setDraft(null)
        }}
      />
    </span>
  )
  return (
    <div className="field setup-field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="setup-field__row">
        {disabled && reason ? <Tooltip content={reason}>{controls}</Tooltip> : controls}
      </div>
      <FieldIssues id={messageId} issues={allIssues} />
    </div>
  )
}
