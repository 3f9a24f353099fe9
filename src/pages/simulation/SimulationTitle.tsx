import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type KeyboardEvent } from 'react'
import { SIMULATION_NAME_MAX } from '../../../domain/limits.ts'
import { SIMULATION_NAME_EMPTY_MESSAGE, type Simulation } from '../../../domain/projects.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { IconEdit } from '../../components/icons.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { routeKey } from '../../queries/queries.ts'

/** The toast title of a refused rename (spec/results.md §8), with the server's message below. */
export const RENAME_FAILED_TITLE = 'Failed updating the simulation name.'

/**
 * The simulation header's title with inline rename (spec/results.md §2 "Simulation rename from
 * the header"): Rename (or a double click) turns it into a field; Enter or leaving it saves, Escape
 * cancels. An empty name is refused ('Simulation name cannot be empty.'); an unchanged one is
 * ignored; a refusal of the server is a toast.
 */
export function SimulationTitle({ simulation }: { simulation: Simulation }) {
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const errorId = useId()
  const rename = useMutation({
    mutationFn: (name: string) =>
      callApi('updateSimulation', { params: { id: String(simulation.id) }, body: { name } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(
        routeKey('getSimulation', { params: { id: String(simulation.id) } }),
        updated,
      )
      void queryClient.invalidateQueries({ queryKey: ['listProjects'] })
    },
  })

  const stop = () => {
    setDraft(null)
    setError(null)
  }
  const save = () => {
    if (draft === null) return
    const name = draft.trim()
    if (name === '') {
      setError(SIMULATION_NAME_EMPTY_MESSAGE)
      return
    }
    if (name.length > SIMULATION_NAME_MAX) {
      setError(`Simulation name must be at most ${SIMULATION_NAME_MAX} characters`)
      return
    }
    stop()
    if (name === simulation.name) return
    rename.mutate(name, {
      onError: (failure) =>
        pushToast({ kind: 'error', title: RENAME_FAILED_TITLE, description: messageOf(failure) }),
    })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      save()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      stop()
    }
  }

  if (draft !== null)
    return (
      <div className="sim-title sim-title--editing">
        <input
          className="input sim-title__input"
          aria-label="Simulation name"
          aria-invalid={error !== null || undefined}
          aria-describedby={error ? errorId : undefined}
          // One more than the limit, so the limit's message shows instead of a silent cut.
          maxLength={SIMULATION_NAME_MAX + 1}
          value={draft}
          autoFocus
          onChange={(event) => {
            setDraft(event.target.value)
            setError(null)
          }}
          onKeyDown={onKeyDown}
          onBlur={save}
        />
        {error && (
          <p id={errorId} className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
    )
  return (
    <div className="sim-title">
      <h1 className="page__title" onDoubleClick={() => setDraft(simulation.name)}>
        {rename.isPending ? rename.variables : simulation.name}
      </h1>
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label="Rename simulation"
        title="Rename simulation"
        onClick={() => setDraft(simulation.name)}
      >
        <IconEdit width={14} height={14} />
      </button>
    </div>
  )
}
