import { JOB_TEXTS } from '../../domain/jobs.ts'
import { Dialog } from './Dialog.tsx'

/**
 * 'Stop computation?' of a job widget (spec/results.md): Cancel or 'Yes, stop' → 'Stopping...' →
 * 'Done', which closes it. The caller runs the stop and reports a refusal.
 */
export function StopComputationDialog({
  text,
  pending,
  done,
  onStop,
  onClose,
}: {
  /** What stopping costs (e.g. that sensors must be recomputed from the beginning). */
  text: string
  pending: boolean
  done: boolean
  onStop: () => void
  onClose: () => void
}) {
  return (
    <Dialog title={JOB_TEXTS.stopTitle} onClose={onClose} size="small">
      <div className="dialog__body">
        <p className="dialog__text">{text}</p>
      </div>
      <footer className="dialog__footer">
        {!done && (
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        )}
        <button
          type="button"
          className="button button--danger"
          disabled={pending}
          onClick={done ? onClose : onStop}
        >
          {done ? JOB_TEXTS.stopDone : pending ? JOB_TEXTS.stopping : JOB_TEXTS.stopConfirm}
        </button>
      </footer>
    </Dialog>
  )
}
