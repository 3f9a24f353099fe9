import type { SETUP_ROUTES } from '../../../domain/rest/setupRoutes.ts'
import {
  findEditableMovement,
  findEditablePart,
  findEditableSimulation,
  findReadableMovement,
  findReadablePart,
  findReadableSimulation,
  touchSimulation,
} from '../../setup/access.ts'
import {
  assertDatatableValid,
  findDatatable,
  insertDatatable,
  replaceDatatable,
} from '../../setup/datatables.ts'
import { MATERIAL_PRESETS } from '../../setup/materialPresets.ts'
import { deleteStoredMaterial, findMaterial, upsertMaterial } from '../../setup/materials.ts'
import {
  clearMovementReferences,
  computeStoredKeyframes,
  createStoredMovement,
  linkFollower,
  readMovement,
  unlinkFollower,
  updateStoredMovement,
} from '../../setup/movements.ts'
import {
  createStoredPart,
  readPart,
  resetStoredPartMaterials,
  storeShapeInfo,
  updateStoredParts,
} from '../../setup/parts.ts'
import {
  readSettingsResult,
  toCalcDomain,
  updateStoredCalcDomain,
  updateStoredSettings,
} from '../../setup/settings.ts'
import {
  checkStoredSetup,
  readMaterials,
  readMovements,
  readParts,
  readSetup,
  summarizeSetupValidation,
} from '../../setup/store.ts'
import { toDatatablePage, toPart } from '../../setup/views.ts'
import { removePartPointClouds } from '../../storage/pointClouds.ts'
import type { AreaHandlers } from '../context.ts'
import { readSettings } from '../views.ts'

