import { useQueryClient } from '@tanstack/react-query'
import { useAtom } from 'jotai'
import type { Simulation } from '../../../../../domain/projects.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import {
  changedSensorMeshId,
  sensorSaveOf,
  useCreateSensorMutation,
  useCreateVolumeClipMutation,
  useUpdateSensorMutation,
  useUpdateVolumeClipMutation,
  volumeClipSaveOf,
} from '../../results/explorer/explorerApi.ts'
import {
  EXPLORER_TOASTS,
  newSensorDraft,
  newVolumeClipDraft,
  nextFreeName,
  sensorDraftOf,
  volumeClipDraftOf,
  type ExplorerObject,
} from '../../results/explorer/explorerModel.ts'
import { SensorDialog } from '../../results/explorer/SensorDialog.tsx'
import { VolumeClipDialog } from '../../results/explorer/VolumeClipDialog.tsx'
import {
  useMaterialsQuery,
  usePartsQuery,
  useSetupSensorsQuery,
  useSetupVolumeClipsQuery,
} from '../queries/setupQueries.ts'
import { setupObjectDialogAtom } from '../state/setupAtoms.ts'

/**
 * The sensor and volume clip dialogs of the Setup view (the results explorer's, saving to the same
 * routes): opened by the Add menu, a double click or Enter in the explorer or the view. Names must
 * differ from every part, sensor and volume clip.
 */
export function SetupObjectDialogs({ simulation }: { simulation: Simulation }) {
  const [dialog, setDialog] = useAtom(setupObjectDialogAtom)
  const parts = usePartsQuery(simulation.id).data ?? []
  const materials = useMaterialsQuery(simulation.id).data ?? []
  const sensors = useSetupSensorsQuery(simulation.id).data ?? []
  const clips = useSetupVolumeClipsQuery(simulation.id).data ?? []
  const createSensor = useCreateSensorMutation(simulation)
  const updateSensor = useUpdateSensorMutation()
  const createClip = useCreateVolumeClipMutation(simulation)
  const updateClip = useUpdateVolumeClipMutation(simulation)
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  if (dialog === null) return null

  const close = () => setDialog(null)
  // The Input Validation bar checks sensors and clips too.
  const saved = () => {
    close()
    void queryClient.invalidateQueries({ queryKey: ['getSetupValidation'] })
  }
  const fail = (title: string) => (error: unknown) =>
    pushToast({ kind: 'error', title, description: messageOf(error) })
  const namesExcept = (kind: 'sensor' | 'volumeClip', id: number | null) => [
    ...parts.map((p) => p.name),
    ...sensors.filter((s) => kind !== 'sensor' || s.id !== id).map((s) => s.name),
    ...clips.filter((c) => kind !== 'volumeClip' || c.id !== id).map((c) => c.name),
  ]

  if (dialog.kind === 'sensor') {
    const sensor = dialog.sensorId === null ? null : sensors.find((s) => s.id === dialog.sensorId)
    if (sensor === undefined) return null
    const taken = namesExcept('sensor', dialog.sensorId)
    return (
      <SensorDialog
        mode={sensor === null ? 'add' : 'edit'}
        initial={
          sensor === null ? newSensorDraft(nextFreeName('Sensor', taken)) : sensorDraftOf(sensor)
        }
        takenNames={taken}
        saving={createSensor.isPending || updateSensor.isPending}
        onClose={close}
        onSave={(draft) => {
          const save = sensorSaveOf(draft)
          if (sensor === null)
            createSensor.mutate(save, {
              onSuccess: saved,
              onError: fail(EXPLORER_TOASTS.addSensorFailed),
            })
          else
            updateSensor.mutate(
              {
                sensorId: sensor.id,
                meshId: changedSensorMeshId(sensor, save),
                save,
                previousSampleRate: sensor.sampleRate ?? null,
              },
              { onSuccess: saved, onError: fail(EXPLORER_TOASTS.updateSensorFailed) },
            )
        }}
      />
    )
  }

  const clip = dialog.clipId === null ? null : clips.find((c) => c.id === dialog.clipId)
  if (clip === undefined) return null
  const taken = namesExcept('volumeClip', dialog.clipId)
  const fluids: ExplorerObject[] = materials.map((m) => ({
    objectId: `material:${m.id}`,
    name: m.name,
    sourceId: m.id,
  }))
  return (
    <VolumeClipDialog
      mode={clip === null ? 'add' : 'edit'}
      initial={
        clip === null
          ? newVolumeClipDraft(nextFreeName('Volume Clip', taken))
          : volumeClipDraftOf(clip)
      }
      takenNames={taken}
      fluids={fluids}
      saving={createClip.isPending || updateClip.isPending}
      onClose={close}
      onSave={(draft) => {
        const save = volumeClipSaveOf(draft)
        if (clip === null)
          createClip.mutate(save, {
            onSuccess: saved,
            onError: fail(EXPLORER_TOASTS.addVolumeClipFailed),
          })
        else
          updateClip.mutate(
            { clip, save },
            { onSuccess: saved, onError: fail(EXPLORER_TOASTS.updateVolumeClipFailed) },
          )
      }}
    />
  )
}
