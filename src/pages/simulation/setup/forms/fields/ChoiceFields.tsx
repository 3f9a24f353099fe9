import './fields.css'
import { useId, type ReactNode } from 'react'
import type { Issue } from '../../../../../../domain/validation.ts'
import { Tooltip } from '../../../../../components/Tooltip.tsx'
import { useSetupEditable } from './editable.ts'
import { FieldIssues, fieldLevel } from './FieldIssues.tsx'

interface ChoiceCommon {
  label: string
  issues?: readonly Issue[]
  disabled?: boolean
  /** Why it is disabled (tooltip); defaults to the setup's own reason. */
  disabledReason?: string | null
  hint?: ReactNode
}

function useDisabled(props: ChoiceCommon): { disabled: boolean; reason: string | null } {
  const setup = useSetupEditable()
  const disabled = props.disabled === true || !setup.editable
  const reason = props.disabledReason ?? (setup.editable ? null : setup.reason)
  return { disabled, reason }
}

function withReason(control: ReactNode, disabled: boolean, reason: string | null) {
  return disabled && reason ? <Tooltip content={reason}>{control}</Tooltip> : control
}

/** One option of a select: a value, its label, and whether (and why) it cannot be chosen. */
export interface ChoiceOption<T extends string> {
  value: T
  label: string
  disabled?: boolean
}

/** A labelled select of the setup; `onChange` fires on every pick. */
export function SelectField<T extends string>(
  props: ChoiceCommon & {
    value: T | null
    options: readonly ChoiceOption<T>[]
    onChange: (value: T) => void
    /** Shown (and not choosable) while the value is null. */
    placeholder?: string
  },
) {
  const { label, value, options, onChange, issues = [], hint, placeholder } = props
  const { disabled, reason } = useDisabled(props)
  const id = useId()
  const messageId = useId()
  const level = fieldLevel(issues)
  const select = (
    <select
      id={id}
      className={`input input--small setup-field__input${level ? ` setup-field__input--${level}` : ''}`}
      value={value ?? ''}
      disabled={disabled}
      aria-invalid={level === 'error' ? true : undefined}
      aria-describedby={issues.length > 0 ? messageId : undefined}
      onChange={(event) => onChange(event.target.value as T)}
    >
      {value === null && (
        <option value="" disabled>
          {placeholder ?? 'Select…'}
        </option>
      )}
      {options.map((option) => (
        <option key={option.value} value={option.value} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </select>
  )
  return (
    <div className="field setup-field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="setup-field__row">{withReason(select, disabled, reason)}</div>
      {hint && issues.length === 0 && <p className="field__hint">{hint}</p>}
      <FieldIssues id={messageId} issues={issues} />
    </div>
  )
}

/** Shown under a switch whose selected objects differ. */
export const MIXED_SWITCH_HINT = 'Mixed: the selected objects differ.'

/** An on/off setting as a switch (a checkbox with the switch role). */
export function SwitchField(
  props: ChoiceCommon & {
    checked: boolean
    onChange: (checked: boolean) => void
    /** The selected objects differ (shown off, with a note). */
    mixed?: boolean
  },
) {
  const { label, checked, onChange, issues = [] } = props
  const hint = props.mixed ? MIXED_SWITCH_HINT : props.hint
  const { disabled, reason } = useDisabled(props)
  const id = useId()
  const messageId = useId()
  const control = (
    <input
      id={id}
      type="checkbox"
      role="switch"
      className="setup-switch"
      checked={checked}
      disabled={disabled}
      aria-checked={checked}
      aria-describedby={issues.length > 0 ? messageId : undefined}
      onChange={(event) => onChange(event.target.checked)}
    />
  )
  return (
    <div className="field setup-field setup-field--switch">
      <div className="setup-field__row">
        {withReason(control, disabled, reason)}
        <label htmlFor={id} className="field__label">
          {label}
        </label>
      </div>
      {hint && issues.length === 0 && <p className="field__hint">{hint}</p>}
      <FieldIssues id={messageId} issues={issues} />
    </div>
  )
}

/**
 * One of a few options as a group of radio buttons (display modes, profile kinds): arrow keys move
 * between them, each pick fires `onChange`.
 */
export function RadioGroupField<T extends string>(
  props: ChoiceCommon & {
    value: T | null
    options: readonly ChoiceOption<T>[]
    onChange: (value: T) => void
  },
) {
  const { label, value, options, onChange, issues = [], hint } = props
  const { disabled, reason } = useDisabled(props)
  const name = useId()
  const messageId = useId()
  const group = (
    <div className="setup-radio-group">
      {options.map((option) => (
        <label
          key={option.value}
          className={`setup-radio${value === option.value ? ' setup-radio--checked' : ''}`}
        >
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            disabled={disabled || option.disabled === true}
            onChange={() => onChange(option.value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  )
  return (
    <fieldset
      className="field setup-field"
      aria-describedby={issues.length > 0 ? messageId : undefined}
    >
      <legend className="field__label">{label}</legend>
      {withReason(group, disabled, reason)}
      {hint && issues.length === 0 && <p className="field__hint">{hint}</p>}
      <FieldIssues id={messageId} issues={issues} />
    </fieldset>
  )
}