/** Handlers of SETUP_ROUTES, one per route. Edits run in one transaction each: all or nothing. */
export const setupHandlers: AreaHandlers<typeof SETUP_ROUTES> = {
  getSettings: async ({ params }, { db, user }) =>
    readSettingsResult(db, await findReadableSimulation(db, user, params.id)),

  updateSettings: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      return updateStoredSettings(trx, simulation, body, clock.nowIso())
    }),

  getCalcDomain: async ({ params }, { db, user }) =>
    toCalcDomain(readSettings((await findReadableSimulation(db, user, params.id)).settings)),

  updateCalcDomain: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      return updateStoredCalcDomain(trx, simulation, body, clock.nowIso())
    }),

  deleteCalcDomain: async ({ params }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      return updateStoredCalcDomain(trx, simulation, { active: false }, clock.nowIso())
    }),

  getSetupValidation: async ({ params }, { db, user }) => {
    const simulation = await findReadableSimulation(db, user, params.id)
    return summarizeSetupValidation(checkStoredSetup(await readSetup(db, simulation)))
  },

  listMaterials: async ({ params }, { db, user }) =>
    readMaterials(db, await findReadableSimulation(db, user, params.id)),

  getMaterial: async ({ params }, { db, user }) =>
    findMaterial(db, await findReadableSimulation(db, user, params.id), params.materialId),

  updateMaterial: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const nowIso = clock.nowIso()
      const material = await upsertMaterial(trx, simulation, params.materialId, body, nowIso)
      await touchSimulation(trx, simulation, nowIso)
      return material
    }),

  deleteMaterial: async ({ params }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const nowIso = clock.nowIso()
      await deleteStoredMaterial(trx, simulation, params.materialId, nowIso)
      await touchSimulation(trx, simulation, nowIso)
      return { id: params.materialId }
    }),

  materialPresets: async () => Promise.resolve([...MATERIAL_PRESETS]),

  listParts: async ({ params }, { db, user }) =>
    readParts(db, (await findReadableSimulation(db, user, params.id)).id),

  createPart: async ({ params, body }, { db, user, clock, dataDir }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const nowIso = clock.nowIso()
      const part = await createStoredPart(
        { db: trx, dataDir, simulation, nowIso, user },
        user,
        body,
      )
      await touchSimulation(trx, simulation, nowIso)
      return part
    }),

  updateParts: async ({ params, body }, { db, user, clock, dataDir }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const nowIso = clock.nowIso()
      const parts = await updateStoredParts({ db: trx, dataDir, simulation, nowIso, user }, body)
      await touchSimulation(trx, simulation, nowIso)
      return parts
    }),

  resetPartMaterials: async ({ params, body }, { db, user, clock, dataDir }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const nowIso = clock.nowIso()
      const parts = await resetStoredPartMaterials(
        { db: trx, dataDir, simulation, nowIso },
        body.materialId,
      )
      await touchSimulation(trx, simulation, nowIso)
      return parts
    }),

  getPart: async ({ params }, { db, user }) =>
    readPart(db, (await findReadablePart(db, user, params.id)).part.id),

  updatePart: async ({ params, body }, { db, user, clock, dataDir }) =>
    db.transaction().execute(async (trx) => {
      const { simulation } = await findEditablePart(trx, user, params.id)
      const nowIso = clock.nowIso()
      const [part] = await updateStoredParts({ db: trx, dataDir, simulation, nowIso, user }, [
        { ...body, id: params.id },
      ])
      await touchSimulation(trx, simulation, nowIso)
      return part ?? readPart(trx, params.id)
    }),

  deletePart: async ({ params }, { db, user, clock, dataDir }) => {
    const simulationId = await db.transaction().execute(async (trx) => {
      const { simulation } = await findEditablePart(trx, user, params.id)
      const nowIso = clock.nowIso()
      const own = await readMovements(trx, simulation.id, params.id)
      await trx.deleteFrom('parts').where('id', '=', params.id).execute()
      await clearMovementReferences(
        trx,
        simulation.id,
        own.map((m) => m.id),
        nowIso,
      )
      await touchSimulation(trx, simulation, nowIso)
      return simulation.id
    })
    // Once the row is gone for good: its particles are nobody's now.
    await removePartPointClouds(dataDir, simulationId, params.id)
    return { id: params.id }
  },

  updateShapeInfo: async ({ params, body }, { db, user, clock, dataDir }) =>
    db.transaction().execute(async (trx) => {
      const { simulation } = await findEditablePart(trx, user, params.id)
      const nowIso = clock.nowIso()
      return storeShapeInfo({ db: trx, dataDir, simulation, nowIso }, params.id, body)
    }),

  listSimulationMovements: async ({ params }, { db, user }) =>
    readMovements(db, (await findReadableSimulation(db, user, params.id)).id),

  listPartMovements: async ({ params }, { db, user }) => {
    const { part } = await findReadablePart(db, user, params.id)
    return readMovements(db, part.simulation_id, part.id)
  },

  createMovement: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const { part, simulation } = await findEditablePart(trx, user, params.id)
      const nowIso = clock.nowIso()
      const movement = await createStoredMovement(trx, simulation, part.id, body, nowIso)
      await touchSimulation(trx, simulation, nowIso)
      return movement
    }),

  partKeyframes: async ({ params, query }, { db, user }) => {
    const { part, simulation } = await findReadablePart(db, user, params.id)
    return computeStoredKeyframes(db, simulation, toPart(part), query.interpolate)
  },

  getMovement: async ({ params }, { db, user }) => {
    const { movement } = await findReadableMovement(db, user, params.id)
    return readMovement(db, movement.simulation_id, movement.id)
  },

  updateMovement: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const { simulation } = await findEditableMovement(trx, user, params.id)
      const nowIso = clock.nowIso()
      const movement = await updateStoredMovement(trx, simulation, params.id, body, nowIso)
      await touchSimulation(trx, simulation, nowIso)
      return movement
    }),

  deleteMovement: async ({ params }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const { simulation } = await findEditableMovement(trx, user, params.id)
      const nowIso = clock.nowIso()
      await trx.deleteFrom('movements').where('id', '=', params.id).execute()
      await clearMovementReferences(trx, simulation.id, [params.id], nowIso)
      await touchSimulation(trx, simulation, nowIso)
      return { id: params.id }
    }),

  addFollower: async ({ params }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const { simulation } = await findEditableMovement(trx, user, params.id)
      const movement = await linkFollower(trx, simulation, params.id, params.followerId)
      await touchSimulation(trx, simulation, clock.nowIso())
      return movement
    }),

  removeFollower: async ({ params }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const { simulation } = await findEditableMovement(trx, user, params.id)
      const movement = await unlinkFollower(trx, simulation, params.id, params.followerId)
      await touchSimulation(trx, simulation, clock.nowIso())
      return movement
    }),

  createDatatable: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const headers = body.headers ?? []
      const table = Object.fromEntries(headers.map((h) => [h, body.table?.[h] ?? []]))
      if (headers.length > 0) assertDatatableValid(body.kind, { headers, table })
      const row = await insertDatatable(trx, {
        organizationId: simulation.organization_id,
        simulationId: simulation.id,
        kind: body.kind,
        headers,
        table,
        nowIso: clock.nowIso(),
      })
      return toDatatablePage(row, 100, 1)
    }),

  getDatatable: async ({ params, query }, { db, user }) => {
    const { row } = await findDatatable(db, user, params.id, false)
    return toDatatablePage(row, query.pageLimit, query.pageNumber)
  },

  updateDatatableJson: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const { row } = await findDatatable(trx, user, params.id, true)
      return replaceDatatable(trx, row, body, clock.nowIso())
    }),
}
