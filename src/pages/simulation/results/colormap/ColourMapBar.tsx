import { useAtom, useAtomValue } from 'jotai'
import { useResultsTracking } from '../../../../analytics/useResultsTracking.ts'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { COLOUR_SCHEMES, type ColourScheme } from '../../../../../domain/constants.ts'
import {
  VECTOR_SUB_OPTIONS,
  applyColourRange,
  checkColourRange,
  type ColourRange,
  type VectorSubOption,
} from '../../../../../domain/results.ts'
import { IconChevronDown, IconClose } from '../../../../components/icons.tsx'
import { colourMapChoiceAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { Popover } from '../layout/Popover.tsx'
import {
  attributeOptionLabel,
  colourMapTicks,
  formatTimelineNumber,
  type AttributeOption,
} from '../resultsModel.ts'
import { schemeGradient, schemeLabel } from './schemes.ts'

const SUB_OPTION_LABELS: Record<VectorSubOption, string> = {
  x: 'X',
  y: 'Y',
  z: 'Z',
  magnitude: 'Magnitude',
}

/** A typed number, '' when empty, or the text itself when it is not a finite number. */
function parseNumber(text: string): number | string {
  const trimmed = text.trim()
  if (trimmed === '') return ''
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : trimmed
}

type Visibility = 'expanded' | 'collapsed' | 'hidden'

/**
 * The 7 schemes as swatches drawn from the GPU's colour table. Opens with the chosen one focused;
 * arrow keys, Home and End move, Enter or Space picks.
 */
function SchemeList({
  selected,
  onSelect,
}: {
  selected: ColourScheme
  onSelect: (scheme: ColourScheme) => void
}) {
  const listRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus()
  }, [])
  const moveFocus = (from: number, key: string) => {
    const last = COLOUR_SCHEMES.length - 1
    const next =
      key === 'ArrowDown'
        ? Math.min(last, from + 1)
        : key === 'ArrowUp'
          ? Math.max(0, from - 1)
          : key === 'Home'
            ? 0
            : last
    listRef.current?.querySelectorAll<HTMLElement>('[role="option"]')[next]?.focus()
  }
  return (
    <div className="scheme-list" role="listbox" aria-label="Colour schemes" ref={listRef}>
      {COLOUR_SCHEMES.map((scheme, index) => (
        <div
          key={scheme}
          role="option"
          tabIndex={scheme === selected ? 0 : -1}
          aria-selected={scheme === selected}
          className="scheme-list__option"
          onClick={() => onSelect(scheme)}
          onKeyDown={(event) => {
            if (['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) {
              event.preventDefault()
              moveFocus(index, event.key)
              return
            }
            if (event.key !== 'Enter' && event.key !== ' ') return
            // Space picks here: it must not reach the timeline's play/pause.
            event.preventDefault()
            event.stopPropagation()
            onSelect(scheme)
          }}
        >
          <span
            className="scheme-list__swatch"
            style={{ background: schemeGradient(scheme) }}
            aria-hidden="true"
          />
          <span>{schemeLabel(scheme)}</span>
        </div>
      ))}
    </div>
  )
}

/**
 * The colour map bar over the results view: attribute and component, the scheme (drawn from the
 * GPU's own colour table), the range in use with editable min and max, rescale to the data range,
 * ticks at 25/50/75 %, the colour map status of the shown output; collapsible and hideable.
 */
