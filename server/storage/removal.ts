import { rm } from 'node:fs/promises'
import type { Kysely } from 'kysely'
import { assemblyRunnerFor } from '../assemblies/AssemblyRunner.ts'
import type { Database } from '../db/schema.ts'
import { IMAGE_UPLOAD_KIND } from '../images/imageAccess.ts'
import { jobRunnerFor } from '../jobs/services.ts'
import { flippedMeshStoredPath } from '../setup/meshFiles.ts'
import { removeStoredFile, resolveStoredPath } from './files.ts'
import { simulationStorageDirectories } from './usage.ts'

/*
 * Files go with what owns them (issue 13 item 6): a deleted simulation (alone or with its project)
 * takes its run directories, exports, point clouds and STEP files, and the uploads only it used:
 * STL parts, acceleration file, datatable CSVs, its post image and the images its dashboard tiles
 * show. An upload another simulation of the organization still uses (an image: as its post image,
 * on a dashboard tile or in a dashboard template), or that none ever used, stays.
 */

type Db = Kysely<Database>

function parseObject(text: string | null): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text ?? '')
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function positiveId(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null
}

/**
 * Upload ids the simulations' parts (STL shapes), settings (acceleration file) and post images
 * name.
 */
async function namedUploadIds(db: Db, simulationIds: readonly number[]): Promise<Set<number>> {
  const ids = new Set<number>()
  if (simulationIds.length === 0) return ids
  const [parts, simulations] = await Promise.all([
    db.selectFrom('parts').select('shape').where('simulation_id', 'in', simulationIds).execute(),
    db
      .selectFrom('simulations')
      .select(['settings', 'post_image_id'])
      .where('id', 'in', simulationIds)
      .execute(),
  ])
  for (const part of parts) {
    const id = positiveId(parseObject(part.shape).fileId)
    if (id !== null) ids.add(id)
  }
  for (const simulation of simulations) {
    const id = positiveId(parseObject(simulation.settings).accelerationFileId)
    if (id !== null) ids.add(id)
    if (simulation.post_image_id !== null) ids.add(simulation.post_image_id)
  }
  for (const id of await tileImageIds(db, simulationIds)) ids.add(id)
  return ids
}

/** Images the image tiles of the simulations' dashboard views show. */
async function tileImageIds(db: Db, simulationIds: readonly number[]): Promise<number[]> {
  const tiles = await db
    .selectFrom('dashboard_tiles')
    .innerJoin('dashboard_views', 'dashboard_views.id', 'dashboard_tiles.view_id')
    .select('dashboard_tiles.settings')
    .where('dashboard_views.simulation_id', 'in', simulationIds)
    .where('dashboard_tiles.type', '=', 'image')
    .execute()
  return tiles.flatMap((tile) => positiveId(parseObject(tile.settings).imageId) ?? [])
}

/** Images the organization's dashboard templates keep in their tiles. */
async function templateImageIds(db: Db, organizationId: number): Promise<number[]> {
  const templates = await db
    .selectFrom('dashboard_templates')
    .select('tiles')
    .where('organization_id', '=', organizationId)
    .execute()
  return templates.flatMap((template) => {
    let tiles: unknown
    try {
      tiles = JSON.parse(template.tiles)
    } catch {
      return []
    }
    if (!Array.isArray(tiles)) return []
    return tiles.flatMap((tile: unknown) =>
      typeof tile === 'object' && tile !== null && 'imageId' in tile
        ? (positiveId(tile.imageId) ?? [])
        : [],
    )
  })
}

/** What deleting simulations must clean up once their rows are gone. */
export interface SimulationRemoval {
  organizationId: number
  simulationIds: number[]
  /** Uploads the simulations used: removed unless something left still uses them. */
  candidateUploadIds: number[]
}

/**
 * Reads, before the rows go, which uploads the simulations use: the files of their STL parts and
 * acceleration file, and the CSV uploads that made their datatables.
 */
export async function planSimulationRemoval(
  db: Db,
  organizationId: number,
  simulationIds: number[],
): Promise<SimulationRemoval> {
  const candidates = await namedUploadIds(db, simulationIds)
  if (simulationIds.length > 0) {
    const tables = await db
      .selectFrom('datatables')
      .select('id')
      .where('simulation_id', 'in', simulationIds)
      .execute()
    const tableIds = new Set(tables.map((t) => t.id))
    if (tableIds.size > 0) {
      const csvs = await db
        .selectFrom('uploads')
        .select(['id', 'info'])
        .where('organization_id', '=', organizationId)
        .where('kind', '=', 'csv')
        .execute()
      for (const csv of csvs) {
        const tableId = positiveId(parseObject(csv.info).datatableId)
        if (tableId !== null && tableIds.has(tableId)) candidates.add(csv.id)
      }
    }
  }
  return { organizationId, simulationIds, candidateUploadIds: [...candidates] }
}

/** Removes the uploads of `candidateIds` that no simulation of the organization uses any more. */
async function removeUnusedUploads(
  db: Db,
  dataDir: string,
  organizationId: number,
  candidateIds: readonly number[],
): Promise<void> {
  if (candidateIds.length === 0) return
  const remaining = await db
    .selectFrom('simulations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .execute()
  const stillUsed = await namedUploadIds(
    db,
    remaining.map((s) => s.id),
  )
  for (const id of await templateImageIds(db, organizationId)) stillUsed.add(id)
  const uploads = await db
    .selectFrom('uploads')
    .select(['id', 'kind', 'stored_path', 'info'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...candidateIds])
    .execute()
  for (const upload of uploads) {
    if (stillUsed.has(upload.id)) continue
    const tableId = positiveId(parseObject(upload.info).datatableId)
    if (tableId !== null) {
      const table = await db
        .selectFrom('datatables')
        .select('id')
        .where('id', '=', tableId)
        .executeTakeFirst()
      if (table) continue
    }
    // The row first: the file is never served once its deletion has begun.
    await db.deleteFrom('uploads').where('id', '=', upload.id).execute()
    if (upload.stored_path !== '') await removeStoredFile(dataDir, upload.stored_path)
    if (upload.kind !== IMAGE_UPLOAD_KIND)
      await removeStoredFile(dataDir, flippedMeshStoredPath(organizationId, upload.id))
  }
}

/**
 * After the simulations' rows were deleted: ends their jobs in this process (waiting for the
 * threads, so nothing writes into a removed directory), removes their directories and the uploads
 * only they used.
 */
export async function removeSimulationFiles(
  db: Db,
  dataDir: string,
  removal: SimulationRemoval,
): Promise<void> {
  for (const simulationId of removal.simulationIds) {
    await jobRunnerFor(db).endSimulationJobs(simulationId)
    await assemblyRunnerFor(db).stopSimulation(simulationId)
    for (const directory of simulationStorageDirectories(simulationId))
      await rm(resolveStoredPath(dataDir, directory), { recursive: true, force: true })
  }
  await removeUnusedUploads(db, dataDir, removal.organizationId, removal.candidateUploadIds)
}
