import './fields.css'
import { useId, useState, type ReactNode } from 'react'
import type { Issue } from '../../../../../../domain/validation.ts'
import { Tooltip } from '../../../../../components/Tooltip.tsx'
import { useSetupEditable } from './editable.ts'
import { FieldIssues, fieldLevel } from './FieldIssues.tsx'

/**
 * A whole number on a slider (the STL resolution, 1 … 100 %), its value and unit beside it. It
 * moves freely while dragged or stepped with the arrow keys and commits once: on release, on
 * key up and on blur.
 */
export function SliderField(props: {
  label: string
  unit: string
  min: number
  max: number
  step?: number
  /** The shown value (null: unset or mixed). */
  value: number | null
  onCommit: (value: number) => void
  issues?: readonly Issue[]
  disabled?: boolean
  disabledReason?: string | null
  hint?: ReactNode
  /** Beside the slider while the value is null ('Mixed'). */
  placeholder?: string
}) {
  const { label, unit, min, max, step = 1, value, onCommit, issues = [], hint } = props
  const setup = useSetupEditable()
  const disabled = props.disabled === true || !setup.editable
  const reason = props.disabledReason ?? (setup.editable ? null : setup.reason)
  const id = useId()
  const messageId = useId()
  const [draft, setDraft] = useState<number | null>(null)
  const shown = draft ?? value
  const commit = () => {
    if (draft === null) return
    setDraft(null)
    if (draft !== value) onCommit(draft)
  }
  const level = fieldLevel(issues)
  const slider = (
    <input
      id={id}
      type="range"
      className="setup-slider"
      min={min}
      max={max}
      step={step}
      value={shown ?? min}
      disabled={disabled}
      aria-valuetext={shown === null ? props.placeholder : `${shown} ${unit}`}
      aria-invalid={level === 'error' ? true : undefined}
      aria-describedby={issues.length > 0 ? messageId : undefined}
      onChange={(event) => setDraft(Number(event.target.value))}
      onPointerUp={commit}
      onKeyUp={commit}
      onBlur={commit}
    />
  )
  return (
    <div className="field setup-field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="setup-field__row">
        {disabled && reason ? <Tooltip content={reason}>{slider}</Tooltip> : slider}
        <output htmlFor={id} className="setup-slider__value">
          {shown === null ? (props.placeholder ?? '') : `${shown} ${unit}`}
        </output>
      </div>
      {hint && issues.length === 0 && <p className="field__hint">{hint}</p>}
      <FieldIssues id={messageId} issues={issues} />
    </div>
  )
}
