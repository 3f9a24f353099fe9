import { useId, useRef, useState } from 'react'
import { TRUNCATE_CHARS } from '../../../../../../domain/constants.ts'
import type { SimulationSettings } from '../../../../../../domain/settings.ts'
import {
  SETTINGS_MESSAGES,
  isAccelerationFileAccepted,
} from '../../../../../../domain/settingsRules.ts'
import { issue, type Issue } from '../../../../../../domain/validation.ts'
import { truncateText } from '../../../../../components/TruncatedText.tsx'
import { useAccelerationFileMutation } from '../../queries/propertyMutations.ts'
import { useSetupEditable } from '../fields/editable.ts'
import { FieldIssues } from '../fields/FieldIssues.tsx'

/**
 * The acceleration file (csv only): a chosen file is uploaded and set on the settings ('Uploading
 * acceleration file failed' when either fails); any other file type is refused on the field. The
 * name shows cut at 23 characters (spec/setup.md §9).
 */
export function AccelerationFileField({
  simulationId,
  settings,
  issues,
  onRemove,
}: {
  simulationId: number
  settings: SimulationSettings
  issues: readonly Issue[]
  onRemove: () => void
}) {
  const setup = useSetupEditable()
  const upload = useAccelerationFileMutation(simulationId)
  const inputRef = useRef<HTMLInputElement>(null)
  const [rejected, setRejected] = useState<Issue | null>(null)
  const id = useId()
  const messageId = useId()
  const file = settings.accelerationFile
  const allIssues = rejected ? [rejected, ...issues] : issues
  return (
    <div className="field setup-field">
      <label htmlFor={id} className="field__label">
        Acceleration file
      </label>
      <div className="setup-field__row">
        <span className="acceleration-file__name" title={file?.name}>
          {upload.isPending
            ? 'Uploading…'
            : file
              ? truncateText(file.name, TRUNCATE_CHARS.accelerationFileName)
              : 'None'}
        </span>
        <input
          ref={inputRef}
          id={id}
          type="file"
          accept=".csv,text/csv"
          className="visually-hidden"
          tabIndex={-1}
          disabled={!setup.editable || upload.isPending}
          aria-describedby={allIssues.length > 0 ? messageId : undefined}
          onChange={(event) => {
            const chosen = event.target.files?.[0]
            event.target.value = ''
            if (!chosen) return
            if (!isAccelerationFileAccepted(chosen.name)) {
              setRejected(
                issue('error', 'settings.accelerationFile', SETTINGS_MESSAGES.accelerationFileCsv),
              )
              return
            }
            setRejected(null)
            upload.mutate(chosen)
          }}
        />
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={!setup.editable || upload.isPending}
          onClick={() => inputRef.current?.click()}
        >
          {file ? 'Replace' : 'Upload CSV'}
        </button>
        {file && (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={!setup.editable || upload.isPending}
            onClick={onRemove}
          >
            Remove
          </button>
        )}
      </div>
      <FieldIssues id={messageId} issues={allIssues} />
    </div>
  )
}
