import { useMutation } from '@tanstack/react-query'
import { TOAST_DURATION_MS } from '../../../../domain/constants.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { formatSize } from '../../../../domain/units.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { downloadSimulation } from '../../../api/files.ts'
import { Spinner } from '../../../components/Spinner.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { CompressedDownload } from './CompressedDownload.tsx'

/** Download is disabled for a not-started simulation (spec/results.md §2). */
export const DOWNLOAD_NOT_STARTED = 'Download is available once the simulation has been started.'
/** The toast of a failed download (as the simulation list's). */
export const DOWNLOAD_FAILED = 'Download failed'

/**
 * Download of the Run sidebar (and the dashboard): the simulation's files (job file, record,
 * outputs, log) as one ZIP archive from GET /simulations/{id}/download, saved by the browser, or
 * packed by the server into a compressed archive first (CompressedDownload).
 */
export function DownloadTab({ simulation }: { simulation: Simulation }) {
  const pushToast = usePushToast()
  const download = useMutation({
    mutationFn: () => downloadSimulation(simulation),
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: DOWNLOAD_FAILED,
        description: messageOf(error),
        durationMs: TOAST_DURATION_MS.simulation,
      }),
  })
  const notStarted = simulation.state === 'not started'
  return (
    <div className="run-sidebar__download">
      <p>
        The setup as a job file, the simulation record, every output and the run log, in one ZIP
        archive ({formatSize(simulation.size)} on the server). Outputs are stored as they are: their
        Float32 columns barely compress, and the archive streams at disk speed.
      </p>
      {notStarted && <p className="field__hint">{DOWNLOAD_NOT_STARTED}</p>}
      <button
        type="button"
        className="button button--primary button--small"
        disabled={notStarted || download.isPending}
        aria-busy={download.isPending || undefined}
        onClick={() => download.mutate()}
      >
        {download.isPending && <Spinner label="Downloading" size={12} />}
        {download.isPending ? 'Downloading…' : 'Download simulation'}
      </button>
      <CompressedDownload simulation={simulation} />
    </div>
  )
}
