import { useQuery } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import {
  BOUNDARIES_MODES,
  BOUNDARIES_TYPES,
  EXPORT_TABS,
  type ExportRequest,
} from '../../../../../domain/results.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import './export.css'
import {
  exportOptions,
  formatNumberInput,
  parseNumberInput,
  type ExportObjectOption,
} from './exportModel.ts'

export type Tab = (typeof EXPORT_TABS)[number]

function toggle(ids: readonly number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id]
}

/** The messages of one field, errors first. */
export function FieldIssues({ issues, field }: { issues: readonly Issue[]; field: string }) {
  const own = issues.filter((issue) => issue.field === field)
  if (own.length === 0) return null
  return (
    <>
      {own.map((issue) => (
        <p
          key={issue.message}
          className={issue.level === 'error' ? 'field__error' : 'export__warning'}
          role={issue.level === 'error' ? 'alert' : undefined}
        >
          {issue.message}
        </p>
      ))}
    </>
  )
}

function CheckList({
  legend,
  options,
  selected,
  disabled,
  onChange,
}: {
  legend: string
  options: readonly ExportObjectOption[]
  selected: readonly number[]
  disabled: boolean
  onChange: (ids: number[]) => void
}) {
  if (options.length === 0) return null
  return (
    <fieldset className="filter-group" disabled={disabled}>
      <legend className="filter-group__legend">{legend}</legend>
      <div className="check-list">
        {options.map((option) => (
          <label key={option.id} className="check">
            <input
              type="checkbox"
              checked={disabled || selected.includes(option.id)}
              onChange={() => onChange(toggle(selected, option.id))}
            />
            <span>{option.name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}

function NumberInput({
  label,
  value,
  onChange,
}: {
  label: string
  value: number | null
  onChange: (value: number | null) => void
}) {
  const id = useId()
  const [text, setText] = useState(formatNumberInput(value))
  return (
    <div className="export__number">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="input input--small"
        inputMode="numeric"
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          onChange(parseNumberInput(event.target.value))
        }}
      />
    </div>
  )
}

export function useSensorOptions(simulationId: number): ExportObjectOption[] {
  // Same query as the explorer's sensor list, so both share one cache entry.
  const input = { params: { id: String(simulationId) }, query: {} }
  const query = useQuery({
    queryKey: routeKey('listSensors', input),
    queryFn: ({ signal }) => callApi('listSensors', input, { signal }),
  })
  return useMemo(
    () => (query.data ?? []).map((sensor) => ({ id: sensor.id, name: sensor.name })),
    [query.data],
  )
}

export function SelectDataTab({
  request,
  setRequest,
  issues,
  list,
  sensors,
}: {
  request: ExportRequest
  setRequest: (request: ExportRequest) => void
  issues: readonly Issue[]
  list: OutputManifestList
  sensors: readonly ExportObjectOption[]
}) {
  const options = useMemo(() => exportOptions(list), [list])
  const update = (patch: Partial<ExportRequest>) => setRequest({ ...request, ...patch })
  const boundariesTypeId = useId()
  const boundariesModeId = useId()
  return (
    <div className="export__grid">
      <section className="export__section" aria-label="Objects">
        <h3 className="export__heading">Objects</h3>
        <label className="check">
          <input
            type="checkbox"
            checked={request.allObjects}
            onChange={(event) => update({ allObjects: event.target.checked })}
          />
          <span>All objects</span>
        </label>
        <CheckList
          legend="Materials"
          options={options.materials}
          selected={request.materials}
          disabled={request.allObjects}
          onChange={(materials) => update({ materials })}
        />
        <CheckList
          legend="Boundaries"
          options={options.boundaries}
          selected={request.boundaries}
          disabled={request.allObjects}
          onChange={(boundaries) => update({ boundaries })}
        />
        <CheckList
          legend="Sensors"
          options={sensors}
          selected={request.sensors}
          disabled={request.allObjects}
          onChange={(ids) => update({ sensors: ids })}
        />
        <CheckList
          legend="Surface reconstructions"
          options={options.materials}
          selected={request.surfaceReconstructions}
          disabled={false}
          onChange={(surfaceReconstructions) => update({ surfaceReconstructions })}
        />
        <FieldIssues issues={issues} field="surfaceReconstructions" />
        <div className="export__boundaries">
          <label htmlFor={boundariesTypeId} className="field__label">
            Boundaries type
          </label>
          <select
            id={boundariesTypeId}
            className="select select--compact"
            value={request.boundariesType}
            onChange={(event) =>
              update({ boundariesType: event.target.value as ExportRequest['boundariesType'] })
            }
          >
            {BOUNDARIES_TYPES.map((type) => (
              <option key={type} value={type}>
                {type.toUpperCase()}
              </option>
            ))}
          </select>
          <label htmlFor={boundariesModeId} className="field__label">
            Boundaries mode
          </label>
          <select
            id={boundariesModeId}
            className="select select--compact"
            value={request.boundariesMode}
            onChange={(event) =>
              update({ boundariesMode: event.target.value as ExportRequest['boundariesMode'] })
            }
          >
            {BOUNDARIES_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {mode === 'full' ? 'Full' : 'Reduced'}
              </option>
            ))}
          </select>
        </div>
      </section>

      <section className="export__section" aria-label="Attributes">
        <h3 className="export__heading">Attributes</h3>
        <label className="check">
          <input
            type="checkbox"
            checked={request.allAttributes}
            onChange={(event) => update({ allAttributes: event.target.checked })}
          />
          <span>All attributes</span>
        </label>
        <fieldset className="filter-group" disabled={request.allAttributes}>
          <legend className="visually-hidden">Attributes</legend>
          <div className="check-list">
            {options.attributes.map((attribute) => (
              <label key={attribute.name} className="check">
                <input
                  type="checkbox"
                  checked={request.allAttributes || request.attributes.includes(attribute.name)}
                  onChange={() =>
                    update({
                      attributes: request.attributes.includes(attribute.name)
                        ? request.attributes.filter((name) => name !== attribute.name)
                        : [...request.attributes, attribute.name],
                    })
                  }
                />
                <span>{attribute.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </section>

      <section className="export__section" aria-label="Outputs">
        <h3 className="export__heading">Outputs</h3>
        <div className="segmented" role="group" aria-label="Output mode">
          {(['single', 'range'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              className="segmented__option"
              aria-pressed={request.outputMode === mode}
              onClick={() => update({ outputMode: mode })}
            >
              {mode === 'single' ? 'Single' : 'Range'}
            </button>
          ))}
        </div>
        {request.outputMode === 'single' ? (
          <>
            <NumberInput
              label="Output"
              value={request.outputsSingle}
              onChange={(outputsSingle) => update({ outputsSingle })}
            />
            <FieldIssues issues={issues} field="outputsSingle" />
          </>
        ) : (
          <>
            <div className="export__row">
              <NumberInput
                label="From output"
                value={request.outputsRange[0]}
                onChange={(start) => update({ outputsRange: [start, request.outputsRange[1]] })}
              />
              <NumberInput
                label="To output"
                value={request.outputsRange[1]}
                onChange={(end) => update({ outputsRange: [request.outputsRange[0], end] })}
              />
              <NumberInput
                label="Step size"
                value={request.stepSize}
                onChange={(stepSize) => update({ stepSize })}
              />
            </div>
            <FieldIssues issues={issues} field="outputsRange" />
            <FieldIssues issues={issues} field="stepSize" />
          </>
        )}
        <h3 className="export__heading">Files</h3>
        <label className="check">
          <input
            type="checkbox"
            checked={request.logs}
            onChange={(event) => update({ logs: event.target.checked })}
          />
          <span>Logs</span>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={request.setup}
            onChange={(event) => update({ setup: event.target.checked })}
          />
          <span>Setup</span>
        </label>
      </section>
    </div>
  )
}
