/** The Start/End inputs of a statistics range (outputs or times), with their errors. */

/** A number input's text → number (empty → null), so the range rules see what was typed. */
function parseNumberInput(text: string): number | null {
  if (text.trim() === '') return null
  const value = Number(text)
  return Number.isFinite(value) ? value : null
}

export function RangeInputs(props: {
  idPrefix: string
  unitLabel: string
  range: [number | null, number | null]
  step: number | 'any'
  max: number
  errors: [string | undefined, string | undefined]
  onChange: (range: [number | null, number | null]) => void
}) {
  const [start, end] = props.range
  const [startError, endError] = props.errors
  return (
    <div className="stats-panel__range">
      <div className="field">
        <label className="field__label" htmlFor={`${props.idPrefix}-start`}>
          Start {props.unitLabel}
        </label>
        <input
          id={`${props.idPrefix}-start`}
          className={`input${startError ? ' input--invalid' : ''}`}
          type="number"
          min={0}
          max={end ?? props.max}
          step={props.step}
          value={start ?? ''}
          aria-invalid={startError ? true : undefined}
          onChange={(event) => props.onChange([parseNumberInput(event.target.value), end])}
        />
        {startError && <p className="field__error">{startError}</p>}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${props.idPrefix}-end`}>
          End {props.unitLabel}
        </label>
        <input
          id={`${props.idPrefix}-end`}
          className={`input${endError ? ' input--invalid' : ''}`}
          type="number"
          min={start ?? 0}
          max={props.max}
          step={props.step}
          value={end ?? ''}
          aria-invalid={endError ? true : undefined}
          onChange={(event) => props.onChange([start, parseNumberInput(event.target.value)])}
        />
        {endError && <p className="field__error">{endError}</p>}
      </div>
    </div>
  )
}
