import type { Kysely } from 'kysely'
import type { DatatableInfo } from '../../domain/datatable.ts'
import type { Material } from '../../domain/materials.ts'
import type { Movement } from '../../domain/movements.ts'
import type { Part } from '../../domain/parts.ts'
import type { SimulationSettings } from '../../domain/settings.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { validateSetup } from '../../domain/setupValidation.ts'
import { blocksRun, type Issue } from '../../domain/validation.ts'
import { readSettings } from '../api/views.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import type { AirDragDomain } from '../../domain/airDrag.ts'
import type { Refinement } from '../../domain/meshes.ts'
import type { PeriodicBoundary } from '../../domain/periodic.ts'
import { readStoredAirDragDomain } from './airDragRead.ts'
import { readPartPointClouds } from './partFiles.ts'
import { listPeriodics } from './periodics.ts'
import { listRefinements } from './refinements.ts'
import {
  datatableRowCount,
  readDatatableColumns,
  toMaterialList,
  toMovement,
  toPart,
} from './views.ts'

/*
 * Reading a whole setup from the database: the lists the handlers, the Input Validation bar and
 * loadRunSetup share.
 */

type Db = Kysely<Database>

export async function readMaterials(
  db: Db,
  simulation: Pick<SimulationRow, 'id' | 'created_at'>,
): Promise<Material[]> {
  const rows = await db
    .selectFrom('materials')
    .selectAll()
    .where('simulation_id', '=', simulation.id)
    .execute()
  return toMaterialList(rows, simulation.id, simulation.created_at)
}

/** Parts of a simulation in id order, with their download URLs. */
export async function readParts(db: Db, simulationId: number): Promise<Part[]> {
  const [rows, pointClouds] = await Promise.all([
    db
      .selectFrom('parts')
      .selectAll()
      .where('simulation_id', '=', simulationId)
      .orderBy('id')
      .execute(),
    readPartPointClouds(db, simulationId),
  ])
  return rows.map((row) => toPart(row, pointClouds.get(row.id)))
}

/** One part with its download URLs. */
export async function readPart(db: Db, id: number): Promise<Part> {
  const row = await db
    .selectFrom('parts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return toPart(row, (await readPartPointClouds(db, row.simulation_id)).get(row.id))
}

/** Movements of a simulation (or of one part) in id order, with their links. */
export async function readMovements(
  db: Db,
  simulationId: number,
  partId?: number,
): Promise<Movement[]> {
  let query = db.selectFrom('movements').selectAll().where('simulation_id', '=', simulationId)
  if (partId !== undefined) query = query.where('part_id', '=', partId)
  const rows = await query.orderBy('id').execute()
  if (rows.length === 0) return []
  const links = await readMovementLinks(db, simulationId)
  return rows.map((row) => toMovement(row, links))
}

export async function readMovementLinks(
  db: Db,
  simulationId: number,
): Promise<{ leader_id: number; follower_id: number }[]> {
  return db
    .selectFrom('movement_links')
    .innerJoin('movements', 'movements.id', 'movement_links.follower_id')
    .select(['movement_links.leader_id', 'movement_links.follower_id'])
    .where('movements.simulation_id', '=', simulationId)
    .execute()
}

export async function readDatatableInfos(db: Db, simulationId: number): Promise<DatatableInfo[]> {
  const rows = await db
    .selectFrom('datatables')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .execute()
  return rows.map((row) => {
    const { headers, table } = readDatatableColumns(row)
    return { id: row.id, headers, resultCount: datatableRowCount(table) }
  })
}

/** Everything of a setup that the rules look at. */
export interface StoredSetup {
  settings: SimulationSettings
  materials: Material[]
  parts: Part[]
  movements: Movement[]
  datatables: DatatableInfo[]
  refinements: Refinement[]
  /** The stored air drag domain (checked only while settings.airDrag is on). */
  airDrag: AirDragDomain | null
  periodics: PeriodicBoundary[]
}

export async function readSetup(db: Db, simulation: SimulationRow): Promise<StoredSetup> {
  const [materials, parts, movements, datatables, refinements, airDrag, periodics] =
    await Promise.all([
      readMaterials(db, simulation),
      readParts(db, simulation.id),
      readMovements(db, simulation.id),
      readDatatableInfos(db, simulation.id),
      listRefinements(db, simulation.id),
      readStoredAirDragDomain(db, simulation.id),
      listPeriodics(db, simulation.id),
    ])
  return {
    settings: readSettings(simulation.settings),
    materials,
    parts,
    movements,
    datatables,
    refinements,
    airDrag,
    periodics,
  }
}

/** The Input Validation bar of a stored setup. */
export function checkStoredSetup(setup: StoredSetup): Issue[] {
  return validateSetup(setup)
}

/** Whether a setup may be discretized and run, with the spec's message when it may not. */
export function summarizeSetupValidation(issues: readonly Issue[]): {
  issues: Issue[]
  runnable: boolean
  message: string | null
} {
  const runnable = !blocksRun(issues)
  return {
    issues: [...issues],
    runnable,
    message: runnable ? null : SETTINGS_MESSAGES.discretizationBlockedText,
  }
}

/**
 * The errors an edit may not leave (what `after` has that the edit is to blame for): every error
 * that `before` did not have (same field and message), and every error on a field the edit
 * changes, whatever was stored before — an out-of-range value is not replaced by another
 * out-of-range value. An old error on a field the edit leaves alone never blocks it.
 * `changedFields` are dotted paths (changedFields below); an error is on one when its field is
 * that path, inside it or around it ('settings.gravity' covers 'settings.gravity.2').
 */
export function newErrors(
  before: readonly Issue[],
  after: readonly Issue[],
  changed: readonly string[] = [],
): Issue[] {
  const known = new Set(
    before.filter((i) => i.level === 'error').map((i) => `${i.field}\n${i.message}`),
  )
  const isChanged = (field: string) =>
    changed.some(
      (path) => field === path || field.startsWith(`${path}.`) || path.startsWith(`${field}.`),
    )
  return after.filter(
    (i) => i.level === 'error' && (!known.has(`${i.field}\n${i.message}`) || isChanged(i.field)),
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The dotted paths (under `prefix`) of the fields `update` sets to something other than what
 * `current` holds: nested objects are followed, arrays (vectors, lists) compared whole.
 */
export function changedFields(prefix: string, current: unknown, update: unknown): string[] {
  if (!isPlainObject(update))
    return JSON.stringify(current) === JSON.stringify(update) ? [] : [prefix]
  const base = isPlainObject(current) ? current : {}
  return Object.entries(update).flatMap(([key, value]) =>
    value === undefined ? [] : changedFields(`${prefix}.${key}`, base[key], value),
  )
}
