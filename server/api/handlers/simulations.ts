import type { Kysely } from 'kysely'
import { SIMULATION_NAME_MAX } from '../../../domain/limits.ts'
import { NAME_USED_MESSAGE } from '../../../domain/projects.ts'
import { defaultSettings, type SimulationSettingsPatch } from '../../../domain/settings.ts'
import { retryOnUniqueViolation } from '../../db/connect.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import { ApiError } from '../apiError.ts'
import { findAccessibleProject, findAccessibleSimulation, touchProject } from '../access.ts'
import type { RouteHandlers, SessionUser } from '../context.ts'
import { loadSimulation, readSettings } from '../views.ts'
import { assertSetupEditable } from '../../setup/access.ts'
import { copySetup } from '../../setup/copySetup.ts'
import { refuseUnavailableSwitches } from '../../setup/settings.ts'
import { planSimulationRemoval, removeSimulationFiles } from '../../storage/removal.ts'
import { findAccessibleImage } from '../../images/imageAccess.ts'
import { assertStorageAvailable } from '../../storage/usage.ts'

type Db = Kysely<Database>

async function simulationNamesIn(
  db: Db,
  projectId: number,
  exceptId?: number,
): Promise<Set<string>> {
  let query = db.selectFrom('simulations').select('name').where('project_id', '=', projectId)
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
  return new Set((await query.execute()).map((row) => row.name))
}

async function assertSimulationNameFree(
  db: Db,
  projectId: number,
  name: string,
  exceptId?: number,
) {
  const names = await simulationNamesIn(db, projectId, exceptId)
  if (names.has(name)) throw new ApiError('duplicate_key', NAME_USED_MESSAGE)
}

/**
 * The first free name of `name (copy)`, `name (copy 2)`, `name (copy 3)` …, the original cut so
 * the result stays within the name limit.
 */
