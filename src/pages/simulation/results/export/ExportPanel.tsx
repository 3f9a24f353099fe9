import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useMemo, useState, type ReactNode } from 'react'
import { POLL_INTERVALS_MS } from '../../../../../domain/constants.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import {
  PARALLEL_DOWNLOAD_LIMIT,
  userExportFilePath,
  type ExportStatus,
  type ExportStatusReply,
} from '../../../../../domain/rest/exportRoutes.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import {
  BOUNDARIES_MODES,
  BOUNDARIES_TYPES,
  EXPORT_MESSAGES,
  EXPORT_TABS,
  checkExportRequest,
  defaultExportRequest,
  exportBlockedMessage,
  exportConfirmations,
  isDownloadTabDisabled,
  type ExportRequest,
} from '../../../../../domain/results.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { api, callApi } from '../../../../api/index.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import { Spinner } from '../../../../components/Spinner.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import './export.css'
import {
  displayedExportState,
  exportOptions,
  formatMessageOutputs,
  formatNumberInput,
  hasPreviousExport,
  isExportActive,
  parseNumberInput,
  type ExportObjectOption,
} from './exportModel.ts'

/** The hint under the download links (spec/results.md §8). */
export const PARALLEL_DOWNLOAD_HINT = `Browsers download at most ${PARALLEL_DOWNLOAD_LIMIT} files at a time: start more and the rest wait until one finishes.`

type Tab = (typeof EXPORT_TABS)[number]

function toggle(ids: readonly number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id]
}

function useExportQuery(simulationId: number, enabled: boolean) {
  const input = { params: { id: String(simulationId) } }
  return useQuery({
    queryKey: routeKey('getUserExport', input),
    queryFn: ({ signal }) => callApi('getUserExport', input, { signal }),
    enabled,
    // The running export is polled every 5 s (spec/results.md §7).
    refetchInterval: (query) =>
      isExportActive(query.state.data?.export ?? null) ? POLL_INTERVALS_MS.userExport : false,
  })
}

