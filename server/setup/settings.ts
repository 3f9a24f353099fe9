import type { Kysely } from 'kysely'
import type { Material } from '../../domain/materials.ts'
import { isPointcloudPart, type Part } from '../../domain/parts.ts'
import type { CalcDomain, SettingsResult } from '../../domain/rest/setupRoutes.ts'
import type { SimulationSettings, SimulationSettingsPatch } from '../../domain/settings.ts'
import {
  SETTINGS_MESSAGES,
  applyMultiphase,
  applySurfaceTension,
  canEnableSurfaceTension,
  checkCalcDomain,
  checkSettings,
  checkSettingsCoupling,
  multiphaseBlockers,
} from '../../domain/settingsRules.ts'
import type { Issue } from '../../domain/validation.ts'
import { readSettings } from '../api/views.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { refuseField, refuseIssues } from './issues.ts'
import { changedFields, newErrors, readMaterials, readParts } from './store.ts'

/*
 * Settings and the calculation domain (spec/setup.md §3 settings, §4 switches, §5 rules). A change
 * is refused (400, nothing stored) when it breaks a rule that held before; empty values and
 * warnings are kept and reported in `issues`, as the Input Validation bar shows them.
 */

type Db = Kysely<Database>

/** The rules of the settings alone and those coupled with the rest of the setup. */
export function checkSettingsWithSetup(
  settings: SimulationSettings,
  materials: readonly Material[],
  parts: readonly Part[],
  refinementCount = 0,
): Issue[] {
  return [
    ...checkSettings(settings, { hasPointcloudPart: parts.some(isPointcloudPart) }),
    ...checkSettingsCoupling(settings, { materialCount: materials.length, refinementCount }),
  ]
}

/**
 * Refuses switching air drag on with multiphase. Without a stored air drag domain the Input
 * Validation bar shows 'Air drag domain is required' (which blocks discretization and runs).
 */
export function refuseUnavailableSwitches(
  before: Pick<SimulationSettings, 'airDrag'>,
  next: Pick<SimulationSettings, 'multiphase'>,
  patch: SimulationSettingsPatch,
): void {
  if (patch.airDrag !== true || before.airDrag || !next.multiphase) return
  throw refuseField('settings.airDrag', SETTINGS_MESSAGES.multiphaseAirDrag)
}

export async function readSettingsResult(
  db: Db,
  simulation: SimulationRow,
): Promise<SettingsResult> {
  const [materials, parts, refinements] = await Promise.all([
    readMaterials(db, simulation),
    readParts(db, simulation.id),
    countRefinements(db, simulation.id),
  ])
  const settings = readSettings(simulation.settings)
  return {
    settings,
    issues: checkSettingsWithSetup(settings, materials, parts, refinements),
    adjustments: [],
  }
}

/** How many refinement zones a simulation has (multiphase cannot combine with them). */
async function countRefinements(db: Db, simulationId: number): Promise<number> {
  const rows = await db
    .selectFrom('refinements')
    .select(['id'])
    .where('simulation_id', '=', simulationId)
    .execute()
  return rows.length
}

async function resolveAccelerationFile(
  db: Db,
  organizationId: number,
  fileId: number,
): Promise<{ id: number; name: string }> {
  const upload = await db
    .selectFrom('uploads')
    .select(['id', 'file_name', 'kind'])
    .where('id', '=', fileId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!upload) throw refuseField('settings.accelerationFileId', 'Acceleration file not found.')
  if (upload.kind !== 'csv')
    throw refuseField('settings.accelerationFile', SETTINGS_MESSAGES.accelerationFileCsv)
  return { id: upload.id, name: upload.file_name }
}

/**
 * Applies a settings patch with the switches of spec/setup.md §4: multiphase on creates a second
 * material, resets fluid parts to material 0 and adjusts the advanced settings; multiphase off
 * re-enables the density limiter; surface tension on forces shifting to lyu21. Everything is
 * written in the caller's transaction.
 */
