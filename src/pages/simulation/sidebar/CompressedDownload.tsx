import { useMutation } from '@tanstack/react-query'
import { TOAST_DURATION_MS } from '../../../../domain/constants.ts'
import { isJobActive } from '../../../../domain/jobs.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { COMPRESSION_TEXTS, type Compression } from '../../../../domain/rest/compressionRoutes.ts'
import { formatCount, formatSize } from '../../../../domain/units.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { Spinner } from '../../../components/Spinner.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import {
  downloadCompressedArchive,
  useCompressionQuery,
  useDeleteCompression,
  useStartCompression,
} from './compressionQueries.ts'
import { JobWidget } from './JobWidget.tsx'

/** The Compression widget of Jobs Progress and the Download tab: progress and Stop computation. */
export function CompressionJobWidget({
  simulationId,
  compression,
}: {
  simulationId: number
  compression: Compression
}) {
  const remove = useDeleteCompression(simulationId)
  return (
    <JobWidget
      title={COMPRESSION_TEXTS.title}
      state={compression.state}
      progress={compression.progress}
      detail={`${compression.filename}, ${formatSize(compression.inputBytes)} to pack`}
      errors={compression.error ? [{ description: compression.error }] : []}
      stopText={COMPRESSION_TEXTS.stopText}
      stopFailedTitle={COMPRESSION_TEXTS.stopFailed}
      onStop={() => remove.mutateAsync()}
    />
  )
}

/**
 * Download with compression (spec/results.md §2 Run sidebar): the server packs the simulation's
 * files into one .tar.gz (progress and Stop in Jobs Progress too), then the archive can be
 * downloaded or deleted.
 */
export function CompressedDownload({ simulation }: { simulation: Simulation }) {
  const pushToast = usePushToast()
  const compression = useCompressionQuery(simulation.id).data?.compression ?? null
  const start = useStartCompression(simulation.id)
  const remove = useDeleteCompression(simulation.id)
  const download = useMutation({
    mutationFn: (filename: string) => downloadCompressedArchive(simulation.id, filename),
  })
  const failToast = (title: string) => (error: Error) =>
    pushToast({
      kind: 'error',
      title,
      description: messageOf(error),
      durationMs: TOAST_DURATION_MS.simulation,
    })
  const notStarted = simulation.state === 'not started'
  const active = compression !== null && isJobActive(compression.state)
  const completed = compression?.state === 'completed' ? compression : null

  return (
    <section className="run-sidebar__compression" aria-labelledby="compressed-download-title">
      <h3 id="compressed-download-title" className="run-sidebar__subtitle">
        Download with compression
      </h3>
      <p>
        The same files packed by the server into one gzip-compressed tar archive: smaller to
        download, made once and kept until you delete it.
      </p>
      {compression && active && (
        <CompressionJobWidget simulationId={simulation.id} compression={compression} />
      )}
      {compression?.state === 'failed' && (
        <p className="field__error" role="alert">
          {compression.error ?? COMPRESSION_TEXTS.failed}
        </p>
      )}
      {completed && (
        <p className="run-sidebar__archive">
          <strong>{completed.filename}</strong>: {formatSize(completed.sizeBytes)} (
          {formatCount(completed.fileCount)} files, {formatSize(completed.inputBytes)} before
          compression)
        </p>
      )}
      <div className="run-sidebar__actions">
        {completed && (
          <>
            <button
              type="button"
              className="button button--primary button--small"
              disabled={download.isPending}
              aria-busy={download.isPending || undefined}
              onClick={() =>
                download.mutate(completed.filename, { onError: failToast('Download failed') })
              }
            >
              {download.isPending && <Spinner label="Downloading" size={12} />}
              {download.isPending ? 'Downloading…' : 'Download archive'}
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, { onError: failToast(COMPRESSION_TEXTS.deleteFailed) })
              }
            >
              Delete archive
            </button>
          </>
        )}
        {!active && (
          <button
            type="button"
            className={`button button--small ${completed ? 'button--ghost' : 'button--primary'}`}
            disabled={notStarted || start.isPending}
            aria-busy={start.isPending || undefined}
            onClick={() =>
              start.mutate(undefined, { onError: failToast(COMPRESSION_TEXTS.startFailed) })
            }
          >
            {start.isPending && <Spinner label="Starting compression" size={12} />}
            {completed ? 'Compress again' : 'Compress simulation'}
          </button>
        )}
      </div>
    </section>
  )
}
