import { useAtom, useAtomValue } from 'jotai'
import { useId, useState } from 'react'
import { COLOUR_SCHEMES, type ColourScheme } from '../../../../domain/constants.ts'
import {
  VECTOR_SUB_OPTIONS,
  applyColourRange,
  checkColourRange,
  type VectorSubOption,
} from '../../../../domain/results.ts'
import { sampleScheme } from '../../../../domain/colourSchemes.ts'
import { colourMapChoiceAtom, viewportStateAtom } from '../../../state/viewportAtoms.ts'
import { formatTimelineNumber, type AttributeOption } from './resultsModel.ts'

const SUB_OPTION_LABELS: Record<VectorSubOption, string> = {
  x: 'X',
  y: 'Y',
  z: 'Z',
  magnitude: 'Magnitude',
}

/** 'blueGreenYellow' → 'Blue green yellow'. */
export function schemeLabel(scheme: ColourScheme): string {
  const words = scheme.replace(/([A-Z])/g, ' $1').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A CSS gradient of a scheme, sampled from the same stops as the GPU lookup texture. */
export function schemeGradient(scheme: ColourScheme): string {
  const stops = Array.from({ length: 11 }, (_, index) => {
    const [r, g, b] = sampleScheme(scheme, index / 10)
    return `rgb(${r}, ${g}, ${b}) ${index * 10}%`
  })
  return `linear-gradient(90deg, ${stops.join(', ')})`
}

function parseNumber(text: string): number | string {
  const trimmed = text.trim()
  if (trimmed === '') return ''
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : trimmed
}

/** Colour map: attribute (and vector component), scheme, editable min and max, rescale. */
export function ColourControls({ options }: { options: readonly AttributeOption[] }) {
  const [choice, setChoice] = useAtom(colourMapChoiceAtom)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const inUse = snapshot?.colourRange ?? null
  const [minText, setMinText] = useState('')
  const [maxText, setMaxText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const ids = { attribute: useId(), sub: useId(), scheme: useId(), min: useId(), max: useId() }
  const option = options.find((candidate) => candidate.attribute === choice.attribute)

  const [shownRange, setShownRange] = useState<{ min: number; max: number } | null>(null)

  // The fields show the range in use whenever it changes (a new output, attribute or rescale).
  if (inUse && (inUse.min !== shownRange?.min || inUse.max !== shownRange.max)) {
    setShownRange({ min: inUse.min, max: inUse.max })
    setMinText(formatTimelineNumber(inUse.min))
    setMaxText(formatTimelineNumber(inUse.max))
  }

  const applyRange = () => {
    // Leaving the fields untouched must not pin the data's range as a custom one.
    if (
      inUse &&
      minText === formatTimelineNumber(inUse.min) &&
      maxText === formatTimelineNumber(inUse.max)
    )
      return
    const min = parseNumber(minText)
    const max = parseNumber(maxText)
    const issues = checkColourRange(min, max)
    if (issues.length > 0) {
      setError(issues[0]?.message ?? null)
      return
    }
    setError(null)
    setChoice({ ...choice, range: applyColourRange(min as number, max as number) })
  }

  return (
    <section className="results__group" aria-labelledby={`${ids.attribute}-title`}>
      <h3 className="results__group-title" id={`${ids.attribute}-title`}>
        Colour
      </h3>
      <div className="results__row">
        <label className="results__label" htmlFor={ids.attribute}>
          Attribute
        </label>
        <select
          id={ids.attribute}
          className="select select--compact"
          value={option ? choice.attribute : ''}
          onChange={(event) => setChoice({ ...choice, attribute: event.target.value, range: null })}
        >
          {!option && <option value="">—</option>}
          {options.map((candidate) => (
            <option key={candidate.attribute} value={candidate.attribute}>
              {candidate.unit ? `${candidate.label} (${candidate.unit})` : candidate.label}
            </option>
          ))}
        </select>
        {option?.kind === 'vector' && (
          <>
            <label className="visually-hidden" htmlFor={ids.sub}>
              Component
            </label>
            <select
              id={ids.sub}
              className="select select--compact"
              value={choice.subOption}
              onChange={(event) =>
                setChoice({
                  ...choice,
                  subOption: event.target.value as VectorSubOption,
                  range: null,
                })
              }
            >
              {VECTOR_SUB_OPTIONS.map((sub) => (
                <option key={sub} value={sub}>
                  {SUB_OPTION_LABELS[sub]}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
      <div className="results__row">
        <label className="results__label" htmlFor={ids.scheme}>
          Colour scheme
        </label>
        <select
          id={ids.scheme}
          className="select select--compact"
          value={choice.scheme}
          onChange={(event) => setChoice({ ...choice, scheme: event.target.value as ColourScheme })}
        >
          {COLOUR_SCHEMES.map((scheme) => (
            <option key={scheme} value={scheme}>
              {schemeLabel(scheme)}
            </option>
          ))}
        </select>
      </div>
      <div
        className="colour-bar"
        style={{ background: schemeGradient(choice.scheme) }}
        aria-hidden="true"
      />
      <form
        className="results__row"
        onSubmit={(event) => {
          event.preventDefault()
          applyRange()
        }}
      >
        <label className="results__label" htmlFor={ids.min}>
          Min
        </label>
        <input
          id={ids.min}
          className={`input input--small results__number${error ? ' input--invalid' : ''}`}
          inputMode="decimal"
          value={minText}
          onChange={(event) => setMinText(event.target.value)}
          onBlur={applyRange}
        />
        <label className="results__label" htmlFor={ids.max}>
          Max
        </label>
        <input
          id={ids.max}
          className={`input input--small results__number${error ? ' input--invalid' : ''}`}
          inputMode="decimal"
          value={maxText}
          onChange={(event) => setMaxText(event.target.value)}
          onBlur={applyRange}
        />
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={choice.range === null}
          onClick={() => {
            setError(null)
            setChoice({ ...choice, range: null })
          }}
        >
          Rescale
        </button>
      </form>
      {error && (
        <p className="results__error" role="alert">
          {error}
        </p>
      )}
      {snapshot?.dataRange && (
        <span className="results__range-values">
          Data range {formatTimelineNumber(snapshot.dataRange.min)} to{' '}
          {formatTimelineNumber(snapshot.dataRange.max)}
          {option?.unit ? ` ${option.unit}` : ''}
        </span>
      )}
    </section>
  )
}
