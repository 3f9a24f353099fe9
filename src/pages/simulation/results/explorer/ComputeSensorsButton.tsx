import { useState } from 'react'
import { JOB_TEXTS } from '../../../../../domain/jobs.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { StopComputationDialog } from '../../../../components/StopComputationDialog.tsx'
import { Spinner } from '../../../../components/Spinner.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import type { SensorRecomputation } from '../../../../../domain/rest/sensorRoutes.ts'
import {
  isRecomputationActive,
  useStartSensorRecomputationMutation,
  useStopSensorRecomputationMutation,
} from './explorerApi.ts'
import { EXPLORER_TOASTS } from './explorerModel.ts'

/**
 * Compute Sensors, or Stop computation while the recomputation is scheduled or running (then
 * polled every 2 s). Stopping asks first: there is no resume.
 */
export function ComputeSensorsButton({
  simulation,
  record,
  disabledReason,
}: {
  simulation: Simulation
  /** The latest recomputation (useSensorRecomputationQuery); null while unknown. */
  record: SensorRecomputation | null
  /** Why computing is not possible now (no sensors …); null: allowed. */
  disabledReason: string | null
}) {
  const start = useStartSensorRecomputationMutation(simulation)
  const pushToast = usePushToast()
  const [confirming, setConfirming] = useState(false)
  const active = isRecomputationActive(record?.state)

  return (
    <div className="explorer__compute">
      {active ? (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => setConfirming(true)}
        >
          {JOB_TEXTS.stopButton}
        </button>
      ) : (
        <button
          type="button"
          className="button button--primary button--small"
          disabled={disabledReason !== null || start.isPending || record === null}
          title={disabledReason ?? undefined}
          onClick={() =>
            start.mutate(undefined, {
              onError: (error) =>
                pushToast({
                  kind: 'error',
                  title: EXPLORER_TOASTS.computeSensorsFailed,
                  description: messageOf(error),
                }),
            })
          }
        >
          {JOB_TEXTS.computeSensors}
        </button>
      )}
      {active && record && (
        <>
          <Spinner label="Computing sensors" size={12} />
          <span className="explorer__progress" aria-label="Sensor computation progress">
            {record.state === 'scheduled' ? 'Scheduled' : `${Math.round(record.progress * 100)}%`}
          </span>
        </>
      )}
      {confirming && (
        <StopSensorsDialog simulation={simulation} onClose={() => setConfirming(false)} />
      )}
    </div>
  )
}

/** 'Stop computation?': 'Yes, stop' → 'Stopping...' → 'Done'. */
function StopSensorsDialog({
  simulation,
  onClose,
}: {
  simulation: Simulation
  onClose: () => void
}) {
  const stop = useStopSensorRecomputationMutation(simulation)
  const pushToast = usePushToast()
  return (
    <StopComputationDialog
      text={JOB_TEXTS.stopSensorsWarning}
      pending={stop.isPending}
      done={stop.isSuccess}
      onStop={() =>
        stop.mutate(undefined, {
          onError: (error) => {
            pushToast({
              kind: 'error',
              title: EXPLORER_TOASTS.stopComputationFailed,
              description: messageOf(error),
            })
            onClose()
          },
        })
      }
      onClose={onClose}
    />
  )
}
