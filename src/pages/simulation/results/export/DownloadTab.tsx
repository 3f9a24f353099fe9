import { useState, type ReactNode } from 'react'
import {
  PARALLEL_DOWNLOAD_LIMIT,
  type ExportStatus,
  userExportFilePath,
} from '../../../../../domain/rest/exportRoutes.ts'
import { EXPORT_MESSAGES } from '../../../../../domain/results.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { api } from '../../../../api/index.ts'
import { Spinner } from '../../../../components/Spinner.tsx'
import './export.css'
import { displayedExportState, formatMessageOutputs } from './exportModel.ts'
/** The hint under the download links (spec/results.md §8). */
export const PARALLEL_DOWNLOAD_HINT = `Browsers download at most ${PARALLEL_DOWNLOAD_LIMIT} files at a time: start more and the rest wait until one finishes.`

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

export function DownloadTab({
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
