import { useState } from 'react'
import {
  isJobActive,
  jobMessagesShown,
  jobWidgetState,
  JOB_TEXTS,
  type JobMessage,
  type JobState,
} from '../../../../domain/jobs.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { Spinner } from '../../../components/Spinner.tsx'
import { StopComputationDialog } from '../../../components/StopComputationDialog.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'

/** How a job state reads in its widget (an expired export reads as unknown). */
export const JOB_STATE_LABELS: Record<Exclude<JobState, 'expired'>, string> = {
  scheduled: 'Scheduled',
  running: 'Running',
  completed: 'Completed',
  done: 'Completed',
  canceled: 'Canceled',
  failed: 'Failed',
  unknown: 'Unknown',
}

export interface JobWidgetProps {
  /** Discretization, Sensors, Statistics, Tessellation or Export. */
  title: string
  state: JobState
  /** 0 … 1. */
  progress: number
  /** Hide the bar (a tessellation running at 0 %). */
  showProgress?: boolean
  /** A line under the state (e.g. '3 of 8 outputs'). */
  detail?: string
  errors?: readonly JobMessage[]
  warnings?: readonly JobMessage[]
  /** What stopping costs, in the 'Stop computation?' dialog. */
  stopText: string
  /** Stops the job; a rejection is shown as a toast titled `stopFailedTitle`. */
  onStop: (() => Promise<unknown>) | null
  stopFailedTitle: string
}

/**
 * One job of Jobs Progress (spec/results.md §4 "Jobs"): state, progress while active, Stop
 * computation with 'Stop computation?' → 'Yes, stop' → 'Stopping...' → 'Done'; a failed job lists
 * its errors, any other its warnings.
 */
export function JobWidget(props: JobWidgetProps) {
  const { title, progress } = props
  const state = jobWidgetState(props.state)
  const active = isJobActive(state)
  const percent = Math.round(Math.min(1, Math.max(0, progress)) * 100)
  const shown = jobMessagesShown(state) === 'errors' ? (props.errors ?? []) : (props.warnings ?? [])
  const [dialog, setDialog] = useState<'closed' | 'confirm' | 'stopping' | 'done'>('closed')
  const pushToast = usePushToast()

  const stop = () => {
    if (!props.onStop) return
    setDialog('stopping')
    props.onStop().then(
      () => setDialog('done'),
      (error: unknown) => {
        setDialog('closed')
        pushToast({ kind: 'error', title: props.stopFailedTitle, description: messageOf(error) })
      },
    )
  }

  return (
    <section
      className={`job-widget job-widget--${state}`}
      aria-label={`${title} job`}
      data-testid={`job-${title.toLowerCase()}`}
    >
      <header className="job-widget__header">
        <h3 className="job-widget__title">{title}</h3>
        <span className="job-widget__state" aria-live="polite">
          {active && <Spinner label={`${title} running`} size={12} />}
          {JOB_STATE_LABELS[state]}
        </span>
      </header>
      {active && props.showProgress !== false && (
        <div className="job-widget__progress">
          <progress max={100} value={percent} aria-label={`${title} progress`} />
          <span aria-hidden="true">{percent} %</span>
        </div>
      )}
      {props.detail && <p className="job-widget__detail">{props.detail}</p>}
      {shown.length > 0 && (
        <ul
          className={`job-widget__messages job-widget__messages--${jobMessagesShown(state)}`}
          aria-label={`${title} ${jobMessagesShown(state)}`}
        >
          {shown.map((message, index) => (
            <li key={index}>
              {message.description}
              {message.details && <span> {message.details.description}</span>}
            </li>
          ))}
        </ul>
      )}
      {active && props.onStop && (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => setDialog('confirm')}
        >
          {JOB_TEXTS.stopButton}
        </button>
      )}
      {dialog !== 'closed' && (
        <StopComputationDialog
          text={props.stopText}
          pending={dialog === 'stopping'}
          done={dialog === 'done'}
          onStop={stop}
          onClose={() => setDialog('closed')}
        />
      )}
    </section>
  )
}
