import {
  DATATABLE_HEADERS,
  DATATABLE_MESSAGES,
  datatableRowLimits,
  type CellError,
  type Datatable,
  type DatatableErrors,
  type DatatableKind,
  type DatatableUpdate,
} from '../../../../../domain/datatable.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import { isApiError } from '../../../../api/ApiError.ts'

/*
 * The datatable editor's values: cells as typed text (so a half-typed or wrong cell can be sent and
 * flagged by the server), the table body made of them, and the server's 400 reply read back into
 * global and cell errors (spec/setup.md §5 "Datatable").
 */

/** Typed cells by column, every column as long as the table. */
export interface TableDraft {
  headers: readonly string[]
  cells: Record<string, string[]>
}

/** Rows of a draft. */
export function rowCountOf(draft: TableDraft): number {
  return Math.max(0, ...draft.headers.map((h) => draft.cells[h]?.length ?? 0))
}

/** A stored table as typed cells (values as people write them, empty for missing ones). */
export function draftOfTable(table: Pick<Datatable, 'headers' | 'table'>): TableDraft {
  const cells: Record<string, string[]> = {}
  for (const header of table.headers)
    cells[header] = (table.table[header] ?? []).map((value) =>
      value === null ? '' : formatNumber(value),
    )
  return { headers: [...table.headers], cells }
}

/** A new table of a kind: its columns (given, else the kind's known ones) and its minimum of empty rows. */
export function emptyDraft(kind: DatatableKind, headers?: readonly string[]): TableDraft {
  const columns = headers ?? DATATABLE_HEADERS[kind].known ?? []
  const { minRows } = datatableRowLimits(kind)
  return {
    headers: [...columns],
    cells: Object.fromEntries(columns.map((h) => [h, Array.from({ length: minRows }, () => '')])),
  }
}

/** A cell's number: empty or not a number is null (the server flags it). */
export function parseCell(text: string): number | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = Number(trimmed.replace(',', '.'))
  return Number.isFinite(value) ? value : null
}

/** PUT /datatables/{id}/json (or the create call's) body of a draft. */
export function bodyOfDraft(draft: TableDraft): DatatableUpdate {
  const rows = rowCountOf(draft)
  return {
    headers: [...draft.headers],
    table: Object.fromEntries(
      draft.headers.map((h) => [
        h,
        Array.from({ length: rows }, (_, row) => parseCell(draft.cells[h]?.[row] ?? '')),
      ]),
    ),
  }
}

export function setCell(draft: TableDraft, column: string, row: number, text: string): TableDraft {
  const values = [...(draft.cells[column] ?? [])]
  values[row] = text
  return { ...draft, cells: { ...draft.cells, [column]: values } }
}

export function addRow(draft: TableDraft): TableDraft {
  return {
    ...draft,
    cells: Object.fromEntries(draft.headers.map((h) => [h, [...(draft.cells[h] ?? []), '']])),
  }
}

export function removeRow(draft: TableDraft, row: number): TableDraft {
  return {
    ...draft,
    cells: Object.fromEntries(
      draft.headers.map((h) => [h, (draft.cells[h] ?? []).filter((_, i) => i !== row)]),
    ),
  }
}

const CELL_PATH = /^table\.(.+)\.(\d+)$/

/**
 * The global and cell errors of a refused table save or CSV upload (400 'Validation failed', field
 * errors at 'table' and 'table.{column}.{row}'); null for any other failure.
 */
export function datatableErrorsOf(error: unknown): DatatableErrors | null {
  if (!isApiError(error) || error.status !== 400 || !error.body?.errors) return null
  const globalErrors: string[] = []
  const cellErrors: CellError[] = []
  for (const { path, message } of error.body.errors) {
    const cell = CELL_PATH.exec(path)
    if (cell) cellErrors.push({ column: cell[1] as string, row: Number(cell[2]), message })
    else globalErrors.push(message)
  }
  return { globalErrors, cellErrors }
}

/** What a failed save shows: the server's errors, else 'Unexpected error saving table.' */
export function saveFailureOf(error: unknown): DatatableErrors {
  return (
    datatableErrorsOf(error) ?? {
      globalErrors: [DATATABLE_MESSAGES.unexpectedError],
      cellErrors: [],
    }
  )
}

/** The message of one cell, if the server flagged it. */
export function cellErrorOf(
  errors: DatatableErrors | null,
  column: string,
  row: number,
): string | null {
  return errors?.cellErrors.find((e) => e.column === column && e.row === row)?.message ?? null
}

/** A cell error as a line of a list: 'Row 3, vel_x: This field requires a valid number.' */
export function cellErrorLine(error: CellError): string {
  return `Row ${error.row + 1}, ${error.column}: ${error.message}`
}

/** 'Rows: 2 to 100'. */
export function rowLimitsText(kind: DatatableKind): string {
  const { minRows, maxRows } = datatableRowLimits(kind)
  return `${minRows} to ${maxRows} rows`
}