export function ColourMapBar({ options }: { options: readonly AttributeOption[] }) {
  const [choice, setChoice] = useAtom(colourMapChoiceAtom)
  const tracking = useResultsTracking()
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const inUse: ColourRange | null = snapshot?.colourRange ?? choice.range
  const [minText, setMinText] = useState('')
  const [maxText, setMaxText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [visibility, setVisibility] = useState<Visibility>('expanded')
  const [shownRange, setShownRange] = useState<ColourRange | null>(null)
  const ids = { attribute: useId(), sub: useId(), min: useId(), max: useId(), error: useId() }
  const option = options.find((candidate) => candidate.attribute === choice.attribute)

  // The fields follow the range in use whenever it changes (a new output, attribute or rescale).
  if (inUse && (inUse.min !== shownRange?.min || inUse.max !== shownRange.max)) {
    setShownRange(inUse)
    setMinText(formatTimelineNumber(inUse.min))
    setMaxText(formatTimelineNumber(inUse.max))
  }

  const applyRange = () => {
    // Fields left as shown must not pin the data's range as a custom one.
    if (
      inUse &&
      minText === formatTimelineNumber(inUse.min) &&
      maxText === formatTimelineNumber(inUse.max)
    ) {
      setError(null)
      return
    }
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

  // Two fields and no submit button: a form would not submit on Enter by itself.
  const applyOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    applyRange()
  }

  const rescale = () => {
    setError(null)
    if (inUse) {
      setMinText(formatTimelineNumber(inUse.min))
      setMaxText(formatTimelineNumber(inUse.max))
    }
    setChoice({ ...choice, range: null })
  }

  if (visibility === 'hidden')
    return (
      <button
        type="button"
        className="results-floating-button colour-map-show"
        onClick={() => setVisibility('expanded')}
      >
        <span
          className="colour-map-show__swatch"
          style={{ background: schemeGradient(choice.scheme) }}
          aria-hidden="true"
        />
        Show colour map
      </button>
    )

  const ticks = inUse ? colourMapTicks(inUse) : []
  const collapsed = visibility === 'collapsed'
  const status = snapshot?.colourStatus ?? null
  const unit = option?.unit ?? ''

  return (
    <section
      className={`colour-map${collapsed ? ' colour-map--collapsed' : ''}`}
      aria-label="Colour map"
    >
      <div className="colour-map__header">
        {collapsed ? (
          <span className="colour-map__title">
            {option ? attributeOptionLabel(option) : choice.attribute}
            {option?.kind === 'vector' ? ` · ${SUB_OPTION_LABELS[choice.subOption]}` : ''}
          </span>
        ) : (
          <>
            <label className="visually-hidden" htmlFor={ids.attribute}>
              Attribute
            </label>
            <select
              id={ids.attribute}
              className="select select--compact colour-map__attribute"
              value={option ? choice.attribute : ''}
              onChange={(event) => {
                setChoice({ ...choice, attribute: event.target.value, range: null })
                tracking.quantityChanged(event.target.value)
              }}
            >
              {!option && <option value="">—</option>}
              {options.map((candidate) => (
                <option key={candidate.attribute} value={candidate.attribute}>
                  {attributeOptionLabel(candidate)}
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
                  className="select select--compact colour-map__component"
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
            <Popover
              label="Colour scheme"
              triggerClassName="colour-map__scheme-button"
              trigger={
                <>
                  <span
                    className="colour-map__scheme-swatch"
                    style={{ background: schemeGradient(choice.scheme) }}
                    aria-hidden="true"
                  />
                  <IconChevronDown width={14} height={14} aria-hidden="true" />
                </>
              }
            >
              {(close) => (
                <SchemeList
                  selected={choice.scheme}
                  onSelect={(scheme) => {
                    setChoice({ ...choice, scheme })
                    close()
                  }}
                />
              )}
            </Popover>
          </>
        )}
        <span className="colour-map__spacer" />
        <button
          type="button"
          className="colour-map__icon-button"
          aria-label={collapsed ? 'Expand colour map' : 'Collapse colour map'}
          aria-expanded={!collapsed}
          onClick={() => setVisibility(collapsed ? 'expanded' : 'collapsed')}
        >
          <IconChevronDown
            width={14}
            height={14}
            aria-hidden="true"
            style={{ transform: collapsed ? undefined : 'rotate(180deg)' }}
          />
        </button>
        <button
          type="button"
          className="colour-map__icon-button"
          aria-label="Hide colour map"
          onClick={() => setVisibility('hidden')}
        >
          <IconClose width={14} height={14} aria-hidden="true" />
        </button>
      </div>
      <form
        className="colour-map__scale"
        onSubmit={(event) => {
          event.preventDefault()
          applyRange()
        }}
      >
        {collapsed ? (
          <span className="colour-map__end" data-testid="colour-map-min">
            {inUse ? formatTimelineNumber(inUse.min) : '–'}
          </span>
        ) : (
          <>
            <label className="visually-hidden" htmlFor={ids.min}>
              Min
            </label>
            <input
              id={ids.min}
              className={`colour-map__input${error ? ' colour-map__input--invalid' : ''}`}
              inputMode="decimal"
              autoComplete="off"
              value={minText}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? ids.error : undefined}
              onChange={(event) => setMinText(event.target.value)}
              onBlur={applyRange}
              onKeyDown={applyOnEnter}
            />
          </>
        )}
        <div className="colour-map__bar-wrap">
          <div
            className="colour-map__bar"
            style={{ background: schemeGradient(choice.scheme) }}
            data-testid="colour-map-gradient"
            data-scheme={choice.scheme}
            aria-hidden="true"
          >
            {ticks.map((tick) => (
              <span
                key={tick.fraction}
                className="colour-map__tick"
                style={{ left: `${tick.fraction * 100}%` }}
              />
            ))}
          </div>
          {!collapsed && (
            <div className="colour-map__tick-labels" data-testid="colour-map-ticks">
              {ticks.map((tick) => (
                <span
                  key={tick.fraction}
                  className="colour-map__tick-label"
                  style={{ left: `${tick.fraction * 100}%` }}
                >
                  {formatTimelineNumber(tick.value)}
                </span>
              ))}
            </div>
          )}
        </div>
        {collapsed ? (
          <span className="colour-map__end" data-testid="colour-map-max">
            {inUse ? formatTimelineNumber(inUse.max) : '–'}
            {unit ? ` ${unit}` : ''}
          </span>
        ) : (
          <>
            <label className="visually-hidden" htmlFor={ids.max}>
              Max
            </label>
            <input
              id={ids.max}
              className={`colour-map__input${error ? ' colour-map__input--invalid' : ''}`}
              inputMode="decimal"
              autoComplete="off"
              value={maxText}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? ids.error : undefined}
              onChange={(event) => setMaxText(event.target.value)}
              onBlur={applyRange}
              onKeyDown={applyOnEnter}
            />
            {unit && <span className="colour-map__unit">{unit}</span>}
            <button
              type="button"
              className="colour-map__icon-button"
              aria-label="Rescale"
              title="Rescale to the data range"
              onClick={rescale}
            >
              <span aria-hidden="true">↺</span>
            </button>
          </>
        )}
      </form>
      {error && (
        <p className="colour-map__error" id={ids.error} role="alert">
          {error}
        </p>
      )}
      {status && (
        <p className="colour-map__status" role="status">
          {status}
        </p>
      )}
    </section>
  )
}
