import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX } from '../../../../domain/limits.ts'
import {
  ProjectDescriptionSchema,
  ProjectNameSchema,
  type Project,
} from '../../../../domain/projects.ts'
import { isApiError } from '../../../api/ApiError.ts'
import { callApi } from '../../../api/index.ts'
import { Dialog, DialogForm } from '../../../components/Dialog.tsx'
import { TextField } from '../../../components/Field.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { firstIssue } from '../../../lib/validation.ts'
import { useInvalidateProjects } from '../../../queries/invalidate.ts'

/** 'New project' (modal) or 'Edit' of a project (side form): name ≤ 100, description ≤ 500. */
export function ProjectFormDialog({
  project,
  onClose,
}: {
  /** The project to edit; none for a new one. */
  project?: Project
  onClose: () => void
}) {
  const [name, setName] = useState(project?.name ?? '')
  const [description, setDescription] = useState(project?.description ?? '')
  const [touched, setTouched] = useState({ name: false, description: false })
  const [nameTakenError, setNameTakenError] = useState<string | null>(null)
  const pushToast = usePushToast()
  const invalidateProjects = useInvalidateProjects()

  const nameError = firstIssue(ProjectNameSchema, name) ?? nameTakenError
  const descriptionError = firstIssue(ProjectDescriptionSchema, description)
  const hasErrors = nameError !== null || descriptionError !== null

  const save = useMutation({
    mutationFn: async () => {
      const body = { name: name.trim(), description }
      if (project) await callApi('updateProject', { params: { id: String(project.id) }, body })
      else await callApi('createProject', { body })
      await invalidateProjects()
    },
    onSuccess: onClose,
    onError: (error) => {
      if (isApiError(error) && error.body?.code === 'duplicate_key') {
        setNameTakenError(error.message)
        setTouched((t) => ({ ...t, name: true }))
      }
      pushToast({
        kind: 'error',
        title: project
          ? `Editing project ${name.trim()} failed`
          : `Adding project ${name.trim()} failed`,
        description: 'please try again!',
      })
    },
  })

  return (
    <Dialog
      title={project ? 'Edit project' : 'New project'}
      variant={project ? 'side' : 'modal'}
      onClose={onClose}
    >
      <DialogForm
        onSubmit={() => {
          setTouched({ name: true, description: true })
          if (!hasErrors) save.mutate()
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={hasErrors || save.isPending}
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
            setNameTakenError(null)
            setTouched((t) => ({ ...t, name: true }))
          }}
          error={touched.name ? nameError : null}
          maxLength={PROJECT_NAME_MAX + 1}
          limit={PROJECT_NAME_MAX}
          placeholder="e.g. Gearbox lubrication"
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
          maxLength={PROJECT_DESCRIPTION_MAX + 1}
          limit={PROJECT_DESCRIPTION_MAX}
          placeholder="What is this project about? (optional)"
        />
      </DialogForm>
    </Dialog>
  )
}
