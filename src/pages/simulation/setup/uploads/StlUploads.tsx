import { useId, useRef, useState } from 'react'
import { STL_UNITS, type StlUnit, type Upload } from '../../../../../domain/rest/setupRoutes.ts'
import { formatBytes } from '../../../../../domain/units.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { useStlUploads, type UploadItem } from './useStlUploads.ts'
import type { UploadTransport } from './uploadRequest.ts'
import './uploads.css'

/** Labels of the STL length units. */
export const STL_UNIT_LABELS: Record<StlUnit, string> = {
  m: 'Metres (m)',
  mm: 'Millimetres (mm)',
  in: 'Inches (in)',
}

/** The unit an STL file's coordinates are in (the stored mesh is always in metres). */
export function StlUnitSelect(props: {
  value: StlUnit
  onChange: (unit: StlUnit) => void
  disabled?: boolean
}) {
  const id = useId()
  return (
    <div className="field setup-field">
      <label htmlFor={id} className="field__label">
        File unit
      </label>
      <select
        id={id}
        className="input input--small"
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.value as StlUnit)}
      >
        {STL_UNITS.map((unit) => (
          <option key={unit} value={unit}>
            {STL_UNIT_LABELS[unit]}
          </option>
        ))}
      </select>
    </div>
  )
}

/** A button that opens the file chooser (`accept`: '.stl', '.csv'; several files when `multiple`). */
export function FileButton(props: {
  label: string
  accept: string
  multiple: boolean
  disabled?: boolean
  onFiles: (files: File[]) => void
}) {
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={props.accept}
        multiple={props.multiple}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])]
          event.target.value = ''
          if (files.length > 0) props.onFiles(files)
        }}
      />
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={props.disabled}
        onClick={() => input.current?.click()}
      >
        {props.label}
      </button>
    </>
  )
}

/** One progress bar per file: 'Uploading 42 %', 'Uploaded', or why it failed. */
export function UploadProgressList({ items }: { items: readonly UploadItem[] }) {
  if (items.length === 0) return null
  return (
    <ul className="upload-list" aria-label="Uploads">
      {items.map((item) => {
        const percent = Math.round(item.progress * 100)
        return (
          <li key={item.key} className={`upload-list__item upload-list__item--${item.state}`}>
            <div className="upload-list__top">
              <span className="upload-list__name" title={item.fileName}>
                {item.fileName}
              </span>
              <span className="upload-list__size">{formatBytes(item.sizeBytes)}</span>
            </div>
            <progress
              className="upload-list__bar"
              max={100}
              value={item.state === 'failed' ? 0 : percent}
              aria-label={`Upload of ${item.fileName}`}
              aria-valuetext={uploadStateText(item)}
            />
            <span className="upload-list__state">{uploadStateText(item)}</span>
          </li>
        )
      })}
    </ul>
  )
}

/** The state line under a file's bar. */
export function uploadStateText(item: UploadItem): string {
  switch (item.state) {
    case 'waiting':
      return 'Waiting'
    case 'uploading':
      return `Uploading ${Math.round(item.progress * 100)} %`
    case 'done':
      return 'Uploaded'
    case 'failed':
      return item.error ? `Failed: ${item.error}` : 'Failed'
  }
}

/**
 * An STL upload that starts as soon as files are chosen: unit, file button and progress bars. Each
 * stored upload goes to `onUploaded` (for instance to become a part's new geometry: PUT /parts/{id}
 * with shape { type: 'stl', fileId: upload.id, fileName: upload.fileName, fileExtension: 'stl' }).
 * Failures show the spec's toasts.
 */
export function StlUploader(props: {
  /** The file button's text ('Upload STL', 'Replace geometry'). */
  label: string
  multiple?: boolean
  onUploaded: (upload: Upload, file: File) => Promise<void> | void
  disabled?: boolean
  transport?: UploadTransport
}) {
  const setup = useSetupEditable()
  const [unit, setUnit] = useState<StlUnit>('m')
  const uploads = useStlUploads(props.transport)
  const disabled = props.disabled === true || !setup.editable || uploads.busy
  return (
    <div className="stl-uploader">
      <div className="stl-uploader__row">
        <StlUnitSelect value={unit} onChange={setUnit} disabled={disabled} />
        <FileButton
          label={props.label}
          accept=".stl"
          multiple={props.multiple ?? false}
          disabled={disabled}
          onFiles={(files) => void uploads.uploadFiles(files, unit, props.onUploaded)}
        />
      </div>
      <UploadProgressList items={uploads.items} />
    </div>
  )
}
