import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { isJobActive } from '../../../../../domain/jobs.ts'
import { STEP_EXTENSIONS } from '../../../../../domain/rest/assemblyRoutes.ts'
import { uploadFailedMessage } from '../../../../../domain/setupMessages.ts'
import { ASSEMBLY_WIZARD, type Assembly } from '../../../../../domain/tessellation.ts'
import { formatCount } from '../../../../../domain/units.ts'
import { formatBytes } from '../../../../lib/format.ts'
import { Spinner } from '../../../../components/Spinner.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import { paramsOf } from '../queries/setupQueries.ts'
import { FileButton, UploadProgressList } from '../uploads/StlUploads.tsx'
import type { UploadItem } from '../uploads/useStlUploads.ts'
import { isAbort, uploadFailureText, type UploadTransport } from '../uploads/uploadRequest.ts'
import { uploadStep, useAssembliesQuery } from './assemblyQueries.ts'
import { countNodes } from './assemblyTree.ts'

/** A chosen file that is not a STEP file. */
export const NOT_STEP_MESSAGE = 'Choose a .stp or .step file.'

/** The warning of a STEP file above 500 MB (spec/setup.md §2), in decimal units like the limit. */
export function largeStepWarning(sizeBytes: number): string {
  return `This file is ${formatBytes(sizeBytes)}, larger than ${formatBytes(ASSEMBLY_WIZARD.stepWarningBytes)}: uploading, reading and tessellating it can take a long time.`
}

/** Whether a file name ends in .stp or .step. */
export function isStepFile(fileName: string): boolean {
  const lower = fileName.toLowerCase()
  return STEP_EXTENSIONS.some((extension) => lower.endsWith(extension))
}

/** What the file section says about a file's import (reading its tree). */
export function importStateText(assembly: Assembly): string {
  if (assembly.state === 'scheduled') return 'Waiting to read the file…'
  if (assembly.state === 'running') return 'Reading the file…'
  if (assembly.state === 'failed') return 'The file could not be read.'
  if (assembly.state === 'canceled') return 'Reading the file was canceled.'
  if (assembly.assemblyMetadata === null) return 'The file has not been read.'
  const count = countNodes(assembly.assemblyMetadata)
  return `${formatCount(count)} ${count === 1 ? 'component' : 'components'}`
}

/** A STEP upload with its progress bar; the stored assembly goes to `onUploaded`. */
function useStepUpload(
  simulationId: number,
  onUploaded: (assembly: Assembly) => void,
  transport?: UploadTransport,
) {
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  const [item, setItem] = useState<UploadItem | null>(null)
  const controller = useRef<AbortController | null>(null)
  useEffect(() => () => controller.current?.abort(), [])

  const upload = async (file: File) => {
    const abort = new AbortController()
    controller.current = abort
    const base = { key: file.name, fileName: file.name, sizeBytes: file.size, error: null }
    setItem({ ...base, state: 'uploading', progress: 0 })
    try {
      const assembly = await uploadStep(simulationId, file, {
        signal: abort.signal,
        transport,
        onProgress: (progress) => setItem({ ...base, state: 'uploading', progress }),
      })
      setItem(null)
      queryClient.setQueryData(routeKey('getAssembly', paramsOf(assembly.id)), assembly)
      void queryClient.invalidateQueries({ queryKey: ['listAssemblies'] })
      onUploaded(assembly)
    } catch (error) {
      if (isAbort(error)) return setItem(null)
      const text = uploadFailureText(error)
      setItem({ ...base, state: 'failed', progress: 0, error: text })
      pushToast({ kind: 'error', title: uploadFailedMessage(file.name), description: text })
    } finally {
      if (controller.current === abort) controller.current = null
    }
  }
  const cancel = () => controller.current?.abort()
  return { item, upload, cancel, busy: item?.state === 'uploading' }
}

/**
 * Step 1's file: choose a STEP file (one .stp or .step; above 500 MB it asks first), see it upload
 * and be read, or continue with a file uploaded before.
 */
export function AssemblyFileSection(props: {
  simulationId: number
  assembly: Assembly | null
  onAssemblyChange: (assemblyId: number | null) => void
  disabled: boolean
  transport?: UploadTransport
}) {
  const { assembly, disabled } = props
  const uploads = useStepUpload(
    props.simulationId,
    (a) => props.onAssemblyChange(a.id),
    props.transport,
  )
  const previous = useAssembliesQuery(props.simulationId).data ?? []
  const [large, setLarge] = useState<File | null>(null)
  const [refused, setRefused] = useState<string | null>(null)
  const previousId = useId()

  const choose = (file: File) => {
    setRefused(null)
    setLarge(null)
    if (!isStepFile(file.name)) return setRefused(NOT_STEP_MESSAGE)
    if (file.size > ASSEMBLY_WIZARD.stepWarningBytes) return setLarge(file)
    void uploads.upload(file)
  }
  const chooser = (label: string) => (
    <FileButton
      label={label}
      accept={STEP_EXTENSIONS.join(',')}
      multiple={false}
      disabled={disabled || uploads.busy}
      onFiles={(files) => files[0] && choose(files[0])}
    />
  )

  return (
    <section className="assembly-file" aria-label="CAD file">
      {assembly ? (
        <div className="assembly-file__row">
          <span className="assembly-file__name" title={assembly.filename}>
            {assembly.filename}
          </span>
          <span className="assembly-file__state" aria-live="polite">
            {isJobActive(assembly.state) && <Spinner label="Reading the file" size={12} />}
            {importStateText(assembly)}
          </span>
          {!uploads.busy && (
            <button
              type="button"
              className="button button--ghost button--small"
              disabled={disabled}
              onClick={() => props.onAssemblyChange(null)}
            >
              Change file
            </button>
          )}
        </div>
      ) : (
        <div className="assembly-file__row">
          {chooser('Choose STEP file')}
          <span className="field__hint">One .stp or .step file.</span>
          {previous.length > 0 && !uploads.busy && (
            <div className="assembly-file__previous">
              <label htmlFor={previousId} className="field__label">
                Or continue with
              </label>
              <select
                id={previousId}
                className="input input--small"
                value=""
                disabled={disabled}
                onChange={(event) =>
                  event.target.value && props.onAssemblyChange(Number(event.target.value))
                }
              >
                <option value="" disabled>
                  A file uploaded before…
                </option>
                {previous.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.filename}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
      {refused && <p className="setup-field__issue setup-field__issue--error">{refused}</p>}
      {large && (
        <div className="assembly-file__large" role="alert">
          <p className="setup-field__issue setup-field__issue--warning">
            {largeStepWarning(large.size)}
          </p>
          <div className="assembly-file__row">
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => {
                setLarge(null)
                void uploads.upload(large)
              }}
            >
              Upload anyway
            </button>
            {chooser('Choose another file')}
          </div>
        </div>
      )}
      {uploads.item && (
        <div className="assembly-file__upload">
          <UploadProgressList items={[uploads.item]} />
          {uploads.busy && (
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={uploads.cancel}
            >
              Cancel upload
            </button>
          )}
        </div>
      )}
    </section>
  )
}
