import { useId, useState } from 'react'
import {
  datatableRowLimits,
  type DatatableErrors,
  type DatatableKind,
  type DatatableUpdate,
} from '../../../../../domain/datatable.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import { IconPlus, IconTrash } from '../../../../components/icons.tsx'
import {
  addRow,
  cellErrorOf,
  removeRow,
  rowCountOf,
  rowLimitsText,
  saveFailureOf,
  setCell,
  bodyOfDraft,
  type TableDraft,
} from './datatableModel.ts'

/**
 * A datatable's cells in a table to edit (spec/setup.md §5 "Datatable"): rows added up to the
 * kind's maximum or removed, then saved whole. A refused save shows the server's global errors
 * above the table and each cell error on its cell; any other failure 'Unexpected error saving
 * table.' The dialog closes once the table is saved.
 */
export function DatatableEditorDialog(props: {
  title: string
  kind: DatatableKind
  initial: TableDraft
  /** Saves the whole table; throws the server's refusal. */
  onSave: (body: DatatableUpdate) => Promise<void>
  onClose: () => void
  readOnly?: boolean
}) {
  const { kind, readOnly = false } = props
  const [draft, setDraft] = useState(props.initial)
  const [errors, setErrors] = useState<DatatableErrors | null>(null)
  const [saving, setSaving] = useState(false)
  const baseId = useId()
  const rows = rowCountOf(draft)
  const { maxRows } = datatableRowLimits(kind)

  const save = async () => {
    if (readOnly || saving) return
    setSaving(true)
    try {
      await props.onSave(bodyOfDraft(draft))
      props.onClose()
    } catch (error) {
      setErrors(saveFailureOf(error))
      setSaving(false)
    }
  }

  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form
        className="dialog__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <div className="dialog__body datatable-editor">
          <p className="datatable-editor__facts">
            {rows} {rows === 1 ? 'row' : 'rows'} · {rowLimitsText(kind)}
          </p>
          {errors && errors.globalErrors.length > 0 && (
            <ul className="datatable-errors" role="alert" aria-label="Table errors">
              {errors.globalErrors.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
          {errors && errors.globalErrors.length === 0 && errors.cellErrors.length > 0 && (
            <p className="datatable-errors" role="alert">
              {errors.cellErrors.length === 1
                ? 'A cell needs fixing.'
                : `${errors.cellErrors.length} cells need fixing.`}
            </p>
          )}
          <div className="datatable-editor__scroll">
            <table className="datatable">
              <thead>
                <tr>
                  <th scope="col" className="datatable__row-head">
                    Row
                  </th>
                  {draft.headers.map((header) => (
                    <th key={header} scope="col">
                      {header}
                    </th>
                  ))}
                  {!readOnly && (
                    <th scope="col">
                      <span className="visually-hidden">Remove</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: rows }, (_, row) => (
                  <tr key={row}>
                    <th scope="row" className="datatable__row-head">
                      {row + 1}
                    </th>
                    {draft.headers.map((column, columnIndex) => {
                      const message = cellErrorOf(errors, column, row)
                      const messageId = `${baseId}-${columnIndex}-${row}`
                      return (
                        <td key={column} className={message ? 'datatable__cell--error' : undefined}>
                          <input
                            className="input input--small datatable__input"
                            inputMode="decimal"
                            value={draft.cells[column]?.[row] ?? ''}
                            readOnly={readOnly}
                            aria-label={`${column}, row ${row + 1}`}
                            aria-invalid={message ? true : undefined}
                            aria-describedby={message ? messageId : undefined}
                            title={message ?? undefined}
                            onChange={(event) =>
                              setDraft((old) => setCell(old, column, row, event.target.value))
                            }
                          />
                          {message && (
                            <span id={messageId} className="datatable__cell-error">
                              {message}
                            </span>
                          )}
                        </td>
                      )
                    })}
                    {!readOnly && (
                      <td>
                        <button
                          type="button"
                          className="icon-button icon-button--small"
                          aria-label={`Remove row ${row + 1}`}
                          onClick={() => {
                            setDraft((old) => removeRow(old, row))
                            setErrors(null)
                          }}
                        >
                          <IconTrash width={13} height={13} />
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {!readOnly && (
            <button
              type="button"
              className="button button--secondary button--small datatable-editor__add"
              disabled={rows >= maxRows}
              title={rows >= maxRows ? `Table must have at most ${maxRows} rows.` : undefined}
              onClick={() => setDraft(addRow)}
            >
              <IconPlus width={13} height={13} aria-hidden="true" /> Add row
            </button>
          )}
        </div>
        <footer className="dialog__footer">
          <button type="button" className="button button--secondary" onClick={props.onClose}>
            {readOnly ? 'Close' : 'Cancel'}
          </button>
          {!readOnly && (
            <button type="submit" className="button button--primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          )}
        </footer>
      </form>
    </Dialog>
  )
}
