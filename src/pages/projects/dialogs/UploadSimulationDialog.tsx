import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { SECURITY_RISK_MESSAGE } from '../../../../domain/errors.ts'
import type { SimulationSummary } from '../../../../domain/projects.ts'
import { isApiError, messageOf } from '../../../api/ApiError.ts'
import { uploadPreprocessing } from '../../../api/files.ts'
import { Dialog, DialogForm } from '../../../components/Dialog.tsx'
import { TextField } from '../../../components/Field.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { formatBytes } from '../../../lib/format.ts'
import { useInvalidateProjects } from '../../../queries/invalidate.ts'

export const JOB_FILENAME_PLACEHOLDER = 'jobfile_0.json'

/** Upload of a preprocessed setup: a zip file and the name of its job file. */
export function UploadSimulationDialog({
  simulation,
  onClose,
}: {
  simulation: SimulationSummary
  onClose: () => void
}) {
  const fileId = useId()
  const [file, setFile] = useState<File | null>(null)
  const [jobFilename, setJobFilename] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const pushToast = usePushToast()
  const invalidateProjects = useInvalidateProjects()
  const jobFilenameError =
    submitted && jobFilename.trim() === '' ? 'Enter the name of the job file' : null

  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      await uploadPreprocessing(simulation.id, chosen, jobFilename.trim())
      await invalidateProjects()
    },
    onSuccess: () => {
      pushToast({ kind: 'success', title: 'Setup uploaded', description: file?.name })
      onClose()
    },
    onError: (error, chosen) =>
      pushToast({
        kind: 'error',
        title: `The upload of ${chosen.name} failed`,
        description:
          isApiError(error) && error.status === 503 ? SECURITY_RISK_MESSAGE : messageOf(error),
      }),
  })

  return (
    <Dialog title="Upload setup" subtitle={simulation.name} size="small" onClose={onClose}>
      <DialogForm
        onSubmit={() => {
          setSubmitted(true)
          if (file && jobFilename.trim() !== '') upload.mutate(file)
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={!file || upload.isPending}
            >
              {upload.isPending ? 'Uploading…' : 'Upload'}
            </button>
          </>
        }
      >
        <div className="field">
          <label htmlFor={fileId} className="field__label">
            Setup archive (.zip)
          </label>
          <input
            id={fileId}
            className="input input--file"
            type="file"
            accept=".zip,application/zip"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
          {file && (
            <p className="field__hint">
              {file.name} · {formatBytes(file.size)}
            </p>
          )}
        </div>
        <TextField
          label="Job file name"
          value={jobFilename}
          onChange={setJobFilename}
          placeholder={JOB_FILENAME_PLACEHOLDER}
          error={jobFilenameError}
          hint="The job file inside the archive that describes the run."
        />
      </DialogForm>
    </Dialog>
  )
}
