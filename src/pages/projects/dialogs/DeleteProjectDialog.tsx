import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import type { Project } from '../../../../domain/projects.ts'
import { callApi } from '../../../api/index.ts'
import { Dialog, DialogForm } from '../../../components/Dialog.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { useInvalidateProjects } from '../../../queries/invalidate.ts'
import { ConfirmNameField } from './ConfirmNameField.tsx'

/** Side form: deleting a project (and its simulations) needs its exact name. */
export function DeleteProjectDialog({
  project,
  onClose,
}: {
  project: Project
  onClose: () => void
}) {
  const [typed, setTyped] = useState('')
  const pushToast = usePushToast()
  const invalidateProjects = useInvalidateProjects()
  const count = project.simulations.length
  const remove = useMutation({
    mutationFn: async () => {
      await callApi('deleteProject', { params: { id: String(project.id) } })
      await invalidateProjects()
    },
    onSuccess: onClose,
    onError: () =>
      pushToast({
        kind: 'error',
        title: 'Deleting project failed',
        description: 'Please try again soon.',
      }),
  })
  const matches = typed === project.name
  return (
    <Dialog title="Delete project" variant="side" onClose={onClose}>
      <DialogForm
        onSubmit={() => {
          if (matches) remove.mutate()
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--danger"
              disabled={!matches || remove.isPending}
            >
              {remove.isPending ? 'Deleting…' : 'Delete'}
            </button>
          </>
        }
      >
        <div className="alert alert--warning">
          This permanently deletes <strong>{project.name}</strong>
          {count > 0 && (
            <>
              {' '}
              and its {count} {count === 1 ? 'simulation' : 'simulations'}
            </>
          )}
          . This cannot be undone.
        </div>
        <ConfirmNameField expectedName={project.name} value={typed} onChange={setTyped} />
      </DialogForm>
    </Dialog>
  )
}
