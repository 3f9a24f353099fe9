import { useId } from 'react'
import { NAMES_MUST_MATCH_MESSAGE } from '../../../../domain/projects.ts'

/** 'Type the name to confirm': destructive actions need the exact name typed. */
export function ConfirmNameField({
  expectedName,
  value,
  onChange,
}: {
  expectedName: string
  value: string
  onChange: (value: string) => void
}) {
  const id = useId()
  const errorId = useId()
  const mismatch = value !== '' && value !== expectedName
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        Type the name to confirm
      </label>
      <input
        id={id}
        className={`input${mismatch ? ' input--invalid' : ''}`}
        value={value}
        placeholder="Enter the name to confirm"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={mismatch || undefined}
        aria-describedby={mismatch ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {mismatch && (
        <p id={errorId} className="field__error">
          {NAMES_MUST_MATCH_MESSAGE}
        </p>
      )}
    </div>
  )
}
