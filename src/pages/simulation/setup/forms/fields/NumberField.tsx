import { useId, useState, type ReactNode } from 'react'
import { formatDecimals, formatNumber } from '../../../../../../domain/units.ts'
import { issue, type Issue } from '../../../../../../domain/validation.ts'
import { Tooltip } from '../../../../../components/Tooltip.tsx'
import { useSetupEditable } from './editable.ts'
import { FieldIssues, fieldLevel } from './FieldIssues.tsx'

/** How a stored number is shown: 12 significant digits, or fixed decimals (rotations, intervals). */
export interface NumberDisplay {
  /** Shown value = stored value × scale (a fraction shown as percent: 100). */
  scale?: number
  /** Fixed decimals instead of significant digits (rotation 9, output interval 8). */
  decimals?: number
}

/** The text a stored number shows as ('' for unset). */
export function formatStored(value: number | null, display: NumberDisplay = {}): string {
  if (value === null || Number.isNaN(value)) return ''
  // Scaling can bring float noise back (0.3 × 100 = 30.000000000000004): format after scaling.
  const shown = value * (display.scale ?? 1)
  return display.decimals === undefined
    ? formatNumber(shown)
    : formatDecimals(shown, display.decimals)
}

/**
 * What a typed text means: a number (scaled back to the stored unit), null for empty, or the
 * preliminary info message of spec/setup.md §5 for anything else.
 */
export function parseTyped(
  text: string,
  label: string,
  display: NumberDisplay = {},
  optional = false,
): { value: number | null; issue: Issue | null } {
  const trimmed = text.trim()
  if (trimmed === '')
    return { value: null, issue: optional ? null : issue('info', '', `${label} is required`) }
  const value = Number(trimmed.replace(',', '.'))
  if (!Number.isFinite(value))
    return { value: null, issue: issue('info', '', `${label} must be a valid number.`) }
  const scale = display.scale ?? 1
  // Undo the scale without adding float noise (12.5 % → 0.125, not 0.12500000000000003).
  return { value: scale === 1 ? value : Number((value / scale).toPrecision(15)), issue: null }
}

export interface NumberFieldProps extends NumberDisplay {
  label: string
  /** Unit shown beside the input ('m', 'kg/m³'); empty for dimensionless values. */
  unit: string
  value: number | null
  /** Called on blur or Enter with a changed, valid (or empty: null) value. */
  onCommit: (value: number | null) => void
  /** Issues of this field (server or domain rules), shown under it. */
  issues?: readonly Issue[]
  disabled?: boolean
  /** Why it is disabled (tooltip); defaults to the setup's own reason. */
  disabledReason?: string | null
  hint?: ReactNode
  /** Accessible name when the visible label is shared (a vector component). */
  ariaLabel?: string
  /** Hide the visible label (components of a vector). */
  hideLabel?: boolean
  /** Empty is a valid value (null), not a missing one. */
  optional?: boolean
  /** Shown while the value is empty ('Mixed' when the selected objects differ). */
  placeholder?: string
}

/**
 * A number of the setup: typed as text so an empty or half-typed value can be flagged (as info,
 * spec/setup.md §5), shown as people write it, with its unit beside it, committed on blur or Enter.
 */
export function NumberField(props: NumberFieldProps) {
  const { label, unit, value, onCommit, issues = [], hint, hideLabel } = props
  const display: NumberDisplay = { scale: props.scale, decimals: props.decimals }
  const setup = useSetupEditable()
  const disabled = props.disabled === true || !setup.editable
  const reason = props.disabledReason ?? (setup.editable ? null : setup.reason)
  const id = useId()
  const messageId = useId()
  const unitId = useId()
  const [draft, setDraft] = useState<string | null>(null)
  const typed = draft === null ? null : parseTyped(draft, label, display, props.optional)
  const shown = draft ?? formatStored(value, display)
  const allIssues = typed?.issue ? [typed.issue, ...issues] : issues
  const level = fieldLevel(allIssues)

  const commit = () => {
    if (draft === null || typed === null) return
    if (typed.issue && typed.value === null && draft.trim() !== '') return // keep the message
    setDraft(null)
    if (typed.value !== value) onCommit(typed.value)
  }

  const input = (
    <input
      id={id}
      className={`input input--small setup-field__input${level ? ` setup-field__input--${level}` : ''}`}
      inputMode="decimal"
      value={shown}
      placeholder={props.placeholder}
      disabled={disabled}
      aria-label={props.ariaLabel}
      aria-invalid={level === 'error' ? true : undefined}
      aria-describedby={[unit ? unitId : null, allIssues.length > 0 ? messageId : null]
        .filter(Boolean)
        .join(' ')}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit()
        if (event.key === 'Escape') setDraft(null)
      }}
    />
  )
  return (
    <div className="field setup-field">
      {!hideLabel && (
        <label htmlFor={id} className="field__label">
          {label}
        </label>
      )}
      <div className="setup-field__row">
        {disabled && reason ? <Tooltip content={reason}>{input}</Tooltip> : input}
        {unit && (
          <span id={unitId} className="setup-field__unit">
            {unit}
          </span>
        )}
      </div>
      {hint && allIssues.length === 0 && <p className="field__hint">{hint}</p>}
      <FieldIssues id={messageId} issues={allIssues} />
    </div>
  )
}
