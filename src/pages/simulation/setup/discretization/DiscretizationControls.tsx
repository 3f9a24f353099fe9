import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import {
  DISCRETIZATION_BLOCKED,
  canDiscretize,
  type Discretization,
} from '../../../../../domain/discretization.ts'
import { JOB_TEXTS, isJobSucceeded } from '../../../../../domain/jobs.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { formatCount } from '../../../../../domain/units.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { callApi } from '../../../../api/index.ts'
import { Spinner } from '../../../../components/Spinner.tsx'
import { StopComputationDialog } from '../../../../components/StopComputationDialog.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { Tooltip } from '../../../../components/Tooltip.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import {
  paramsOf,
  useDiscretizationQuery,
  usePartsQuery,
  useSetupIssuesQuery,
} from '../queries/setupQueries.ts'
import { useSetupMutation } from '../queries/useSetupMutation.ts'
import { DiscretizationSummaryView, DiscretizationMessages } from './DiscretizationSummary.tsx'
import {
  discretizationStatusText,
  isDiscretizationActive,
  summaryOf,
} from './discretizationModel.ts'
import { useDiscretizationOutcome } from './useDiscretizationOutcome.ts'
import './discretization.css'
import { trackEvent } from '../../../../analytics/analytics.ts'

/** The warning of the cancel dialog: a cancelled discretization cannot be resumed. */
export const CANCEL_DISCRETIZATION_WARNING =
  'There is no resume option. You will need to discretize the setup again.'

/**
 * Discretize and its job widget, in the Setup toolbar row (spec/setup.md §5, §8; spec/results.md
 * "Jobs"). Discretize is refused while the Input Validation bar has errors or missing (info) items:
 * 'Discretization failed' / 'There are errors in your setup. Please check the Input Validation
 * bar.' A running discretization is polled every 0.5 s and shows its progress and Cancel (after
 * 'Stop computation?'); a finished one its particle counts, errors and warnings.
 */
export function DiscretizationControls({ simulation }: { simulation: Simulation }) {
  const setup = useSetupEditable()
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  const record = useDiscretizationQuery(simulation.id).data
  const validation = useSetupIssuesQuery(simulation.id).data
  const partsQuery = usePartsQuery(simulation.id)
  const parts = partsQuery.data
  const [confirming, setConfirming] = useState(false)
  const watchStarted = useDiscretizationOutcome(record, partsQuery)
  const key = routeKey('getDiscretization', paramsOf(simulation.id))

  const start = useSetupMutation({
    mutationFn: () => callApi('startDiscretization', { ...paramsOf(simulation.id), body: {} }),
    failure: { title: JOB_TEXTS.discretizationFailed },
    invalidate: ['getDiscretization'],
    onSuccess: (started: Discretization) => {
      watchStarted(started)
      // a record of the same id fetched meanwhile is as new as the start's reply or newer
      queryClient.setQueryData<Discretization | null>(key, (current) =>
        current?.id === started.id ? current : started,
      )
    },
  })
  const active = isDiscretizationActive(record)

  const discretize = () => {
    if (active || start.isPending) return
    trackEvent('ui_discretize-button_clicked', { simulationId: simulation.id })
    if (validation && (!validation.runnable || !canDiscretize(validation.issues))) {
      pushToast({
        kind: 'error',
        title: DISCRETIZATION_BLOCKED.title,
        description: DISCRETIZATION_BLOCKED.text,
      })
      return
    }
    start.mutate(undefined)
  }

  const reason = !setup.editable ? setup.reason : null
  const button = (
    <button
      type="button"
      className="button button--primary button--small"
      disabled={!setup.editable || active || start.isPending || !validation}
      onClick={discretize}
    >
      {start.isPending ? 'Starting…' : 'Discretize'}
    </button>
  )

  return (
    <div className="discretization" role="group" aria-label="Discretization">
      {reason ? <Tooltip content={reason}>{button}</Tooltip> : button}
      {record && (
        <DiscretizationWidget
          record={record}
          partNames={new Map((parts ?? []).map((p) => [p.id, p.name]))}
          onCancel={() => setConfirming(true)}
          canCancel={setup.editable}
        />
      )}
      {confirming && (
        <CancelDialog simulationId={simulation.id} onClose={() => setConfirming(false)} />
      )}
    </div>
  )
}

/** The job widget: state, progress and Cancel while active; counts and messages once ended. */
function DiscretizationWidget(props: {
  record: Discretization
  partNames: ReadonlyMap<number, string>
  onCancel: () => void
  canCancel: boolean
}) {
  const { record } = props
  const active = isDiscretizationActive(record)
  const summary = summaryOf(record)
  const messageCount = record.errors.length + record.warnings.length
  const percent = Math.round(record.progress * 100)
  return (
    <div className={`discretization__widget discretization__widget--${record.state}`}>
      {active && <Spinner label="Discretizing" size={12} />}
      <span className="discretization__status" role="status" data-testid="discretization-status">
        {discretizationStatusText(record)}
      </span>
      {record.state === 'running' && (
        <>
          <progress
            className="discretization__bar"
            max={100}
            value={percent}
            aria-label="Discretization progress"
          />
          <span className="discretization__percent" aria-hidden="true">
            {percent} %
          </span>
        </>
      )}
      {active && (
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={!props.canCancel}
          onClick={props.onCancel}
        >
          Cancel
        </button>
      )}
      {!active && (summary || messageCount > 0) && (
        <details className="discretization__details">
          <summary>
            {summary && isJobSucceeded(record.state)
              ? `${formatCount(summary.particleCount)} particles`
              : `${messageCount} ${messageCount === 1 ? 'message' : 'messages'}`}
          </summary>
          <div className="discretization__panel">
            {summary && <DiscretizationSummaryView summary={summary} />}
            <DiscretizationMessages record={record} partNames={props.partNames} />
          </div>
        </details>
      )}
    </div>
  )
}

/** 'Stop computation?' → 'Yes, stop' → 'Stopping...' → 'Done'; a refusal: 'Canceling discretization failed'. */
function CancelDialog({ simulationId, onClose }: { simulationId: number; onClose: () => void }) {
  const queryClient = useQueryClient()
  const cancel = useSetupMutation({
    mutationFn: () => callApi('cancelDiscretization', paramsOf(simulationId)),
    failure: { title: JOB_TEXTS.cancelDiscretizationFailed },
    invalidate: ['getDiscretization'],
    onSuccess: (record: Discretization) =>
      queryClient.setQueryData(routeKey('getDiscretization', paramsOf(simulationId)), record),
  })
  return (
    <StopComputationDialog
      text={CANCEL_DISCRETIZATION_WARNING}
      pending={cancel.isPending}
      done={cancel.isSuccess}
      onStop={() => cancel.mutate(undefined, { onError: onClose })}
      onClose={onClose}
    />
  )
}