/** Saves one exported file through the authenticated client (the browser's download). */
async function downloadExportFile(simulationId: number, filename: string, fileId: number) {
  const response = await api.requestRaw({
    method: 'GET',
    path: userExportFilePath(simulationId, fileId),
    expectedStatus: 200,
  })
  const url = URL.createObjectURL(await response.blob())
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = filename
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** The messages of one field, errors first. */
function FieldIssues({ issues, field }: { issues: readonly Issue[]; field: string }) {
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

function useSensorOptions(simulationId: number): ExportObjectOption[] {
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

function SelectDataTab({
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

function ExportMessages({ title, messages }: { title: string; messages: ExportStatus['errors'] }) {
  if (messages.length === 0) return null
  return (
    <section aria-label={title}>
      <h3 className="export__heading">{title}</h3>
      <ul className="export__messages">
        {messages.map((message, index) => (
          <li key={index}>
            <span>{message.description}</span>
            {message.details && <span className="muted"> {message.details.description}</span>}
            {message.outputs.length > 0 && (
              <span className="muted"> ({formatMessageOutputs(message.outputs)})</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}

function DownloadTab({
  simulationId,
  status,
  onCancel,
  canceling,
}: {
  simulationId: number
  status: ExportStatus | null
  onCancel: () => void
  canceling: boolean
}) {
  const [downloadError, setDownloadError] = useState<string | null>(null)
  if (!status) return <p className="muted">No export yet. Select data and start one.</p>
  const state = displayedExportState(status.state)
  let body: ReactNode = null
  if (status.state === 'scheduled' || status.state === 'running')
    body = (
      <div className="export__running">
        <Spinner label="Exporting files" />
        <span>
          {status.state === 'scheduled' ? 'Waiting to start…' : 'Exporting files…'}{' '}
          {Math.round(status.progress * 100)} %
        </span>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={onCancel}
          disabled={canceling}
        >
          {canceling ? 'Canceling…' : 'Cancel export'}
        </button>
      </div>
    )
  else if (status.state === 'failed')
    body = (
      <p className="alert alert--error" role="alert">
        {EXPORT_MESSAGES.failed}
      </p>
    )
  else if (status.state === 'canceled') body = <p className="alert">{EXPORT_MESSAGES.deleted}</p>
  else if (status.state === 'completed')
    body = (
      <>
        <ul className="export__files" aria-label="Exported files">
          {status.files.map((file) => (
            <li key={file.id}>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setDownloadError(null)
                  downloadExportFile(simulationId, file.filename, file.id).catch((error: unknown) =>
                    setDownloadError(messageOf(error)),
                  )
                }}
              >
                {file.filename}
              </button>
            </li>
          ))}
        </ul>
        <p className="field__hint">{PARALLEL_DOWNLOAD_HINT}</p>
        {downloadError && (
          <p className="field__error" role="alert">
            {downloadError}
          </p>
        )}
        <button
          type="button"
          className="button button--danger-text button--small"
          onClick={onCancel}
          disabled={canceling}
        >
          Delete files
        </button>
      </>
    )
  return (
    <div className="export__download">
      <p className="export__status">
        <strong>{status.name}</strong> <span className="tag">{state}</span>
      </p>
      {body}
      {status.state === 'failed' && <ExportMessages title="Errors" messages={status.errors} />}
      <ExportMessages title="Warnings" messages={status.warnings} />
    </div>
  )
}

function ExportDialog({
  simulation,
  list,
  onClose,
}: {
  simulation: Simulation
  list: OutputManifestList
  onClose: () => void
}) {
  const queryClient = useQueryClient()
  const exportQuery = useExportQuery(simulation.id, true)
  const status = exportQuery.data?.export ?? null
  const options = useMemo(() => exportOptions(list), [list])
  const sensors = useSensorOptions(simulation.id)
  const [request, setRequest] = useState<ExportRequest>(() =>
    defaultExportRequest(simulation.id, options.lastOutputNo),
  )
  const [chosenTab, setTab] = useState<Tab | null>(null)
  const [pendingConfirmations, setPendingConfirmations] = useState<string[]>([])
  const downloadDisabled = isDownloadTabDisabled(status?.state ?? null)
  const tab: Tab =
    chosenTab ??
    (isExportActive(status) || status?.state === 'completed' ? EXPORT_TABS[1] : EXPORT_TABS[0])
  const shownTab = tab === EXPORT_TABS[1] && downloadDisabled ? EXPORT_TABS[0] : tab
  const issues = checkExportRequest(request, options.context)
  const blocked = exportBlockedMessage(issues)
  const queryKey = routeKey('getUserExport', { params: { id: String(simulation.id) } })

  const start = useMutation({
    mutationFn: () =>
      callApi('startUserExport', { params: { id: String(simulation.id) }, body: request }),
    onSuccess: (started) => {
      queryClient.setQueryData<ExportStatusReply>(queryKey, { export: started })
      void queryClient.invalidateQueries({ queryKey })
      setTab(EXPORT_TABS[1])
    },
  })
  const cancel = useMutation({
    mutationFn: () => callApi('cancelUserExport', { params: { id: String(simulation.id) } }),
    onSuccess: (reply) => {
      queryClient.setQueryData<ExportStatusReply>(queryKey, reply)
      setTab(EXPORT_TABS[1])
    },
  })

  const requestExport = () => {
    if (blocked) return
    const confirmations = exportConfirmations(request, hasPreviousExport(status))
    if (confirmations.length === 0) start.mutate()
    else setPendingConfirmations(confirmations)
  }
  const confirm = () => {
    const [, ...rest] = pendingConfirmations
    setPendingConfirmations(rest)
    if (rest.length === 0) start.mutate()
  }

  return (
    <Dialog title="Export" subtitle={EXPORT_MESSAGES.defaultName} onClose={onClose}>
      <div className="dialog__body export">
        <div className="tabs export__tabs" role="tablist" aria-label="Export steps">
          {EXPORT_TABS.map((name) => {
            const disabled = name === EXPORT_TABS[1] && downloadDisabled
            return (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={shownTab === name}
                aria-disabled={disabled || undefined}
                disabled={disabled}
                className={`tabs__tab${shownTab === name ? ' tabs__tab--active' : ''}${disabled ? ' tabs__tab--disabled' : ''}`}
                onClick={() => setTab(name)}
              >
                {name}
              </button>
            )
          })}
        </div>
        {status && status.state === 'expired' && (
          <p className="muted">
            Previous export: <span className="tag">{displayedExportState(status.state)}</span>
          </p>
        )}
        {shownTab === EXPORT_TABS[0] ? (
          <div role="tabpanel" aria-label={EXPORT_TABS[0]}>
            <SelectDataTab
              request={request}
              setRequest={setRequest}
              issues={issues}
              list={list}
              sensors={sensors}
            />
            <FieldIssues issues={issues} field="selection" />
            {blocked && (
              <p className="field__error" role="alert">
                {blocked}
              </p>
            )}
            {start.isError && (
              <p className="field__error" role="alert">
                {messageOf(start.error)}
              </p>
            )}
          </div>
        ) : (
          <div role="tabpanel" aria-label={EXPORT_TABS[1]}>
            <DownloadTab
              simulationId={simulation.id}
              status={status}
              onCancel={() => cancel.mutate()}
              canceling={cancel.isPending}
            />
            {cancel.isError && (
              <p className="field__error" role="alert">
                {messageOf(cancel.error)}
              </p>
            )}
          </div>
        )}
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
        {shownTab === EXPORT_TABS[0] && (
          <button
            type="button"
            className="button button--primary"
            disabled={blocked !== null || start.isPending || isExportActive(status)}
            onClick={requestExport}
          >
            {start.isPending ? 'Starting…' : 'Export'}
          </button>
        )}
      </footer>
      {pendingConfirmations[0] && (
        <Dialog title="Confirm export" size="small" onClose={() => setPendingConfirmations([])}>
          <div className="dialog__body">
            <p className="dialog__text">{pendingConfirmations[0]}</p>
          </div>
          <footer className="dialog__footer">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setPendingConfirmations([])}
            >
              No
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={confirm}
              data-autofocus
            >
              Yes
            </button>
          </footer>
        </Dialog>
      )}
    </Dialog>
  )
}

/** The export form: an Export button opening the two-tab dialog (select data, download files). */
export function ExportPanel({
  simulation,
  list,
}: {
  simulation: Simulation
  list: OutputManifestList
}) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button
        type="button"
        className="button button--secondary button--small"
        aria-haspopup="dialog"
        data-testid="open-export"
        onClick={() => setOpen(true)}
      >
        Export
      </button>
      {open && <ExportDialog simulation={simulation} list={list} onClose={() => setOpen(false)} />}
    </>
  )
}
