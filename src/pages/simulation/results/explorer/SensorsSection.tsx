import { useState } from 'react'
import type { Sensor } from '../../../../../domain/meshes.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { NO_SENSORS_MESSAGE } from '../../../../../domain/rest/sensorRoutes.ts'
import { sampleRateLabel } from '../../../../../domain/sensorSampling.ts'
import { COLOUR_MAP_STATUS, canEditSensors, sensorMode } from '../../../../../domain/results.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { IconEdit, IconPlus } from '../../../../components/icons.tsx'
import { Spinner } from '../../../../components/Spinner.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { ArmedDeleteButton } from './ArmedDeleteButton.tsx'
import { ComputeSensorsButton } from './ComputeSensorsButton.tsx'
import {
  changedSensorMeshId,
  sensorSaveOf,
  useCreateSensorMutation,
  useDeleteSensorMutation,
  isRecomputationActive,
  useSensorRecomputationQuery,
  useSensorVisibilityMutation,
  useSensorsQuery,
  useUpdateSensorMutation,
} from './explorerApi.ts'
import {
  EXPLORER_TOASTS,
  SENSORS_COMPUTING_MESSAGE,
  SENSORS_LOCKED_MESSAGE,
  SENSOR_PRE_MODE_HINT,
  newSensorDraft,
  nextFreeName,
  sensorDraftOf,
} from './explorerModel.ts'
import { SensorDialog } from './SensorDialog.tsx'
import { NO_SERIES_MESSAGE, usePlotSensorSeries } from './sensorSeriesPlot.ts'

/** Compute Sensors waits for the run (issue 14: it stayed enabled while the simulation ran). */
export const COMPUTE_SENSORS_WHILE_RUNNING =
  'Sensors are computed from the outputs once the simulation is no longer running.'

/**
 * Sensors: the list with each sensor's pre/post mode at the shown output, add, edit and delete
 * (not while the simulation runs or is scheduled), the Compute Sensors job, and for a sensor the
 * run samples while stepping its rate and a Plot samples action (pressure at the solver's rate).
 */