export function chooseCloneName(name: string, taken: ReadonlySet<string>): string {
  for (let copy = 1; ; copy++) {
    const suffix = copy === 1 ? ' (copy)' : ` (copy ${copy})`
    const candidate = `${name.slice(0, SIMULATION_NAME_MAX - suffix.length).trimEnd()}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

function mergeSettings(
  stored: string | undefined,
  patch: SimulationSettingsPatch | undefined,
): string {
  const base = stored === undefined ? defaultSettings() : readSettings(stored)
  return JSON.stringify({ ...base, ...patch })
}

async function readSimulationRow(db: Db, id: number): Promise<SimulationRow> {
  return db.selectFrom('simulations').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export const createSimulation: RouteHandlers['createSimulation'] = async (
  { params, body },
  { db, user, clock },
) =>
  db.transaction().execute(async (trx) => {
    const project = await findAccessibleProject(trx, user, params.projectId)
    if (body.settings)
      refuseUnavailableSwitches(defaultSettings(), defaultSettings(), body.settings)
    await assertSimulationNameFree(trx, project.id, body.name)
    const nowIso = clock.nowIso()
    const { id } = await trx
      .insertInto('simulations')
      .values({
        project_id: project.id,
        organization_id: project.organization_id,
        creator_id: user.id,
        name: body.name,
        description: body.description,
        state: 'not started',
        settings: mergeSettings(undefined, body.settings),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await touchProject(trx, project.id, nowIso)
    return loadSimulation(trx, await readSimulationRow(trx, id))
  })

export const getSimulation: RouteHandlers['getSimulation'] = async ({ params }, { db, user }) =>
  loadSimulation(db, await findAccessibleSimulation(db, user, params.id))

export const updateSimulation: RouteHandlers['updateSimulation'] = async (
  { params, body },
  { db, user, clock },
) =>
  db.transaction().execute(async (trx) => {
    const simulation = await findAccessibleSimulation(trx, user, params.id)
    // Settings are setup: refused while the setup is locked or was uploaded.
    if (body.settings !== undefined) {
      await assertSetupEditable(trx, user, simulation)
      const stored = readSettings(simulation.settings)
      refuseUnavailableSwitches(stored, { ...stored, ...body.settings }, body.settings)
    }
    if (body.name !== undefined && body.name !== simulation.name)
      await assertSimulationNameFree(trx, simulation.project_id, body.name, simulation.id)
    // An image the user may not see is refused like a missing one (issue 13).
    if (typeof body.postImageId === 'number') await findAccessibleImage(trx, user, body.postImageId)
    const nowIso = clock.nowIso()
    await trx
      .updateTable('simulations')
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.settings !== undefined && {
          settings: mergeSettings(simulation.settings, body.settings),
        }),
        ...(body.postImageId !== undefined && { post_image_id: body.postImageId }),
        updated_at: nowIso,
      })
      .where('id', '=', simulation.id)
      .execute()
    await touchProject(trx, simulation.project_id, nowIso)
    return loadSimulation(trx, await readSimulationRow(trx, simulation.id))
  })

/**
 * A copy of the setup (name, description, settings, materials, parts, movements, tables) in the
 * same project; runs are not copied. Concurrent clones that chose the same free name retry with
 * the next one (issue 13: on PostgreSQL the second got 409 'Name is already used').
 */
export const cloneSimulation: RouteHandlers['cloneSimulation'] = async (
  { params },
  { db, user, clock },
) => retryOnUniqueViolation(() => cloneOnce(db, user, clock.nowIso(), params.id))

async function cloneOnce(db: Db, user: SessionUser, nowIso: string, originalId: number) {
  return db.transaction().execute(async (trx) => {
    const original = await findAccessibleSimulation(trx, user, originalId)
    // A clone is a new simulation that will fill the storage: refused while it is full.
    await assertStorageAvailable(trx, original.organization_id, 0)
    const name = chooseCloneName(original.name, await simulationNamesIn(trx, original.project_id))
    const { id } = await trx
      .insertInto('simulations')
      .values({
        project_id: original.project_id,
        organization_id: original.organization_id,
        creator_id: user.id,
        name,
        description: original.description,
        state: 'not started',
        settings: mergeSettings(original.settings, undefined),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await copySetup(trx, original.id, id, nowIso)
    await touchProject(trx, original.project_id, nowIso)
    return loadSimulation(trx, await readSimulationRow(trx, id))
  })
}

export const deleteSimulation: RouteHandlers['deleteSimulation'] = async (
  { params },
  { db, user, clock, dataDir },
) => {
  const removal = await db.transaction().execute(async (trx) => {
    const simulation = await findAccessibleSimulation(trx, user, params.id)
    const plan = await planSimulationRemoval(trx, simulation.organization_id, [simulation.id])
    await trx.deleteFrom('simulations').where('id', '=', simulation.id).execute()
    await touchProject(trx, simulation.project_id, clock.nowIso())
    return plan
  })
  // Runs, exports, point clouds, STEP files and the uploads only it used go with the row.
  await removeSimulationFiles(db, dataDir, removal)
  return { id: params.id }
}

export const moveSimulation: RouteHandlers['moveSimulation'] = async (
  { params, body },
  { db, user, clock },
) =>
  db.transaction().execute(async (trx) => {
    const simulation = await findAccessibleSimulation(trx, user, params.id)
    const target = await findAccessibleProject(trx, user, body.projectId)
    if (target.id !== simulation.project_id) {
      await assertSimulationNameFree(trx, target.id, simulation.name)
      const nowIso = clock.nowIso()
      await trx
        .updateTable('simulations')
        .set({ project_id: target.id, organization_id: target.organization_id, updated_at: nowIso })
        .where('id', '=', simulation.id)
        .execute()
      await touchProject(trx, simulation.project_id, nowIso)
      await touchProject(trx, target.id, nowIso)
    }
    return loadSimulation(trx, await readSimulationRow(trx, simulation.id))
  })
