import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { NOTE_MAX_LENGTH, type Variable } from '../../../../../domain/dashboards.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { Image } from '../../../../../domain/rest/imageRoutes.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { IconTrash } from '../../../../components/icons.tsx'
import { formatDateTime } from '../../../../lib/format.ts'
import { fetchImageUrl } from '../../results/canvas/saveImage.ts'
import { useSimulationImagesQuery } from '../dashboardQueries.ts'

/** A note: text saved with Save (or Ctrl+Enter); unsaved edits are marked. */
export function NoteTileBody({
  text,
  onSave,
  saving,
}: {
  text: string
  onSave: (text: string) => void
  saving: boolean
}) {
  const [draft, setDraft] = useState(text)
  const [savedText, setSavedText] = useState(text)
  if (savedText !== text) {
    // The saved text changed (saved here or elsewhere): the draft starts from it again.
    setSavedText(text)
    setDraft(text)
  }
  const changed = draft !== text
  return (
    <form
      className="dashboard-note"
      onSubmit={(event) => {
        event.preventDefault()
        onSave(draft)
      }}
    >
      <textarea
        className="input input--textarea dashboard-note__text"
        aria-label="Note"
        placeholder="Write a note about this run"
        maxLength={NOTE_MAX_LENGTH}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault()
            onSave(draft)
          }
        }}
      />
      <div className="dashboard-note__footer">
        <span className="dashboard-note__state" aria-live="polite">
          {saving ? 'Saving…' : changed ? 'Unsaved changes' : ''}
        </span>
        <button type="submit" className="button button--small" disabled={!changed || saving}>
          Save note
        </button>
      </div>
    </form>
  )
}

/** The simulation's variables, with a form to add one and a remove button on each. */
export function VariablesTileBody({
  variables,
  onAdd,
  onRemove,
}: {
  variables: readonly Variable[]
  onAdd: (variable: { name: string; value: string; unit: string }) => Promise<unknown>
  onRemove: (id: number) => void
}) {
  const [name, setName] = useState('')
  const [value, setValue] = useState('')
  const [unit, setUnit] = useState('')
  const [error, setError] = useState<string | null>(null)
  return (
    <div className="dashboard-variables">
      {variables.length === 0 ? (
        <p className="placeholder__text">No variables yet.</p>
      ) : (
        <ul className="dashboard-variables__list">
          {variables.map((variable) => (
            <li key={variable.id}>
              <span className="dashboard-variables__name">{variable.name}</span>
              <span>
                {variable.value}
                {variable.unit ? ` ${variable.unit}` : ''}
              </span>
              <button
                type="button"
                className="icon-button icon-button--small"
                aria-label={`Remove variable ${variable.name}`}
                onClick={() => onRemove(variable.id)}
              >
                <IconTrash />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="dashboard-variables__form"
        onSubmit={(event) => {
          event.preventDefault()
          setError(null)
          onAdd({ name, value, unit }).then(
            () => {
              setName('')
              setValue('')
              setUnit('')
            },
            (failure: unknown) => setError(messageOf(failure, 'Adding the variable failed.')),
          )
        }}
      >
        <input
          className="input input--small"
          aria-label="Variable name"
          placeholder="Name"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <input
          className="input input--small"
          aria-label="Variable value"
          placeholder="Value"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <input
          className="input input--small dashboard-variables__unit"
          aria-label="Variable unit"
          placeholder="Unit"
          value={unit}
          onChange={(event) => setUnit(event.target.value)}
        />
        <button
          type="submit"
          className="button button--small"
          disabled={name.trim() === '' || value.trim() === ''}
        >
          Add variable
        </button>
      </form>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

/** The picker's first choice: show whatever the simulation's post image is. */
export const POST_IMAGE_CHOICE = 'Post image (latest Save Image)'

/**
 * An image: the chosen one, else the simulation's post image (Save Image on the Results screen).
 * The picker above it offers every image of the simulation (GET /simulations/{id}/images).
 */
export function ImageTileBody({
  simulation,
  imageId,
  onPick,
  saving,
}: {
  simulation: Simulation
  imageId: number | null
  onPick: (imageId: number | null) => void
  saving: boolean
}) {
  const images = useSimulationImagesQuery(simulation.id)
  const shown = imageId ?? simulation.postImageId
  const list = images.data ?? []
  const label = (image: Image) =>
    `${image.name} · ${formatDateTime(image.createdAt)}${image.id === simulation.postImageId ? ' (post image)' : ''}`
  const picked = list.find((image) => image.id === imageId)
  return (
    <div className="dashboard-image-tile">
      <select
        className="select select--compact dashboard-image-tile__picker"
        aria-label="Image shown"
        // A narrow tile cuts the choice short: its whole text on hover.
        title={imageId === null ? POST_IMAGE_CHOICE : picked ? label(picked) : 'Chosen image'}
        value={imageId === null ? '' : String(imageId)}
        disabled={saving}
        onChange={(event) => onPick(event.target.value === '' ? null : Number(event.target.value))}
      >
        <option value="">{POST_IMAGE_CHOICE}</option>
        {imageId !== null && !list.some((image) => image.id === imageId) && (
          // Chosen earlier and no longer listed (still loading, or not of this simulation).
          <option value={String(imageId)}>Chosen image</option>
        )}
        {list.map((image) => (
          <option key={image.id} value={String(image.id)}>
            {label(image)}
          </option>
        ))}
      </select>
      {images.isError && (
        <p className="placeholder__text" role="alert">
          The images of this simulation could not be listed.
        </p>
      )}
      <ImagePicture
        shown={shown}
        alt={
          imageId === null
            ? `Post image of ${simulation.name}`
            : `${picked?.name ?? 'Saved image'} of ${simulation.name}`
        }
      />
    </div>
  )
}

/** The image's bytes (GET /images/{id}) as an <img>, with its loading and failure states. */
function ImagePicture({ shown, alt }: { shown: number | null; alt: string }) {
  const image = useQuery({
    queryKey: ['dashboardImage', shown],
    queryFn: ({ signal }) => fetchImageUrl(shown as number, signal),
    enabled: shown !== null,
    gcTime: 0,
    staleTime: Infinity,
  })
  const url = image.data
  useEffect(() => {
    if (url === undefined) return
    return () => URL.revokeObjectURL(url)
  }, [url])
  if (shown === null)
    return (
      <p className="placeholder__text">
        No image yet: save one from the Results screen with Save Image.
      </p>
    )
  if (image.isError)
    return (
      <p className="placeholder__text" role="alert">
        The image could not be loaded.
      </p>
    )
  if (url === undefined) return <p className="placeholder__text">Loading the image…</p>
  return <img className="dashboard-image" src={url} alt={alt} />
}