export function SensorsSection({
  simulation,
  shownOutput,
  otherNames,
}: {
  simulation: Simulation
  shownOutput: number | null
  /** Names of volume clips and parts (sensor names must differ from them). */
  otherNames: readonly string[]
}) {
  const sensors = useSensorsQuery(simulation)
  const recomputation = useSensorRecomputationQuery(simulation)
  const record = recomputation.data ?? null
  const create = useCreateSensorMutation(simulation)
  const update = useUpdateSensorMutation()
  const remove = useDeleteSensorMutation()
  const visibility = useSensorVisibilityMutation(simulation)
  const pushToast = usePushToast()
  const plotSeries = usePlotSensorSeries(simulation)
  const [editing, setEditing] = useState<Sensor | 'new' | null>(null)
  const list = sensors.data ?? []
  const lockedReason = !canEditSensors(simulation.state)
    ? SENSORS_LOCKED_MESSAGE
    : isRecomputationActive(record?.state)
      ? SENSORS_COMPUTING_MESSAGE
      : null
  const editable = lockedReason === null
  const failed = record?.failedOutputs ?? []
  const namesExcept = (sensor: Sensor | null) => [
    ...otherNames,
    ...list.filter((other) => other.id !== sensor?.id).map((other) => other.name),
  ]

  const fail = (title: string) => (error: unknown) =>
    pushToast({ kind: 'error', title, description: messageOf(error) })

  return (
    <section className="explorer__section" aria-label="Sensors">
      <div className="explorer__section-header">
        <h2 className="explorer__heading">Sensors</h2>
        <button
          type="button"
          className="icon-button icon-button--small"
          aria-label="Add sensor"
          title={lockedReason ?? 'Add sensor'}
          disabled={!editable}
          onClick={() => setEditing('new')}
        >
          <IconPlus width={14} height={14} />
        </button>
      </div>
      <ComputeSensorsButton
        simulation={simulation}
        record={record}
        disabledReason={
          list.length === 0
            ? NO_SENSORS_MESSAGE
            : !canEditSensors(simulation.state)
              ? COMPUTE_SENSORS_WHILE_RUNNING
              : null
        }
      />
      {lockedReason && <p className="explorer__note">{lockedReason}</p>}
      {failed.length > 0 && (
        <div className="alert alert--warning explorer__alert" role="alert">
          {COLOUR_MAP_STATUS.sensorsFailed(failed)}
        </div>
      )}
      {sensors.isPending && <Spinner label="Loading sensors" />}
      {sensors.isError && (
        <p className="field__error">Could not load the sensors: {messageOf(sensors.error)}</p>
      )}
      {sensors.isSuccess && list.length === 0 && <p className="explorer__empty">No sensors yet.</p>}
      <ul className="explorer__list" aria-label="Sensor list">
        {list.map((sensor) => {
          const mode = sensorMode(sensor.outputs, shownOutput)
          return (
            <li key={sensor.id} className="explorer__item explorer__item--stacked">
              <div className="explorer__item-row">
                <input
                  type="checkbox"
                  className="explorer__visibility"
                  aria-label={`Show ${sensor.name}`}
                  checked={sensor.appearance.visibility}
                  onChange={(event) =>
                    visibility.mutate(
                      { sensorId: sensor.id, visibility: event.target.checked },
                      { onError: fail(EXPLORER_TOASTS.updateSensorFailed) },
                    )
                  }
                />
                <span className="explorer__name" title={sensor.name}>
                  {sensor.name}
                </span>
                <span className="tag">{sensor.kind === 'point' ? 'Point' : 'Surface'}</span>
                <span
                  className={`pill ${mode === 'post' ? 'pill--success' : 'pill--muted'}`}
                  aria-label={`${sensor.name} mode`}
                >
                  {mode === 'post' ? 'Post' : 'Pre'}
                </span>
                <button
                  type="button"
                  className="icon-button icon-button--small"
                  aria-label={`Edit ${sensor.name}`}
                  title={lockedReason ?? undefined}
                  disabled={!editable}
                  onClick={() => setEditing(sensor)}
                >
                  <IconEdit width={14} height={14} />
                </button>
                <ArmedDeleteButton
                  label={`Delete ${sensor.name}`}
                  disabled={!editable || remove.isPending}
                  onConfirm={() =>
                    remove.mutate(sensor.id, { onError: fail(EXPLORER_TOASTS.deleteSensorFailed) })
                  }
                />
              </div>
              {mode === 'pre' && <p className="explorer__hint">{SENSOR_PRE_MODE_HINT}</p>}
              {sensor.sampleRate != null && (
                <div className="explorer__item-row">
                  <span className="explorer__hint">
                    {sampleRateLabel(sensor.sampleRate)} while running
                  </span>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-label={`Plot samples of ${sensor.name}`}
                    onClick={() =>
                      plotSeries(sensor).then((plotted) => {
                        if (!plotted) pushToast({ kind: 'info', title: NO_SERIES_MESSAGE })
                      }, fail(EXPLORER_TOASTS.plotSensorFailed))
                    }
                  >
                    Plot samples
                  </button>
                </div>
              )}
            </li>
          )
        })}
      </ul>
      {editing !== null && (
        <SensorDialog
          mode={editing === 'new' ? 'add' : 'edit'}
          initial={
            editing === 'new'
              ? newSensorDraft(nextFreeName('Sensor', namesExcept(null)))
              : sensorDraftOf(editing)
          }
          takenNames={namesExcept(editing === 'new' ? null : editing)}
          saving={create.isPending || update.isPending}
          onClose={() => setEditing(null)}
          onSave={(draft) => {
            const save = sensorSaveOf(draft)
            const close = () => setEditing(null)
            if (editing === 'new')
              create.mutate(save, {
                onSuccess: close,
                onError: fail(EXPLORER_TOASTS.addSensorFailed),
              })
            else
              update.mutate(
                {
                  sensorId: editing.id,
                  meshId: changedSensorMeshId(editing, save),
                  save,
                  previousSampleRate: editing.sampleRate ?? null,
                },
                { onSuccess: close, onError: fail(EXPLORER_TOASTS.updateSensorFailed) },
              )
          }}
        />
      )}
    </section>
  )
}