export async function updateStoredSettings(
  db: Db,
  simulation: SimulationRow,
  patch: SimulationSettingsPatch,
  nowIso: string,
): Promise<SettingsResult> {
  const before = readSettings(simulation.settings)
  const materials = await readMaterials(db, simulation)
  const parts = await readParts(db, simulation.id)
  const refinementCount = await countRefinements(db, simulation.id)
  let next: SimulationSettings = { ...before, ...patch }
  let nextMaterials = materials
  let nextParts = parts
  let createdMaterials: Material[] = []
  const adjustments: string[] = []

  const fileId =
    patch.accelerationFileId !== undefined ? patch.accelerationFileId : patch.accelerationFile?.id
  if (fileId !== undefined) {
    const file =
      fileId === null ? null : await resolveAccelerationFile(db, simulation.organization_id, fileId)
    next = { ...next, accelerationFileId: file?.id ?? null, accelerationFile: file }
  }

  if (patch.multiphase !== undefined && patch.multiphase !== before.multiphase) {
    if (patch.multiphase) {
      const blockers = multiphaseBlockers(next, { refinementCount, parts })
      if (blockers.length > 0)
        throw refuseIssues(
          blockers.map((message) => ({ level: 'error', field: 'settings.multiphase', message })),
        )
    }
    const transition = applyMultiphase(patch.multiphase, next, materials, parts, {
      simulationId: simulation.id,
      nowIso,
    })
    next = transition.settings
    nextMaterials = transition.materials
    nextParts = transition.parts
    createdMaterials = transition.createdMaterials
    adjustments.push(...transition.adjustments)
  }
  refuseUnavailableSwitches(before, next, patch)
  if (patch.surfaceTension === true && !before.surfaceTension) {
    if (!canEnableSurfaceTension(next, nextMaterials.length))
      throw refuseField('settings.surfaceTension', SETTINGS_MESSAGES.surfaceTensionMaxMaterials)
    if (patch.shifting === undefined) next = applySurfaceTension(true, next)
  }

  const broken = newErrors(
    checkSettingsWithSetup(before, materials, parts, refinementCount),
    checkSettingsWithSetup(next, nextMaterials, nextParts, refinementCount),
    changedFields('settings', before, patch),
  )
  if (broken.length > 0) throw refuseIssues(broken)

  await db
    .updateTable('simulations')
    .set({ settings: JSON.stringify(next), updated_at: nowIso })
    .where('id', '=', simulation.id)
    .execute()
  for (const material of createdMaterials) {
    const { id, simulationId: _s, createdAt: _c, ...properties } = material
    await db
      .insertInto('materials')
      .values({
        simulation_id: simulation.id,
        material_id: id,
        properties: JSON.stringify(properties),
        created_at: nowIso,
      })
      .execute()
  }
  for (const part of nextParts) {
    const old = parts.find((p) => p.id === part.id)
    if (old && old.materialId !== part.materialId)
      await db
        .updateTable('parts')
        .set({ material_id: part.materialId, updated_at: nowIso })
        .where('id', '=', part.id)
        .execute()
  }
  await db
    .updateTable('projects')
    .set({ updated_at: nowIso })
    .where('id', '=', simulation.project_id)
    .execute()
  return {
    settings: next,
    issues: checkSettingsWithSetup(next, nextMaterials, nextParts, refinementCount),
    adjustments,
  }
}

export function toCalcDomain(settings: SimulationSettings): CalcDomain {
  return {
    active: settings.calcDomainActive,
    min: settings.calcDomainMin,
    max: settings.calcDomainMax,
    issues: checkCalcDomain(settings),
  }
}

/** Adds, changes (active defaults to true) or removes (active false) the calculation domain. */
export async function updateStoredCalcDomain(
  db: Db,
  simulation: SimulationRow,
  update: {
    active?: boolean | undefined
    min?: SimulationSettings['calcDomainMin'] | undefined
    max?: SimulationSettings['calcDomainMax'] | undefined
  },
  nowIso: string,
): Promise<CalcDomain> {
  const before = readSettings(simulation.settings)
  const next: SimulationSettings = {
    ...before,
    calcDomainActive: update.active ?? true,
    calcDomainMin: update.min ?? before.calcDomainMin,
    calcDomainMax: update.max ?? before.calcDomainMax,
  }
  const issues = checkCalcDomain(next)
  const refused = issues.filter((i) => i.level !== 'warning')
  if (next.calcDomainActive && refused.length > 0) throw refuseIssues(refused)
  await db
    .updateTable('simulations')
    .set({ settings: JSON.stringify(next), updated_at: nowIso })
    .where('id', '=', simulation.id)
    .execute()
  await db
    .updateTable('projects')
    .set({ updated_at: nowIso })
    .where('id', '=', simulation.project_id)
    .execute()
  return toCalcDomain(next)
}
