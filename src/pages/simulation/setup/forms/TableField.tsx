import { useId } from 'react'
import type { DatatableKind } from '../../../../../domain/datatable.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import { DatatableField } from '../datatables/DatatableField.tsx'
import { FieldIssues } from './fields/FieldIssues.tsx'

/** What a form's table field needs: the table, its owner's save of a new table, its messages. */
export interface TableFieldProps {
  label: string
  simulationId: number
  kind: DatatableKind
  tableId: number | null
  /** A new table was stored: the owner saves its id (ioTableId, a viscosity table id …). */
  onTableCreated: (tableId: number) => void
  /** The rules' messages about the table ('Table is required', 'Table must have at least 2 rows.'). */
  issues: readonly Issue[]
  disabled?: boolean
}

/**
 * A table of a property form (an open-boundary field profile, an initial distribution, a
 * viscosity curve): the setup's datatable field (preview, CSV upload, cell editor) with the part
 * or material rules' messages about the table under it.
 */
export function TableField({ issues, ...table }: TableFieldProps) {
  const messageId = useId()
  return (
    <div className="property-form__table">
      <DatatableField {...table} />
      <FieldIssues id={messageId} issues={issues} />
    </div>
  )
}
