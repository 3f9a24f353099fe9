import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { TOAST_DURATION_MS } from '../../../../domain/constants.ts'
import {
  SIMULATION_DESCRIPTION_INPUT_MAX,
  SIMULATION_DESCRIPTION_MAX,
  SIMULATION_NAME_INPUT_MAX,
  SIMULATION_NAME_MAX,
} from '../../../../domain/limits.ts'
import {
  NAME_USED_MESSAGE,
  SimulationDescriptionSchema,
  SimulationNameSchema,
  type Project,
  type SimulationSummary,
} from '../../../../domain/projects.ts'
import { isApiError, messageOf } from '../../../api/ApiError.ts'
import { callApi } from '../../../api/index.ts'
import { Dialog, DialogForm } from '../../../components/Dialog.tsx'
import { TextField } from '../../../components/Field.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { firstIssue, isNameTaken } from '../../../lib/validation.ts'
import { useInvalidateProjects } from '../../../queries/invalidate.ts'

/**
 * 'New Simulation' (side form) or 'Rename' (modal) of a simulation: name and description, a name
 * must be unique in its project. Rename keeps Save disabled while anything is wrong.
 */
export function SimulationFormDialog({
  project,
  simulation,
  onClose,
}: {
  project: Project
  /** The simulation to rename; none for a new one. */
  simulation?: SimulationSummary
  onClose: () => void
}) {
  const renaming = simulation !== undefined
  const [name, setName] = useState(simulation?.name ?? '')
  const [description, setDescription] = useState(simulation?.description ?? '')
  const [touched, setTouched] = useState({ name: false, description: false })
  const [serverNameError, setServerNameError] = useState<string | null>(null)
  const pushToast = usePushToast()
  const invalidateProjects = useInvalidateProjects()

  const otherNames = project.simulations.filter((s) => s.id !== simulation?.id).map((s) => s.name)
  const nameError =
    firstIssue(SimulationNameSchema, name) ??
    (isNameTaken(name, otherNames) ? NAME_USED_MESSAGE : null) ??
    serverNameError
  const descriptionError = firstIssue(SimulationDescriptionSchema, description)
  const hasErrors = nameError !== null || descriptionError !== null
  const unchanged =
    renaming && name.trim() === simulation.name && description === simulation.description

  const save = useMutation({
    mutationFn: async () => {
      const body = { name: name.trim(), description }
      if (simulation)
        await callApi('updateSimulation', { params: { id: String(simulation.id) }, body })
      else await callApi('createSimulation', { params: { projectId: String(project.id) }, body })
      await invalidateProjects()
    },
    onSuccess: onClose,
    onError: (error) => {
      if (isApiError(error) && error.body?.code === 'duplicate_key') {
        setServerNameError(NAME_USED_MESSAGE)
        setTouched((t) => ({ ...t, name: true }))
      }
      pushToast({
        kind: 'error',
        title: renaming ? 'Editing simulation failed' : 'Adding simulation failed',
        description: messageOf(error),
        durationMs: TOAST_DURATION_MS.simulation,
      })
    },
  })

  function submit() {
    setTouched({ name: true, description: true })
    if (hasErrors) return
    if (unchanged) {
      onClose()
      return
    }
    save.mutate()
  }

  return (
    <Dialog
      title={renaming ? 'Edit simulation' : 'New simulation'}
      subtitle={renaming ? undefined : <>In {project.name}</>}
      variant={renaming ? 'modal' : 'side'}
      onClose={onClose}
    >
      <DialogForm
        onSubmit={submit}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={save.isPending || (renaming && hasErrors)}
            >
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
          </>
        }
      >
        <TextField
          label="Name"
          value={name}
          onChange={(value) => {
            setName(value)
            setServerNameError(null)
            setTouched((t) => ({ ...t, name: true }))
          }}
          error={touched.name ? nameError : null}
          maxLength={SIMULATION_NAME_INPUT_MAX}
          limit={SIMULATION_NAME_MAX}
          placeholder="e.g. Baseline, 2 mm particles"
        />
        <TextField
          label="Description"
          multiline
          value={description}
          onChange={(value) => {
            setDescription(value)
            setTouched((t) => ({ ...t, description: true }))
          }}
          error={touched.description ? descriptionError : null}
          maxLength={SIMULATION_DESCRIPTION_INPUT_MAX}
          limit={SIMULATION_DESCRIPTION_MAX}
          placeholder="Optional"
        />
      </DialogForm>
    </Dialog>
  )
}
