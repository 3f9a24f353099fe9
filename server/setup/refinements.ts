import type { Kysely } from 'kysely'
import { checkAppearance, defaultAppearance, makeUniqueName } from '../../domain/parts.ts'
import {
  checkRefinement,
  defaultMesh,
  REFINEMENT_KIND,
  type Mesh,
  type Refinement,
  type RefinementCreate,
  type RefinementUpdate,
} from '../../domain/meshes.ts'
import {
  REFINEMENT_MESH_KINDS,
  REFINEMENT_MESH_MESSAGE,
} from '../../domain/rest/setupObjectRoutes.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { readSettings } from '../api/views.ts'
import { notFound } from '../api/apiError.ts'
import { readAppearance } from '../clips/store.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { readMeshesById, readSimulationMesh } from '../meshes/store.ts'
import { listObjectNames } from '../sensors/access.ts'
import { refuseField, refuseIssues } from './issues.ts'

/*
 * Refinement zones (spec/setup.md §3 "Refinement"): a closed mesh (cube, cylinder, sphere or
 * complex) inside which particles are refined by `level`. Not with multiphase (§5); names unique
 * against parts, sensors and volume clips.
 */

type Db = Kysely<Database>
type RefinementRow = Awaited<ReturnType<typeof readRefinementRows>>[number]

async function readRefinementRows(db: Db, simulationId: number) {
  return db
    .selectFrom('refinements')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .orderBy('id')
    .execute()
}

function toRefinement(row: RefinementRow, mesh: Mesh | undefined, index: number): Refinement {
  return {
    id: row.id,
    name: row.name,
    mesh: mesh ?? defaultMesh('cube', row.mesh_id ?? 0),
    appearance: readAppearance(row.appearance, index),
    kind: REFINEMENT_KIND,
    level: row.level,
  }
}

/** The refinement zones of a simulation with their meshes, oldest first. */
export async function listRefinements(db: Db, simulationId: number): Promise<Refinement[]> {
  const rows = await readRefinementRows(db, simulationId)
  const meshes = await readMeshesById(
    db,
    rows.flatMap((row) => (row.mesh_id === null ? [] : [row.mesh_id])),
  )
  return rows.map((row, index) =>
    toRefinement(row, row.mesh_id === null ? undefined : meshes.get(row.mesh_id), index),
  )
}

/** One refinement zone of a simulation (404 otherwise). */
export async function findRefinement(db: Db, simulationId: number, id: number) {
  const refinement = (await listRefinements(db, simulationId)).find((r) => r.id === id)
  if (!refinement) throw notFound('Refinement zone')
  return refinement
}

/** A mesh of the simulation a refinement zone can refine inside (400 otherwise). */
async function readRefinementMesh(db: Db, simulationId: number, meshId: number): Promise<Mesh> {
  const mesh = await readSimulationMesh(db, simulationId, meshId)
  if (!(REFINEMENT_MESH_KINDS as readonly string[]).includes(mesh.kind))
    throw refuseField('meshId', REFINEMENT_MESH_MESSAGE)
  return mesh
}

function refuseErrors(refinement: Refinement): void {
  const errors = checkRefinement(refinement, 'refinement').filter((i) => i.level === 'error')
  if (errors.length > 0) throw refuseIssues(errors)
}

/** Adds a refinement zone; refused with multiphase on (spec/setup.md §5). */
export async function createStoredRefinement(
  db: Db,
  simulation: SimulationRow,
  body: RefinementCreate,
  nowIso: string,
): Promise<Refinement> {
  if (readSettings(simulation.settings).multiphase)
    throw refuseField('settings.multiphase', SETTINGS_MESSAGES.multiphaseRefinement)
  const mesh = await readRefinementMesh(db, simulation.id, body.meshId)
  const count = (await readRefinementRows(db, simulation.id)).length
  const appearance = { ...defaultAppearance(count), ...body.appearance }
  const name = makeUniqueName(body.name, await listObjectNames(db, simulation.id))
  refuseErrors({ id: 0, name, mesh, appearance, kind: REFINEMENT_KIND, level: body.level })
  const { id } = await db
    .insertInto('refinements')
    .values({
      simulation_id: simulation.id,
      name,
      kind: REFINEMENT_KIND,
      level: body.level,
      mesh_id: body.meshId,
      appearance: JSON.stringify(appearance),
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return findRefinement(db, simulation.id, id)
}

/** Changes one refinement zone of the simulation (in the caller's transaction). */
export async function updateStoredRefinement(
  db: Db,
  simulation: SimulationRow,
  id: number,
  update: RefinementUpdate,
  nowIso: string,
): Promise<void> {
  const rows = await readRefinementRows(db, simulation.id)
  const index = rows.findIndex((r) => r.id === id)
  const row = rows[index]
  if (!row) throw notFound('Refinement zone')
  const current = await findRefinement(db, simulation.id, id)
  const mesh =
    update.meshId !== undefined
      ? await readRefinementMesh(db, simulation.id, update.meshId)
      : current.mesh
  const name =
    update.name !== undefined
      ? makeUniqueName(
          update.name,
          await listObjectNames(db, simulation.id, { table: 'refinements', id }),
        )
      : row.name
  const appearance = { ...current.appearance, ...update.appearance }
  const appearanceErrors = checkAppearance(appearance).filter((i) => i.level === 'error')
  if (appearanceErrors.length > 0) throw refuseIssues(appearanceErrors)
  const level = update.level !== undefined ? update.level : row.level
  refuseErrors({ ...current, name, mesh, appearance, level })
  await db
    .updateTable('refinements')
    .set({
      name,
      level,
      mesh_id: update.meshId ?? row.mesh_id,
      appearance: JSON.stringify(appearance),
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .execute()
}
