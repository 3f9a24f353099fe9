/**
 * Datatables (spec/setup.md §3 "Datatable", §5 "Datatable"): column-map tables behind open-boundary
 * profiles, initial distributions, viscosity curves and air drag velocities, with their CSV header
 * rules, row limits and the server's 400 reply (globalErrors and cellErrors).
 */
import * as v from 'valibot'
import { DATATABLE } from './constants.ts'
import { ApiErrorBodySchema } from './errors.ts'
import { issue, type Issue } from './validation.ts'

/** What a table is used for; it decides the known headers and the row minimum. */
export const DATATABLE_KINDS = [
  'default',
  'openBoundary',
  'initialDistribution',
  'viscosityShearRate',
  'viscosityTemperature',
  'airDrag',
] as const
/** One datatable kind. */
export type DatatableKind = (typeof DATATABLE_KINDS)[number]

/** Open-boundary profile columns (spec/setup.md §3). */
export const OPEN_BOUNDARY_HEADERS = [
  'time',
  'pos_x',
  'pos_y',
  'pos_z',
  'prs',
  'vel_x',
  'vel_y',
  'vel_z',
] as const
/** Initial distribution CSV columns: positions required; velocity, pressure, temperature optional. */
export const INITIAL_DISTRIBUTION_HEADERS = [
  'pos_x',
  'pos_y',
  'pos_z',
  'vel_x',
  'vel_y',
  'vel_z',
  'prs',
  'temperature',
] as const
/** Initial distribution columns that must be present. */
export const INITIAL_DISTRIBUTION_REQUIRED_HEADERS = ['pos_x', 'pos_y', 'pos_z'] as const
/** The temperature column an initial distribution needs with the Heat Transfer Model on. */
export const TEMPERATURE_HEADER = 'temperature'

/** Known and required headers per kind; `null` known headers means any name is accepted. */
export const DATATABLE_HEADERS: Readonly<
  Record<DatatableKind, { known: readonly string[] | null; required: readonly string[] }>
> = {
  default: { known: null, required: [] },
  openBoundary: { known: OPEN_BOUNDARY_HEADERS, required: ['time'] },
  initialDistribution: {
    known: INITIAL_DISTRIBUTION_HEADERS,
    required: INITIAL_DISTRIBUTION_REQUIRED_HEADERS,
  },
  viscosityShearRate: {
    known: ['shear_rate', 'kinematic_viscosity'],
    required: ['shear_rate', 'kinematic_viscosity'],
  },
  viscosityTemperature: {
    known: ['temperature', 'kinematic_viscosity'],
    required: ['temperature', 'kinematic_viscosity'],
  },
  airDrag: {
    known: ['time', 'vel_x', 'vel_y', 'vel_z'],
    required: ['time', 'vel_x', 'vel_y', 'vel_z'],
  },
}

/**
 * Row limits per kind: 3 … 100 by default; 2 minimum for open-boundary and initial distribution
 * tables, and for the viscosity and air drag tables ("at least 2 rows").
 */
export function datatableRowLimits(kind: DatatableKind): { minRows: number; maxRows: number } {
  const minRows = kind === 'default' ? DATATABLE.minRows : DATATABLE.openBoundaryMinRows
  return { minRows, maxRows: DATATABLE.maxRows }
}

/** Rows shown in a preview: 10 for open-boundary tables, else one page of 5. */
export function datatablePreviewRows(kind: DatatableKind): number {
  return kind === 'openBoundary' ? DATATABLE.openBoundaryPreviewRows : DATATABLE.previewPageSize
}

export const DATATABLE_MESSAGES = {
  unexpectedError: 'Unexpected error saving table.',
  /** A part, material or air drag domain names a table its simulation does not have. */
  tableNotFound: 'Table does not exist.',
  validationFailed: 'Validation failed',
  cellNotNumber: 'This field requires a valid number.',
} as const

/** A column map: header → values, every column as long as the table. */
const ColumnMapSchema = v.record(v.string(), v.array(v.nullable(v.number())))

/** GET /datatables/{id}: one page of a table. */
export const DatatableSchema = v.object({
  id: v.number(),
  headers: v.array(v.string()),
  table: ColumnMapSchema,
  /** Rows in the whole table. */
  resultCount: v.number(),
  pageLimit: v.number(),
  pageNumber: v.number(),
})
/** One page of a datatable. */
export type Datatable = v.InferOutput<typeof DatatableSchema>

/** PUT /datatables/{id}/json: the whole table. */
export const DatatableUpdateSchema = v.strictObject({
  headers: v.array(v.string()),
  table: ColumnMapSchema,
})
/** A datatable replacement body. */
export type DatatableUpdate = v.InferOutput<typeof DatatableUpdateSchema>

