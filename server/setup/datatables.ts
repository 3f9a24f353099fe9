import type { Kysely } from 'kysely'
import {
  DATATABLE_KINDS,
  DATATABLE_MESSAGES,
  validateDatatable,
  type Datatable,
  type DatatableErrors,
  type DatatableKind,
  type DatatableUpdate,
} from '../../domain/datatable.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database, DatatableRow, SimulationRow } from '../db/schema.ts'
import { findEditableSimulation, findReadableSimulation } from './access.ts'
import { toDatatablePage } from './views.ts'

/*
 * Datatables (spec/setup.md §3, §5 "Datatable"): a table is replaced whole and checked by the
 * rules of its kind first; a broken table is refused with 'Validation failed' and every global and
 * cell error (paths 'table' and 'table.{column}.{row}'), and nothing stored changes.
 */

type Db = Kysely<Database>

/**
 * The 400 of a table save (domain/datatable.ts DatatableErrorBodySchema, spec/setup.md §5
 * "Datatable"): `globalErrors` and `cellErrors` (row, column, message) as the table editor shows
 * them, and the same errors as the usual field errors (global at 'table', cells at
 * 'table.{column}.{row}').
 */
export function refuseDatatable(errors: DatatableErrors): ApiError {
  return new ApiError(
    'validation_error',
    DATATABLE_MESSAGES.validationFailed,
    [
      ...errors.globalErrors.map((message) => ({ path: 'table', message })),
      ...errors.cellErrors.map((e) => ({ path: `table.${e.column}.${e.row}`, message: e.message })),
    ],
    { globalErrors: errors.globalErrors, cellErrors: errors.cellErrors },
  )
}

/** Checks a table of `kind`; refuses it with every error. */
export function assertDatatableValid(kind: DatatableKind, body: DatatableUpdate): void {
  const errors = validateDatatable(kind, body)
  if (errors.globalErrors.length > 0 || errors.cellErrors.length > 0) throw refuseDatatable(errors)
}

export function readDatatableKind(row: Pick<DatatableRow, 'kind'>): DatatableKind {
  return DATATABLE_KINDS.find((k) => k === row.kind) ?? 'default'
}

/** Stores a new table (already checked) and returns its first page. */
export async function insertDatatable(
  db: Db,
  values: {
    organizationId: number
    simulationId: number | null
    kind: DatatableKind
    headers: readonly string[]
    table: Record<string, (number | null)[]>
    nowIso: string
  },
): Promise<DatatableRow> {
  const { id } = await db
    .insertInto('datatables')
    .values({
      organization_id: values.organizationId,
      simulation_id: values.simulationId,
      kind: values.kind,
      headers: JSON.stringify(values.headers),
      columns: JSON.stringify(values.table),
      created_at: values.nowIso,
      updated_at: values.nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return db.selectFrom('datatables').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** A table of the user's organization whose simulation (if any) the user may see; else 404. */
export async function findDatatable(
  db: Db,
  user: SessionUser,
  id: number,
  edit: boolean,
): Promise<{ row: DatatableRow; simulation: SimulationRow | null }> {
  const row = await db
    .selectFrom('datatables')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', user.organization_id)
    .executeTakeFirst()
  if (!row) throw notFound('Datatable')
  if (row.simulation_id === null) return { row, simulation: null }
  const simulation = edit
    ? await findEditableSimulation(db, user, row.simulation_id).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'resource_not_found')
          throw notFound('Datatable')
        throw error
      })
    : await findReadableSimulation(db, user, row.simulation_id).catch(() => {
        throw notFound('Datatable')
      })
  return { row, simulation }
}

/** Replaces a table after checking it by its kind's rules. */
export async function replaceDatatable(
  db: Db,
  row: DatatableRow,
  body: DatatableUpdate,
  nowIso: string,
): Promise<Datatable> {
  assertDatatableValid(readDatatableKind(row), body)
  const table = Object.fromEntries(body.headers.map((h) => [h, body.table[h] ?? []]))
  await db
    .updateTable('datatables')
    .set({
      headers: JSON.stringify(body.headers),
      columns: JSON.stringify(table),
      updated_at: nowIso,
    })
    .where('id', '=', row.id)
    .execute()
  const stored = await db
    .selectFrom('datatables')
    .selectAll()
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow()
  return toDatatablePage(stored, 100, 1)
}
