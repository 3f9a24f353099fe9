import { useId, type ReactNode } from 'react'

interface TextFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  /** Shown under the field and marks it invalid. */
  error?: string | null
  hint?: ReactNode
  placeholder?: string
  /** Characters the input accepts (one more than allowed, so the limit message can show). */
  maxLength?: number
  /** Shows `length / limit`. */
  limit?: number
  multiline?: boolean
  autoFocus?: boolean
  autoComplete?: string
}

/** A labelled text input or textarea with its error and an optional character count. */
export function TextField({
  label,
  value,
  onChange,
  onBlur,
  error,
  hint,
  placeholder,
  maxLength,
  limit,
  multiline = false,
  autoFocus,
  autoComplete = 'off',
}: TextFieldProps) {
  const id = useId()
  const messageId = useId()
  const common = {
    id,
    value,
    placeholder,
    maxLength,
    autoFocus,
    autoComplete,
    className: `input${multiline ? ' input--textarea' : ''}${error ? ' input--invalid' : ''}`,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? messageId : undefined,
    onBlur,
  }
  return (
    <div className="field">
      <div className="field__top">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        {limit !== undefined && (
          <span
            className={`field__count${value.length > limit ? ' field__count--over' : ''}`}
            aria-hidden="true"
          >
            {value.length}/{limit}
          </span>
        )}
      </div>
      {multiline ? (
        <textarea {...common} rows={4} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} type="text" onChange={(event) => onChange(event.target.value)} />
      )}
      {error ? (
        <p id={messageId} className="field__error">
          {error}
        </p>
      ) : (
        hint && (
          <p id={messageId} className="field__hint">
            {hint}
          </p>
        )
      )}
    </div>
  )
}
