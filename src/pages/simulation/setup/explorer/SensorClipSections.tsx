import { useSetAtom } from 'jotai'
import type { Simulation } from '../../../../../domain/projects.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { IconPlus } from '../../../../components/icons.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import {
  useDeleteSensorMutation,
  useDeleteVolumeClipMutation,
  useVolumeClipVisibilityMutation,
} from '../../results/explorer/explorerApi.ts'
import { EXPLORER_TOASTS } from '../../results/explorer/explorerModel.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { useSetupSensorsQuery, useSetupVolumeClipsQuery } from '../queries/setupQueries.ts'
import { setupObjectDialogAtom } from '../state/setupAtoms.ts'
import { ExplorerRow, type RowControls } from './ExplorerRow.tsx'
import type { ExplorerSections } from './explorerModel.ts'
import { sensorEditBlocker } from './openObject.ts'
import { WithReason } from './WithReason.tsx'

/** Sensors and volume clips: add (not while running or scheduled), visibility of clips, delete. */
export function SensorsAndClips({
  simulation,
  sections,
  controls,
}: {
  simulation: Simulation
  sections: ExplorerSections
  controls: RowControls
}) {
  const setup = useSetupEditable()
  const blocker = sensorEditBlocker(simulation, setup)
  const setDialog = useSetAtom(setupObjectDialogAtom)
  const sensors = useSetupSensorsQuery(simulation.id).data ?? []
  const clips = useSetupVolumeClipsQuery(simulation.id).data ?? []
  const removeSensor = useDeleteSensorMutation()
  const removeClip = useDeleteVolumeClipMutation()
  const visibility = useVolumeClipVisibilityMutation(simulation)
  const pushToast = usePushToast()
  const fail = (title: string) => (error: unknown) =>
    pushToast({ kind: 'error', title, description: messageOf(error) })

  return (
    <>
      <section className="setup-explorer__section" aria-labelledby="setup-explorer-sensors">
        <div className="setup-explorer__section-header">
          <h2 className="setup-explorer__heading" id="setup-explorer-sensors">
            Sensors
          </h2>
          <WithReason reason={blocker}>
            <button
              type="button"
              className="icon-button icon-button--small"
              aria-label="Add sensor"
              disabled={blocker !== null}
              onClick={() => setDialog({ kind: 'sensor', sensorId: null })}
            >
              <IconPlus width={14} height={14} />
            </button>
          </WithReason>
        </div>
        {sections.sensors.length === 0 && <p className="setup-explorer__empty">No sensors yet.</p>}
        <ul className="setup-explorer__list" aria-labelledby="setup-explorer-sensors">
          {sections.sensors.map((entry) => {
            const sensor = sensors.find((s) => `sensor:${s.id}` === entry.id)
            if (!sensor) return null
            return (
              <ExplorerRow
                key={entry.id}
                entry={entry}
                controls={controls}
                tag={sensor.kind === 'point' ? 'Point' : 'Surface'}
              >
                <WithReason reason={blocker}>
                  <ArmedDeleteButton
                    label={`Delete ${sensor.name}`}
                    disabled={blocker !== null || removeSensor.isPending}
                    onConfirm={() =>
                      removeSensor.mutate(sensor.id, {
                        onError: fail(EXPLORER_TOASTS.deleteSensorFailed),
                      })
                    }
                  />
                </WithReason>
              </ExplorerRow>
            )
          })}
        </ul>
      </section>

      <section className="setup-explorer__section" aria-labelledby="setup-explorer-clips">
        <div className="setup-explorer__section-header">
          <h2 className="setup-explorer__heading" id="setup-explorer-clips">
            Volume clips
          </h2>
          <WithReason reason={blocker}>
            <button
              type="button"
              className="icon-button icon-button--small"
              aria-label="Add volume clip"
              disabled={blocker !== null}
              onClick={() => setDialog({ kind: 'volumeClip', clipId: null })}
            >
              <IconPlus width={14} height={14} />
            </button>
          </WithReason>
        </div>
        {sections.volumeClips.length === 0 && (
          <p className="setup-explorer__empty">No volume clips yet.</p>
        )}
        <ul className="setup-explorer__list" aria-labelledby="setup-explorer-clips">
          {sections.volumeClips.map((entry) => {
            const clip = clips.find((c) => `volume_clip:${c.id}` === entry.id)
            if (!clip) return null
            return (
              <ExplorerRow key={entry.id} entry={entry} controls={controls}>
                <WithReason reason={blocker}>
                  <input
                    type="checkbox"
                    className="setup-explorer__visibility"
                    aria-label={`Show ${clip.name}`}
                    checked={clip.appearance.visibility}
                    disabled={blocker !== null}
                    onChange={(event) =>
                      visibility.mutate({ clipId: clip.id, visibility: event.target.checked })
                    }
                  />
                </WithReason>
                <WithReason reason={blocker}>
                  <ArmedDeleteButton
                    label={`Delete ${clip.name}`}
                    disabled={blocker !== null || removeClip.isPending}
                    onConfirm={() =>
                      removeClip.mutate(clip.id, {
                        onError: fail(EXPLORER_TOASTS.deleteVolumeClipFailed),
                      })
                    }
                  />
                </WithReason>
              </ExplorerRow>
            )
          })}
        </ul>
      </section>
    </>
  )
}
