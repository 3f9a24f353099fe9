import type { Kysely } from 'kysely'
import {
  MULTIPHASE_MAX_MATERIALS,
  canDeleteMaterial,
  checkMaterial,
  defaultMaterialProperties,
  type Material,
  type MaterialProperties,
  type MaterialUpdate,
} from '../../domain/materials.ts'
import { DATATABLE_MESSAGES } from '../../domain/datatable.ts'
import { MATERIAL_NOT_DELETABLE_MESSAGE } from '../../domain/rest/setupRoutes.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { notFound } from '../api/apiError.ts'
import { readSettings } from '../api/views.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { refuseField, refuseIssues } from './issues.ts'
import { changedFields, newErrors, readDatatableInfos, readMaterials } from './store.ts'
import { toMaterial } from './views.ts'

/*
 * Materials of a simulation (spec/setup.md §3, §5 "Material"). PUT creates a material whose id is
 * new; a simulation holds at most MULTIPHASE_MAX_MATERIALS. Material 0 and 1 cannot be deleted.
 */

type Db = Kysely<Database>

function propertiesOf(material: Material): MaterialProperties {
  const { id: _id, simulationId: _simulationId, createdAt: _createdAt, ...properties } = material
  return properties
}

export async function findMaterial(
  db: Db,
  simulation: SimulationRow,
  materialId: number,
): Promise<Material> {
  const material = (await readMaterials(db, simulation)).find((m) => m.id === materialId)
  if (!material) throw notFound('Material')
  return material
}

/**
 * Creates or changes a material; refused (nothing stored) when it breaks a rule that held before
 * or leaves a field it changes in error.
 */
export async function upsertMaterial(
  db: Db,
  simulation: SimulationRow,
  materialId: number,
  update: MaterialUpdate,
  nowIso: string,
): Promise<Material> {
  const materials = await readMaterials(db, simulation)
  const existing = materials.find((m) => m.id === materialId)
  const settings = readSettings(simulation.settings)
  if (!existing && materials.length >= MULTIPHASE_MAX_MATERIALS)
    throw refuseField(
      'materialId',
      settings.multiphase
        ? SETTINGS_MESSAGES.multiphaseMaxMaterials
        : SETTINGS_MESSAGES.singlePhaseMaxMaterials,
    )
  const base = existing ? propertiesOf(existing) : defaultMaterialProperties(materialId)
  const next: MaterialProperties = { ...base, ...update }
  const tables = new Map(
    (await readDatatableInfos(db, simulation.id)).map((t) => [t.id, t.resultCount]),
  )
  // A table of another simulation or organization is refused like a missing one (issue 13),
  // whether or not the viscosity kind uses it yet.
  for (const key of ['viscosityShearRateTableId', 'viscosityTemperatureTableId'] as const) {
    const tableId = update[key]
    if (typeof tableId === 'number' && !tables.has(tableId))
      throw refuseField(`material.${key}`, DATATABLE_MESSAGES.tableNotFound)
  }
  const context = {
    thermodynamics: settings.thermodynamics,
    tableRowCount: (id: number) => tables.get(id),
    datatablesComplete: true,
  }
  const broken = newErrors(
    existing ? checkMaterial(base, context) : [],
    checkMaterial(next, context),
    changedFields('material', base, update),
  )
  if (broken.length > 0) throw refuseIssues(broken)
  const row = await db
    .selectFrom('materials')
    .select('id')
    .where('simulation_id', '=', simulation.id)
    .where('material_id', '=', materialId)
    .executeTakeFirst()
  if (row)
    await db
      .updateTable('materials')
      .set({ properties: JSON.stringify(next) })
      .where('id', '=', row.id)
      .execute()
  else
    await db
      .insertInto('materials')
      .values({
        simulation_id: simulation.id,
        material_id: materialId,
        properties: JSON.stringify(next),
        created_at: existing?.createdAt ?? nowIso,
      })
      .execute()
  const stored = await db
    .selectFrom('materials')
    .selectAll()
    .where('simulation_id', '=', simulation.id)
    .where('material_id', '=', materialId)
    .executeTakeFirstOrThrow()
  return toMaterial(stored)
}

/** Deletes material 2 or above; parts that used it are left without a material. */
export async function deleteStoredMaterial(
  db: Db,
  simulation: SimulationRow,
  materialId: number,
  nowIso: string,
): Promise<void> {
  if (!canDeleteMaterial(materialId))
    throw refuseField('materialId', MATERIAL_NOT_DELETABLE_MESSAGE)
  const deleted = await db
    .deleteFrom('materials')
    .where('simulation_id', '=', simulation.id)
    .where('material_id', '=', materialId)
    .executeTakeFirst()
  if (Number(deleted.numDeletedRows) === 0) throw notFound('Material')
  await db
    .updateTable('parts')
    .set({ material_id: null, updated_at: nowIso })
    .where('simulation_id', '=', simulation.id)
    .where('material_id', '=', materialId)
    .execute()
}
