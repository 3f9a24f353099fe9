import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { TOAST_DURATION_MS } from '../../../../domain/constants.ts'
import { SELECT_PROJECT_MESSAGE, type SimulationSummary } from '../../../../domain/projects.ts'
import { callApi } from '../../../api/index.ts'
import { Dialog, DialogForm } from '../../../components/Dialog.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { useInvalidateProjects } from '../../../queries/invalidate.ts'
import { useSlimProjectsQuery } from '../../../queries/queries.ts'

/** Moves a simulation to another project that has no simulation of the same name. */
export function MoveSimulationDialog({
  simulation,
  currentProjectId,
  onClose,
}: {
  simulation: SimulationSummary
  currentProjectId: number
  onClose: () => void
}) {
  const selectId = useId()
  const errorId = useId()
  const [targetId, setTargetId] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const pushToast = usePushToast()
  const invalidateProjects = useInvalidateProjects()
  const projectsQuery = useSlimProjectsQuery()
  const targets = (projectsQuery.data?.results ?? []).filter((p) => p.id !== currentProjectId)
  const target = targets.find((p) => String(p.id) === targetId)
  const nameTaken = target?.simulations.some((s) => s.name === simulation.name) ?? false

  const error = nameTaken
    ? `${target?.name ?? 'This project'} already has a simulation with this name.`
    : submitted && !target
      ? SELECT_PROJECT_MESSAGE
      : null

  const move = useMutation({
    mutationFn: async (projectId: number) => {
      await callApi('moveSimulation', {
        params: { id: String(simulation.id) },
        body: { projectId },
      })
      await invalidateProjects()
    },
    onSuccess: onClose,
    onError: (failure) =>
      pushToast({
        kind: 'error',
        title: 'Could not move simulation',
        description:
          failure instanceof Error && failure.message ? failure.message : 'An error occurred',
        durationMs: TOAST_DURATION_MS.simulation,
      }),
  })

  return (
    <Dialog title="Move simulation" size="small" onClose={onClose}>
      <DialogForm
        onSubmit={() => {
          setSubmitted(true)
          if (target && !nameTaken) move.mutate(target.id)
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={nameTaken || move.isPending}
            >
              {move.isPending ? 'Moving…' : 'Move'}
            </button>
          </>
        }
      >
        <p className="dialog__text">
          Choose the project <strong>{simulation.name}</strong> should move to.
        </p>
        <div className="field">
          <label htmlFor={selectId} className="field__label">
            Project
          </label>
          <select
            id={selectId}
            className={`select${error ? ' input--invalid' : ''}`}
            value={targetId}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setTargetId(event.target.value)}
          >
            <option value="">
              {projectsQuery.isPending ? 'Loading projects…' : 'Select a project'}
            </option>
            {targets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          {error && (
            <p id={errorId} className="field__error">
              {error}
            </p>
          )}
        </div>
      </DialogForm>
    </Dialog>
  )
}
