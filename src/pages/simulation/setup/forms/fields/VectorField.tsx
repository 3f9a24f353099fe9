import { useId, useState, type ReactNode } from 'react'
import type { LooseVec3 } from '../../../../../../domain/vector.ts'
import { issue, type Issue } from '../../../../../../domain/validation.ts'
import { Tooltip } from '../../../../../components/Tooltip.tsx'
import { useSetupEditable } from './editable.ts'
import { FieldIssues, fieldLevel } from './FieldIssues.tsx'
import { formatStored, parseTyped, type NumberDisplay } from './NumberField.tsx'

const AXES = ['x', 'y', 'z'] as const

export interface VectorFieldProps extends NumberDisplay {
  label: string
  unit: string
  value: LooseVec3 | null
  /** Called on blur or Enter of a component with the whole vector, when it changed. */
  onCommit: (value: LooseVec3) => void
  issues?: readonly Issue[]
  disabled?: boolean
  disabledReason?: string | null
  /** Shown in empty components ('Mixed' where the selected objects differ). */
  placeholder?: string
  hint?: ReactNode
}

/**
 * A 3-vector of the setup (x, y, z beside one label and unit). A component that is not a number
 * shows 'This field requires a valid number.' (spec/setup.md §5) and is not committed.
 */
export function VectorField(props: VectorFieldProps) {
  const { label, unit, value, onCommit, issues = [] } = props
  const display: NumberDisplay = { scale: props.scale, decimals: props.decimals }
  const setup = useSetupEditable()
  const disabled = props.disabled === true || !setup.editable
  const reason = props.disabledReason ?? (setup.editable ? null : setup.reason)
  const groupId = useId()
  const messageId = useId()
  const [drafts, setDrafts] = useState<(string | null)[]>([null, null, null])
  const current: LooseVec3 = value ?? [null, null, null]
  const parsed = drafts.map((draft) =>
    draft === null ? null : parseTyped(draft, label, display, false),
  )
  const invalid = parsed.some((p) => p?.issue)
  const allIssues = invalid
    ? [issue('info', '', 'This field requires a valid number.'), ...issues]
    : issues
  const level = fieldLevel(allIssues)

  const commit = (index: number) => {
    const typed = parsed[index]
    if (typed === null || typed === undefined || typed.issue) return
    const next = [...current] as LooseVec3
    next[index] = typed.value
    setDrafts((old) => old.map((d, i) => (i === index ? null : d)))
    if (next[index] !== current[index]) onCommit(next)
  }

  return (
    <fieldset
      className="field setup-field setup-field--vector"
      aria-describedby={allIssues.length > 0 ? messageId : undefined}
    >
      <legend className="field__label" id={groupId}>
        {label}
      </legend>
      <div className="setup-field__row">
        {AXES.map((axis, index) => {
          const input = (
            <input
              key={axis}
              className={`input input--small setup-field__input${level ? ` setup-field__input--${level}` : ''}`}
              inputMode="decimal"
              aria-label={`${label} ${axis}${unit ? ` (${unit})` : ''}`}
              value={drafts[index] ?? formatStored(current[index] ?? null, display)}
              placeholder={props.placeholder}
              disabled={disabled}
              aria-invalid={level === 'error' ? true : undefined}
              onChange={(event) => {
                const text = event.target.value
                setDrafts((old) => old.map((d, i) => (i === index ? text : d)))
              }}
              onBlur={() => commit(index)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') commit(index)
                if (event.key === 'Escape')
                  setDrafts((old) => old.map((d, i) => (i === index ? null : d)))
              }}
            />
          )
          return disabled && reason ? (
            <Tooltip key={axis} content={reason}>
              {input}
            </Tooltip>
          ) : (
            input
          )
        })}
        {unit && <span className="setup-field__unit">{unit}</span>}
      </div>
      {props.hint && allIssues.length === 0 && <p className="field__hint">{props.hint}</p>}
      <FieldIssues id={messageId} issues={allIssues} />
    </fieldset>
  )
}
