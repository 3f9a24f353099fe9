import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { TOAST_DURATION_MS } from '../../../../domain/constants.ts'
import type { SimulationSummary } from '../../../../domain/projects.ts'
import { callApi } from '../../../api/index.ts'
import { Dialog, DialogForm } from '../../../components/Dialog.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { useInvalidateProjects } from '../../../queries/invalidate.ts'
import { ConfirmNameField } from './ConfirmNameField.tsx'

/** Deleting a simulation needs its exact name ('The names must match'). */
export function DeleteSimulationDialog({
  simulation,
  onClose,
}: {
  simulation: SimulationSummary
  onClose: () => void
}) {
  const [typed, setTyped] = useState('')
  const pushToast = usePushToast()
  const invalidateProjects = useInvalidateProjects()
  const remove = useMutation({
    mutationFn: async () => {
      await callApi('deleteSimulation', { params: { id: String(simulation.id) } })
      await invalidateProjects()
    },
    onSuccess: onClose,
    onError: () =>
      pushToast({
        kind: 'error',
        title: 'Deleting simulation failed',
        description: 'Please try again soon.',
        durationMs: TOAST_DURATION_MS.simulation,
      }),
  })
  const matches = typed === simulation.name
  return (
    <Dialog title="Delete simulation" size="small" onClose={onClose}>
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
        <p className="dialog__text">
          This permanently deletes <strong>{simulation.name}</strong> with its setup and results.
          This cannot be undone.
        </p>
        <ConfirmNameField expectedName={simulation.name} value={typed} onChange={setTyped} />
      </DialogForm>
    </Dialog>
  )
}
