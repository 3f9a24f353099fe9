import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import { MESH_FILE_VERSION } from '../../domain/meshFile.ts'
import {
  MeshSchema,
  checkMesh,
  defaultMesh,
  type Mesh,
  type MeshBody,
} from '../../domain/meshes.ts'
import { MESH_FILE_PATH, setupFileUrl } from '../../domain/rest/setupSchemas.ts'
import { notFound } from '../api/apiError.ts'
import type { Database, MeshesTable } from '../db/schema.ts'
import { refuseIssues } from '../setup/issues.ts'
import { parseJsonColumn } from '../setup/views.ts'
import { countMeshTriangles } from './triangles.ts'

/*
 * Meshes of sensors, volume clips and refinements (spec/setup.md §3 "Mesh kinds"). A body names
 * the kind and any of its fields; the rest come from the stored mesh of the same kind, else from
 * defaultMesh. nbrOfTriangles is computed (null while the definition cannot be built), and so is
 * meshUrl: the placed triangles as DMSH, versioned by a hash of the whole definition.
 */

type Db = Kysely<Database>
type MeshRow = Pick<MeshesTable, 'kind' | 'definition' | 'nbr_of_triangles'> & { id: number }

/** A stored mesh row as the API returns it; a broken definition falls back to the kind's defaults. */
export function toMesh(row: MeshRow): Mesh {
  const stored = parseJsonColumn(row.definition)
  const base = defaultMesh(row.kind as Mesh['kind'], row.id)
  const parsed = v.safeParse(MeshSchema, {
    ...base,
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
    kind: base.kind,
    id: row.id,
    nbrOfTriangles: row.nbr_of_triangles,
  })
  return withMeshUrl(parsed.success ? parsed.output : base)
}

/** The hash of a mesh's definition (every field but its id, counts and URL). */
export function meshDefinitionHash(mesh: Mesh): string {
  const { id: _id, nbrOfTriangles: _n, meshUrl: _u, ...definition } = mesh
  return createHash('sha256')
    .update(JSON.stringify({ format: MESH_FILE_VERSION, ...definition }))
    .digest('hex')
    .slice(0, 16)
}

/** The mesh with its download URL: null for a point, a complex mesh or one without triangles. */
export function withMeshUrl(mesh: Mesh): Mesh {
  const servable = mesh.kind !== 'point' && mesh.kind !== 'complex' && !!mesh.nbrOfTriangles
  return {
    ...mesh,
    meshUrl: servable ? setupFileUrl(MESH_FILE_PATH, mesh.id, meshDefinitionHash(mesh)) : null,
  }
}

/**
 * The mesh after `body` over `existing` (same kind) or over the kind's defaults, with its
 * triangle count; refused (400, the first error's message) when it breaks a geometry rule.
 */
export function buildMesh(existing: Mesh | undefined, body: MeshBody, id = 0): Mesh {
  const base = existing?.kind === body.kind ? existing : defaultMesh(body.kind, id)
  const defined = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  )
  const merged = { ...base, ...defined, id } as Mesh
  const errors = checkMesh(merged).filter((issue) => issue.level === 'error')
  if (errors.length > 0) throw refuseIssues(errors)
  return withMeshUrl({ ...merged, nbrOfTriangles: countMeshTriangles(merged) })
}

function meshColumns(mesh: Mesh) {
  const { id: _id, nbrOfTriangles, meshUrl: _url, ...definition } = mesh
  return {
    kind: mesh.kind,
    definition: JSON.stringify(definition),
    nbr_of_triangles: nbrOfTriangles,
  }
}

/** Stores a new mesh of a simulation. */
export async function insertMesh(
  db: Db,
  simulationId: number,
  body: MeshBody,
  nowIso: string,
): Promise<Mesh> {
  const mesh = buildMesh(undefined, body)
  const { id } = await db
    .insertInto('meshes')
    .values({
      ...meshColumns(mesh),
      simulation_id: simulationId,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return withMeshUrl({ ...mesh, id })
}

/** Replaces a stored mesh's definition. */
export async function updateMesh(db: Db, mesh: Mesh, nowIso: string): Promise<void> {
  await db
    .updateTable('meshes')
    .set({ ...meshColumns(mesh), updated_at: nowIso })
    .where('id', '=', mesh.id)
    .execute()
}

/** A mesh row with its simulation id, or null. */
export async function findMeshRow(db: Db, id: number) {
  return (await db.selectFrom('meshes').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
}

/** A mesh of this simulation (404 'Mesh not found' for another simulation's or a missing one). */
export async function readSimulationMesh(db: Db, simulationId: number, id: number): Promise<Mesh> {
  const row = await findMeshRow(db, id)
  if (!row || row.simulation_id !== simulationId) throw notFound('Mesh')
  return toMesh(row)
}

/** Meshes by id (for the sensors and clips that reference them). */
export async function readMeshesById(db: Db, ids: readonly number[]): Promise<Map<number, Mesh>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('meshes')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute()
  return new Map(rows.map((row) => [row.id, toMesh(row)]))
}
