import { useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import {
  DATATABLE_MESSAGES,
  datatablePreviewRows,
  datatableRowLimits,
  type DatatableErrors,
  type DatatableKind,
  type DatatableUpdate,
} from '../../../../../domain/datatable.ts'
import { uploadFailedMessage } from '../../../../../domain/setupMessages.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import { callApi } from '../../../../api/index.ts'
import { LoadingBlock } from '../../../../components/Spinner.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { paramsOf, useDatatableQuery } from '../queries/setupQueries.ts'
import { FileButton } from '../uploads/StlUploads.tsx'
import { replaceDatatableCsv, uploadCsvTable } from '../uploads/uploadFiles.ts'
import { isAbort, uploadFailureText } from '../uploads/uploadRequest.ts'
import { DatatableEditorDialog } from './DatatableEditorDialog.tsx'
import {
  cellErrorLine,
  datatableErrorsOf,
  draftOfTable,
  emptyDraft,
  rowLimitsText,
} from './datatableModel.ts'
import './datatables.css'

/** Cell errors listed under a refused CSV upload (the rest are counted). */
const LISTED_CELL_ERRORS = 10

/**
 * Props of DatatableField, the one component behind every table of the setup: open-boundary
 * profiles, initial distributions, viscosity tables and air drag velocities.
 *
 * ```tsx
 * <DatatableField
 *   label="Inflow profile"
 *   simulationId={simulation.id}
 *   kind="openBoundary"
 *   tableId={component.ioTableId}
 *   onTableCreated={(id) => updatePart({ component: { type: 'openboundary', ioTableId: id } })}
 * />
 * ```
 */
export interface DatatableFieldProps {
  /** Names the table and its controls ('Inflow profile'). */
  label: string
  simulationId: number
  /** Decides the columns, the row limits and the preview length (domain/datatable.ts). */
  kind: DatatableKind
  /** The table shown; null while the owner has none (then it can be uploaded or created). */
  tableId: number | null
  /**
   * A new table was stored (a CSV uploaded or a table created while `tableId` was null): the owner
   * saves its id (a part's ioTableId, a material's viscosity table id …). Replacing or editing an
   * existing table keeps its id.
   */
  onTableCreated: (tableId: number) => void
  /** Columns of a table created by hand; default: the kind's known columns. */
  headers?: readonly string[]
  /** Disables every change (also off while the setup is not editable). */
  disabled?: boolean
}

/**
 * A datatable of the setup (spec/setup.md §5 "Datatable"): a preview of its first rows (10 for an
 * open-boundary profile), 'Upload CSV' (a new table, or the table replaced; a refused file shows
 * 'Validation failed' with the server's errors), and 'Edit table' to change cells and rows within
 * the kind's limits, where the server's global and cell errors show on the table and its cells.
 */
export function DatatableField(props: DatatableFieldProps) {
  const { simulationId, kind, tableId } = props
  const setup = useSetupEditable()
  const disabled = props.disabled === true || !setup.editable
  const previewRows = datatablePreviewRows(kind)
  const preview = useDatatableQuery(tableId, previewRows)
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const [csv, setCsv] = useState<{ fileName: string; progress: number } | null>(null)
  const [csvErrors, setCsvErrors] = useState<DatatableErrors | null>(null)
  const [editing, setEditing] = useState(false)
  const headingId = useId()

  const refresh = () =>
    Promise.all(
      ['getDatatable', 'getSetupValidation', 'listParts', 'listMaterials'].map((name) =>
        queryClient.invalidateQueries({ queryKey: [name] }),
      ),
    )

  const upload = async (file: File) => {
    setCsvErrors(null)
    setCsv({ fileName: file.name, progress: 0 })
    const onProgress = (progress: number) => setCsv({ fileName: file.name, progress })
    try {
      if (tableId === null) {
        const stored = await uploadCsvTable(file, { kind, simulationId }, { onProgress })
        if (stored.datatableId !== null) props.onTableCreated(stored.datatableId)
      } else {
        await replaceDatatableCsv(tableId, file, { onProgress })
      }
      await refresh()
    } catch (error) {
      if (isAbort(error)) return
      const errors = datatableErrorsOf(error)
      if (errors) setCsvErrors(errors)
      else
        pushToast({
          kind: 'error',
          title: uploadFailedMessage(file.name),
          description: uploadFailureText(error),
        })
    } finally {
      setCsv(null)
    }
  }

  const save = async (body: DatatableUpdate) => {
    if (tableId === null) {
      const created = await callApi('createDatatable', {
        ...paramsOf(simulationId),
        body: { kind, ...body },
      })
      props.onTableCreated(created.id)
    } else {
      await callApi('updateDatatableJson', { ...paramsOf(tableId), body })
    }
    await refresh()
  }

  const table = preview.data
  const rows = table?.resultCount ?? 0
  const shownRows = Math.min(rows, previewRows)
  return (
    <section className="datatable-field" aria-labelledby={headingId}>
      <div className="datatable-field__head">
        <h4 id={headingId} className="datatable-field__title">
          {props.label}
        </h4>
        <span className="datatable-field__facts">
          {tableId === null ? 'No table yet' : `${rows} ${rows === 1 ? 'row' : 'rows'}`} ·{' '}
          {rowLimitsText(kind)}
        </span>
      </div>

      {tableId !== null && preview.isPending && <LoadingBlock label="Loading table" />}
      {preview.isError && (
        <p className="datatable-errors" role="alert">
          {preview.error.message}
        </p>
      )}
      {table && table.headers.length > 0 && (
        <div className="datatable-field__preview">
          <table className="datatable datatable--preview" aria-label={`${props.label} preview`}>
            <thead>
              <tr>
                {table.headers.map((header) => (
                  <th key={header} scope="col">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: shownRows }, (_, row) => (
                <tr key={row}>
                  {table.headers.map((header) => {
                    const value = table.table[header]?.[row]
                    return (
                      <td key={header}>
                        {value === null || value === undefined ? '' : formatNumber(value)}
                      </td>
                    )
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          {rows > shownRows && (
            <p className="datatable-field__more">
              First {shownRows} of {rows} rows.
            </p>
          )}
        </div>
      )}

      {csv && (
        <div className="datatable-field__upload">
          <progress
            className="upload-list__bar"
            max={100}
            value={Math.round(csv.progress * 100)}
            aria-label={`Upload of ${csv.fileName}`}
          />
        </div>
      )}
      {csvErrors && <CsvErrors errors={csvErrors} />}

      <div className="datatable-field__actions">
        <FileButton
          label={tableId === null ? 'Upload CSV' : 'Replace with CSV'}
          accept=".csv"
          multiple={false}
          disabled={disabled || csv !== null}
          onFiles={([file]) => {
            if (file) void upload(file)
          }}
        />
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={csv !== null || (tableId !== null && !table)}
          onClick={() => setEditing(true)}
        >
          {tableId === null ? 'Create table' : disabled ? 'View table' : 'Edit table'}
        </button>
      </div>

      {editing && (
        <TableEditor
          label={props.label}
          kind={kind}
          tableId={tableId}
          headers={props.headers}
          readOnly={disabled}
          onSave={save}
          onClose={() => setEditing(false)}
        />
      )}
    </section>
  )
}

/** 'Validation failed' under a refused CSV, with the file's errors. */
function CsvErrors({ errors }: { errors: DatatableErrors }) {
  const listed = errors.cellErrors.slice(0, LISTED_CELL_ERRORS)
  const more = errors.cellErrors.length - listed.length
  return (
    <div className="datatable-errors" role="alert">
      <p className="datatable-errors__title">{DATATABLE_MESSAGES.validationFailed}</p>
      <ul>
        {errors.globalErrors.map((message) => (
          <li key={message}>{message}</li>
        ))}
        {listed.map((error) => (
          <li key={`${error.column}-${error.row}`}>{cellErrorLine(error)}</li>
        ))}
        {more > 0 && <li>{`${more} more cell ${more === 1 ? 'error' : 'errors'}`}</li>}
      </ul>
    </div>
  )
}

/** The whole table (every row, up to the kind's maximum) in the editor dialog. */
function TableEditor(props: {
  label: string
  kind: DatatableKind
  tableId: number | null
  headers: readonly string[] | undefined
  readOnly: boolean
  onSave: (body: DatatableUpdate) => Promise<void>
  onClose: () => void
}) {
  const full = useDatatableQuery(props.tableId, datatableRowLimits(props.kind).maxRows)
  if (props.tableId !== null && !full.data) return null
  return (
    <DatatableEditorDialog
      title={props.label}
      kind={props.kind}
      initial={
        full.data && full.data.headers.length > 0
          ? draftOfTable(full.data)
          : emptyDraft(props.kind, props.headers)
      }
      readOnly={props.readOnly}
      onSave={props.onSave}
      onClose={props.onClose}
    />
  )
}
