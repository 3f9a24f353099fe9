import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { simulationDirectory } from '../../domain/output/layout.ts'
import { fitsStorage, NO_STORAGE_LIMIT_FEATURE, storageFullMessage } from '../../domain/storage.ts'
import { ApiError } from '../api/apiError.ts'
import { assembliesDirectory } from '../assemblies/stepFile.ts'
import type { Database } from '../db/schema.ts'
import { resolveStoredPath } from './files.ts'
import { discretizationsDirectory } from './pointClouds.ts'
import { vmStorageConsumedBytes } from '../vms/vmStorageBytes.ts'

/*
 * Storage truth (issue 13 item 6). A simulation's size is the bytes on disk under its directories
 * (runs with outputs, checkpoints, logs and sensor series; exports; discretization point clouds;
 * STEP files), measured by walking them, never estimated. An organization consumes its
 * simulations' sizes plus its uploads (STL meshes, CSVs, images) as stored.
 */

type Db = Kysely<Database>

/** Every directory a simulation's files live in, relative to the data directory. */
export function simulationStorageDirectories(simulationId: number): string[] {
  return [
    simulationDirectory(simulationId),
    discretizationsDirectory(simulationId),
    assembliesDirectory(simulationId),
  ]
}

/** Bytes of the regular files under `path` (0 when it does not exist); links are not followed. */
export async function measureBytes(path: string): Promise<number> {
  let stats
  try {
    stats = await lstat(path)
  } catch {
    return 0
  }
  if (stats.isFile()) return stats.size
  if (!stats.isDirectory()) return 0
  let entries: string[]
  try {
    entries = await readdir(path)
  } catch {
    return 0
  }
  let total = 0
  for (const entry of entries) total += await measureBytes(join(path, entry))
  return total
}

/** The bytes a simulation's files take on disk now. */
export async function measureSimulationBytes(dataDir: string, simulationId: number) {
  let total = 0
  for (const directory of simulationStorageDirectories(simulationId))
    total += await measureBytes(resolveStoredPath(dataDir, directory))
  return total
}

interface Measuring {
  tail: Promise<number>
  queued: Promise<number> | null
}

/** One measurement in flight per simulation and at most one waiting behind it. */
const measuring = new Map<string, Measuring>()

async function measureAndStore(db: Db, dataDir: string, simulationId: number): Promise<number> {
  const bytes = await measureSimulationBytes(dataDir, simulationId)
  await db
    .updateTable('simulations')
    .set({ size_bytes: bytes })
    .where('id', '=', simulationId)
    .where('size_bytes', '!=', bytes)
    .execute()
  return bytes
}

/**
 * Measures a simulation's files and stores the size in simulations.size_bytes; resolves with the
 * bytes once a measurement that started after this call has been stored. Calls while one runs
 * share the single measurement queued behind it, so a busy run never stacks up directory walks.
 */
export function refreshSimulationSize(
  db: Db,
  dataDir: string,
  simulationId: number,
): Promise<number> {
  const key = `${dataDir}\0${simulationId}`
  const start = (state: Measuring): Promise<number> => {
    const measurement = measureAndStore(db, dataDir, simulationId)
    state.tail = measurement
    const forget = () => {
      if (state.tail === measurement && state.queued === null) measuring.delete(key)
    }
    measurement.then(forget, forget)
    return measurement
  }
  const state = measuring.get(key)
  if (!state) {
    const fresh: Measuring = { tail: Promise.resolve(0), queued: null }
    measuring.set(key, fresh)
    return start(fresh)
  }
  state.queued ??= state.tail
    .catch(() => 0)
    .then(() => {
      state.queued = null
      return start(state)
    })
  return state.queued
}

/**
 * Bytes an organization consumes: its simulations' files, its uploads as stored, its VMs' storage
 * folders and its organization storage (server/vms/storageUsage.ts).
 */
export async function organizationConsumedBytes(db: Db, organizationId: number): Promise<number> {
  const [simulations, uploads, vms] = await Promise.all([
    db
      .selectFrom('simulations')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('bytes'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('uploads')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('bytes'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow(),
    vmStorageConsumedBytes(db, organizationId),
  ])
  return Number(simulations.bytes) + Number(uploads.bytes) + vms
}

/**
 * Refuses (413 storage_full) a write of `addingBytes` that would take the organization past its
 * available storage, unless it has the no_storage_limit_enforcement feature. `addingBytes` 0:
 * a write whose size is known only once written (a run, an export) needs room left.
 */
export async function assertStorageAvailable(
  db: Db,
  organizationId: number,
  addingBytes: number,
): Promise<void> {
  const organization = await db
    .selectFrom('organizations')
    .select(['features', 'storage_available_bytes'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow()
  const features = JSON.parse(organization.features) as unknown
  if (Array.isArray(features) && features.includes(NO_STORAGE_LIMIT_FEATURE)) return
  const available = Number(organization.storage_available_bytes)
  const consumed = await organizationConsumedBytes(db, organizationId)
  if (!fitsStorage(consumed, available, addingBytes))
    throw new ApiError('storage_full', storageFullMessage(consumed, available))
}
