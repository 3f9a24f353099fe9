import { useAtomValue } from 'jotai'
import { useState } from 'react'
import type { VolumeClip } from '../../../../../domain/meshes.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { IconEdit, IconPlus } from '../../../../components/icons.tsx'
import { Spinner } from '../../../../components/Spinner.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { ArmedDeleteButton } from './ArmedDeleteButton.tsx'
import { clipMaskInfoAtom } from './explorerAtoms.ts'
import {
  useCreateVolumeClipMutation,
  useDeleteVolumeClipMutation,
  useUpdateVolumeClipMutation,
  useVolumeClipVisibilityMutation,
  useVolumeClipsQuery,
  volumeClipSaveOf,
} from './explorerApi.ts'
import {
  EXPLORER_TOASTS,
  newVolumeClipDraft,
  nextFreeName,
  volumeClipDraftOf,
  volumeClipItemMessage,
  volumeClipItemState,
  type ExplorerObject,
} from './explorerModel.ts'
import { VolumeClipDialog } from './VolumeClipDialog.tsx'

/** Volume clips: list with visibility and item state at the shown output, add, edit, delete. */
export function VolumeClipsSection({
  simulation,
  fluids,
  otherNames,
}: {
  simulation: Simulation
  fluids: readonly ExplorerObject[]
  /** Names of sensors and parts (clip names must differ from them). */
  otherNames: readonly string[]
}) {
  const clips = useVolumeClipsQuery(simulation)
  const create = useCreateVolumeClipMutation(simulation)
  const update = useUpdateVolumeClipMutation(simulation)
  const visibility = useVolumeClipVisibilityMutation(simulation)
  const remove = useDeleteVolumeClipMutation()
  const maskInfo = useAtomValue(clipMaskInfoAtom)
  const pushToast = usePushToast()
  const [editing, setEditing] = useState<VolumeClip | 'new' | null>(null)
  const list = clips.data ?? []
  const namesExcept = (clip: VolumeClip | null) => [
    ...otherNames,
    ...list.filter((other) => other.id !== clip?.id).map((other) => other.name),
  ]
  const fail = (title: string) => (error: unknown) =>
    pushToast({ kind: 'error', title, description: messageOf(error) })
  const materialName = (materialId: number | null) =>
    materialId === null
      ? 'All materials'
      : (fluids.find((fluid) => fluid.sourceId === materialId)?.name ?? `Material ${materialId}`)

  return (
    <section className="explorer__section" aria-label="Volume clips">
      <div className="explorer__section-header">
        <h2 className="explorer__heading">Volume clips</h2>
        <button
          type="button"
          className="icon-button icon-button--small"
          aria-label="Add volume clip"
          title="Add volume clip"
          onClick={() => setEditing('new')}
        >
          <IconPlus width={14} height={14} />
        </button>
      </div>
      {clips.isPending && <Spinner label="Loading volume clips" />}
      {clips.isError && (
        <p className="field__error">Could not load the volume clips: {messageOf(clips.error)}</p>
      )}
      {clips.isSuccess && list.length === 0 && (
        <p className="explorer__empty">No volume clips yet.</p>
      )}
      <ul className="explorer__list" aria-label="Volume clip list">
        {list.map((clip) => {
          const state = volumeClipItemState(maskInfo[clip.id])
          const message = volumeClipItemMessage(state)
          return (
            <li
              key={clip.id}
              className="explorer__item explorer__item--stacked"
              data-state={state}
              aria-label={clip.name}
            >
              <div className="explorer__item-row">
                <input
                  type="checkbox"
                  className="explorer__visibility"
                  aria-label={`Show ${clip.name}`}
                  checked={clip.appearance.visibility}
                  onChange={(event) =>
                    visibility.mutate(
                      { clipId: clip.id, visibility: event.target.checked },
                      { onError: fail(EXPLORER_TOASTS.updateVolumeClipFailed) },
                    )
                  }
                />
                <span className="explorer__name" title={clip.name}>
                  {clip.name}
                </span>
                {state === 'loading' && <Spinner label={`Loading ${clip.name}`} size={12} />}
                <button
                  type="button"
                  className="icon-button icon-button--small"
                  aria-label={`Edit ${clip.name}`}
                  onClick={() => setEditing(clip)}
                >
                  <IconEdit width={14} height={14} />
                </button>
                <ArmedDeleteButton
                  label={`Delete ${clip.name}`}
                  disabled={remove.isPending}
                  onConfirm={() =>
                    remove.mutate(clip.id, {
                      onError: fail(EXPLORER_TOASTS.deleteVolumeClipFailed),
                    })
                  }
                />
              </div>
              <p className="explorer__caption">
                {materialName(clip.materialId)}
                {clip.inverted ? ' · inverted' : ''}
              </p>
              {message && <p className="explorer__hint">{message}</p>}
            </li>
          )
        })}
      </ul>
      {editing !== null && (
        <VolumeClipDialog
          mode={editing === 'new' ? 'add' : 'edit'}
          initial={
            editing === 'new'
              ? newVolumeClipDraft(nextFreeName('Volume Clip', namesExcept(null)))
              : volumeClipDraftOf(editing)
          }
          takenNames={namesExcept(editing === 'new' ? null : editing)}
          fluids={fluids}
          saving={create.isPending || update.isPending}
          onClose={() => setEditing(null)}
          onSave={(draft) => {
            const save = volumeClipSaveOf(draft)
            const close = () => setEditing(null)
            if (editing === 'new')
              create.mutate(save, {
                onSuccess: close,
                onError: fail(EXPLORER_TOASTS.addVolumeClipFailed),
              })
            else
              update.mutate(
                { clip: editing, save },
                { onSuccess: close, onError: fail(EXPLORER_TOASTS.updateVolumeClipFailed) },
              )
          }}
        />
      )}
    </section>
  )
}
