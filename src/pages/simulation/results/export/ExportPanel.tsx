import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { POLL_INTERVALS_MS } from '../../../../../domain/constants.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { ExportStatusReply } from '../../../../../domain/rest/exportRoutes.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import {
  EXPORT_MESSAGES,
  EXPORT_TABS,
  checkExportRequest,
  defaultExportRequest,
  exportBlockedMessage,
  exportConfirmations,
  isDownloadTabDisabled,
  type ExportRequest,
} from '../../../../../domain/results.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { callApi } from '../../../../api/index.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import './export.css'
import {
  displayedExportState,
  exportOptions,
  hasPreviousExport,
  isExportActive,
} from './exportModel.ts'
import { DownloadTab } from './DownloadTab.tsx'
import { FieldIssues, SelectDataTab, useSensorOptions, type Tab } from './SelectDataTab.tsx'

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