/** One cell error of a 400 reply; row and column are 0-based. */
export const CellErrorSchema = v.object({
  row: v.number(),
  column: v.string(),
  message: v.string(),
})
/** One cell error. */
export type CellError = v.InferOutput<typeof CellErrorSchema>

/** The body of a 400 reply to a table save. */
export const DatatableErrorsSchema = v.object({
  globalErrors: v.array(v.string()),
  cellErrors: v.array(CellErrorSchema),
})
/** The errors of a table save. */
export type DatatableErrors = v.InferOutput<typeof DatatableErrorsSchema>

/**
 * The whole 400 body of PUT /datatables/{id}/json, PUT /datatables/{id}/csv and a CSV upload with
 * a kind: the usual error body (description 'Validation failed', `errors` with paths 'table' and
 * 'table.{column}.{row}') with `globalErrors` and `cellErrors` beside it.
 */
export const DatatableErrorBodySchema = v.object({
  ...ApiErrorBodySchema.entries,
  ...DatatableErrorsSchema.entries,
})
/** The 400 body of a table save. */
export type DatatableErrorBody = v.InferOutput<typeof DatatableErrorBodySchema>

/** What the setup rules need of a table: its headers and row count. */
export interface DatatableInfo {
  id: number
  headers: readonly string[]
  /** Rows in the whole table. */
  resultCount: number
}

/** Unknown, duplicate and missing headers of a table of `kind`. */
export function checkDatatableHeaders(
  kind: DatatableKind,
  headers: readonly string[],
  field = 'headers',
): Issue[] {
  const { known, required } = DATATABLE_HEADERS[kind]
  const issues: Issue[] = []
  const seen = new Set<string>()
  for (const header of headers) {
    if (known && !known.includes(header))
      issues.push(issue('error', field, `${header} is not a known attribute name`))
    if (seen.has(header)) issues.push(issue('error', field, `${header} appears more than once`))
    seen.add(header)
  }
  for (const header of required)
    if (!seen.has(header)) issues.push(issue('error', field, `${header} column is required`))
  return issues
}

/** Row count within the limits of `kind` ('Table must have at least N rows.'). */
export function checkDatatableRows(
  kind: DatatableKind,
  rowCount: number,
  field = 'table',
): Issue[] {
  const { minRows, maxRows } = datatableRowLimits(kind)
  if (rowCount < minRows)
    return [issue('error', field, `Table must have at least ${minRows} rows.`)]
  if (rowCount > maxRows) return [issue('error', field, `Table must have at most ${maxRows} rows.`)]
  return []
}

/**
 * Checks a whole table as the server does before saving it: header and row errors become
 * globalErrors, non-numeric or missing cells cellErrors. Empty lists mean the table is valid.
 */
export function validateDatatable(kind: DatatableKind, body: DatatableUpdate): DatatableErrors {
  const globalErrors = checkDatatableHeaders(kind, body.headers).map((i) => i.message)
  const lengths = body.headers.map((h) => body.table[h]?.length ?? 0)
  const rowCount = Math.max(0, ...lengths)
  if (lengths.some((n) => n !== rowCount))
    globalErrors.push('All columns must have the same length.')
  globalErrors.push(...checkDatatableRows(kind, rowCount).map((i) => i.message))
  const cellErrors: CellError[] = []
  for (const column of body.headers) {
    const values = body.table[column] ?? []
    for (let row = 0; row < rowCount; row++) {
      const value = values[row]
      if (value === undefined || value === null || !Number.isFinite(value))
        cellErrors.push({ row, column, message: DATATABLE_MESSAGES.cellNotNumber })
    }
  }
  return { globalErrors, cellErrors }
}

/**
 * Parses CSV text (comma or semicolon separated, first line headers) into a table body. Cells that
 * are not numbers become null, so validateDatatable reports them as cell errors.
 */
export function parseDatatableCsv(text: string): DatatableUpdate {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
  const separator = (lines[0] ?? '').includes(';') ? ';' : ','
  const headers = (lines[0] ?? '').split(separator).map((h) => h.trim())
  const table: Record<string, (number | null)[]> = Object.fromEntries(headers.map((h) => [h, []]))
  for (const line of lines.slice(1)) {
    const cells = line.split(separator)
    headers.forEach((header, column) => {
      const cell = (cells[column] ?? '').trim()
      const value = cell === '' ? Number.NaN : Number(cell)
      table[header]?.push(Number.isFinite(value) ? value : null)
    })
  }
  return { headers: headers.filter((h) => h !== ''), table }
}
