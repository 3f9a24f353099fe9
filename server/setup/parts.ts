import type { Kysely } from 'kysely'
import { MATERIAL_MESSAGES } from '../../domain/materials.ts'
import {
  FLUID_COMPONENT_TYPES,
  PART_MESSAGES,
  PART_WITHOUT_FILES,
  checkPart,
  defaultPartAppearance,
  defaultComponent,
  makeUniqueName,
  type Component,
  type ComponentUpdate,
  type Part,
  type PartCreate,
  type PartUpdate,
  type ShapeInfo,
} from '../../domain/parts.ts'
import type { Issue } from '../../domain/validation.ts'
import { notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import { readSettings } from '../api/views.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { listSensorAndClipNames } from '../sensors/names.ts'
import { refuseField, refuseIssues } from './issues.ts'
import { assertReferenceReadable, mergeShape, resolveShape } from './shapes.ts'
import {
  changedFields,
  newErrors,
  readDatatableInfos,
  readMaterials,
  readPart,
  readParts,
} from './store.ts'

/*
 * Parts (spec/setup.md §3 "Part", §5 "Part"). Names are made unique within the simulation; fluid
 * parts start with material 0; an update is refused (nothing stored) when it breaks a rule that
 * held before. Missing geometry is allowed while building ('empty' parts): it stays in the
 * Input Validation bar and blocks discretization instead.
 */

type Db = Kysely<Database>

interface PartContext {
  db: Db
  dataDir: string
  simulation: SimulationRow
  nowIso: string
  /** Who edits: a pointcloud part may only name a simulation this user sees. */
  user?: SessionUser | undefined
}

/** `update` over `existing` when the type stays, else over the type's defaults. */
export function mergeComponent(
  existing: Component | undefined,
  update: ComponentUpdate,
): Component {
  const base = existing?.type === update.type ? existing : defaultComponent(update.type)
  return { ...base, ...update } as Component
}

/** Error codes of the mesh-health warnings (geometryWarnings). */
const MESH_HEALTH_CODES: readonly string[] = ['mesh_holes', 'mesh_non_manifold']

/** Warnings a shape's mesh health gives (holes, non-manifold edges); a plane is open by design. */
export function geometryWarnings(shape: Part['shape']): Part['warnings'] {
  const info = shape.info
  if (!info || shape.type === 'plane') return []
  const warnings: Part['warnings'] = []
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  if (info.holes.length > 0)
    warnings.push({
      errorCode: 'mesh_holes',
      message: `The mesh has ${plural(info.holes.length, 'hole')}: it is not watertight.`,
    })
  if (info.nonManifold.length > 0)
    warnings.push({
      errorCode: 'mesh_non_manifold',
      message: `The mesh has ${plural(info.nonManifold.length, 'non-manifold edge group')}.`,
    })
  return warnings
}

/** Geometry still to be assigned is not a reason to refuse a part. */
function isRefusable(issue: Issue): boolean {
  return issue.message !== PART_MESSAGES.emptyGeometry
}

async function ruleContext(db: Db, simulation: SimulationRow) {
  const settings = readSettings(simulation.settings)
  const [materials, datatables] = await Promise.all([
    readMaterials(db, simulation),
    readDatatableInfos(db, simulation.id),
  ])
  const tables = new Map(datatables.map((t) => [t.id, t]))
  return {
    thermodynamics: settings.thermodynamics,
    multiphase: settings.multiphase,
    surfaceTension: settings.surfaceTension,
    materialIds: materials.map((m) => m.id),
    findDatatable: (id: number) => tables.get(id),
    datatablesComplete: true,
  }
}

/** The part after an update, checked and resolved (file names, shape info), not yet stored. */
async function buildPart(
  context: PartContext,
  existing: Part | undefined,
  update: PartUpdate & { kind?: string | undefined },
  otherNames: readonly string[],
  fallback: { id: number; createdBy: number | null; index: number },
): Promise<Part> {
  const { db, dataDir, simulation, nowIso } = context
  const component = update.component
    ? mergeComponent(existing?.component, update.component)
    : (existing?.component ?? defaultComponent('rigid'))
  const isFluid = FLUID_COMPONENT_TYPES.includes(component.type)
  let materialId =
    update.materialId !== undefined
      ? update.materialId
      : (existing?.materialId ?? (isFluid ? 0 : null))
  if (isFluid && materialId === null && update.materialId === undefined) materialId = 0
  const rules = await ruleContext(db, simulation)
  if (materialId !== null && !rules.materialIds.includes(materialId))
    throw refuseField('materialId', MATERIAL_MESSAGES.materialRequired)
  let shape = existing?.shape ?? mergeShape(undefined, { type: 'empty' })
  if (update.shape) {
    shape = mergeShape(existing?.shape, update.shape)
    if (shape.type === 'pointcloud' && shape.refSimulationId !== null && context.user)
      await assertReferenceReadable(db, context.user, shape.refSimulationId)
    shape = await resolveShape(db, dataDir, simulation.organization_id, shape)
  }
  const name =
    update.name !== undefined ? makeUniqueName(update.name, otherNames) : (existing?.name ?? '')
  const part: Part = {
    id: existing?.id ?? fallback.id,
    simulationId: simulation.id,
    name,
    kind: existing?.kind ?? update.kind ?? component.type,
    createdAt: existing?.createdAt ?? nowIso,
    updatedAt: nowIso,
    createdBy: existing?.createdBy ?? fallback.createdBy,
    organizationId: simulation.organization_id,
    seedPoint: update.seedPoint !== undefined ? update.seedPoint : (existing?.seedPoint ?? null),
    materialId,
    component,
    appearance: {
      ...(existing?.appearance ?? defaultPartAppearance(fallback.index, component.type)),
      ...update.appearance,
    },
    shape,
    hasWarnings: false,
    warnings: update.shape ? geometryWarnings(shape) : (existing?.warnings ?? []),
    ...PART_WITHOUT_FILES,
  }
  part.hasWarnings = part.warnings.length > 0
  if (component.type === 'filling' && component.height !== null && !(component.height >= 0))
    throw refuseField('component.height', 'Fill height must be at least 0.')
  const broken = newErrors(
    existing ? checkPart(existing, rules) : [],
    checkPart(part, rules),
    changedFields('part', existing, update),
  ).filter(isRefusable)
  if (broken.length > 0) throw refuseIssues(broken)
  return part
}

function partColumns(part: Part) {
  const { createdAt: _c, updatedAt: _u, ...appearance } = part.appearance
  return {
    name: part.name,
    kind: part.kind,
    material_id: part.materialId,
    seed_point: part.seedPoint === null ? null : JSON.stringify(part.seedPoint),
    component: JSON.stringify(part.component),
    shape: JSON.stringify(part.shape),
    appearance: JSON.stringify(appearance),
    warnings: JSON.stringify(part.warnings),
    updated_at: part.updatedAt,
  }
}

export async function createStoredPart(
  context: PartContext,
  user: SessionUser,
  body: PartCreate,
): Promise<Part> {
  const parts = await readParts(context.db, context.simulation.id)
  const part = await buildPart(
    context,
    undefined,
    body,
    [
      ...parts.map((p) => p.name),
      ...(await listSensorAndClipNames(context.db, context.simulation.id)),
    ],
    { id: 0, createdBy: user.id, index: parts.length },
  )
  const { id } = await context.db
    .insertInto('parts')
    .values({
      ...partColumns(part),
      simulation_id: context.simulation.id,
      organization_id: context.simulation.organization_id,
      created_by: user.id,
      created_at: context.nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return readPart(context.db, id)
}

/** Updates parts of one simulation; all or nothing (the caller's transaction). */
export async function updateStoredParts(
  context: PartContext,
  updates: readonly (PartUpdate & { id: number })[],
): Promise<Part[]> {
  let parts = await readParts(context.db, context.simulation.id)
  const objectNames = await listSensorAndClipNames(context.db, context.simulation.id)
  const changed: number[] = []
  for (const update of updates) {
    const existing = parts.find((p) => p.id === update.id)
    if (!existing) throw notFound('Part')
    const next = await buildPart(
      context,
      existing,
      update,
      [...parts.filter((p) => p.id !== existing.id).map((p) => p.name), ...objectNames],
      { id: existing.id, createdBy: existing.createdBy, index: 0 },
    )
    await context.db
      .updateTable('parts')
      .set(partColumns(next))
      .where('id', '=', existing.id)
      .execute()
    parts = parts.map((p) => (p.id === next.id ? next : p))
    changed.push(existing.id)
  }
  const stored = await readParts(context.db, context.simulation.id)
  return changed.map((id) => stored.find((p) => p.id === id)).filter((p): p is Part => !!p)
}

/** Every fluid part gets `materialId`, which must exist. */
export async function resetStoredPartMaterials(
  context: PartContext,
  materialId: number,
): Promise<Part[]> {
  const materials = await readMaterials(context.db, context.simulation)
  if (!materials.some((m) => m.id === materialId))
    throw refuseField('materialId', MATERIAL_MESSAGES.materialRequired)
  const parts = await readParts(context.db, context.simulation.id)
  for (const part of parts)
    if (FLUID_COMPONENT_TYPES.includes(part.component.type))
      await context.db
        .updateTable('parts')
        .set({ material_id: materialId, updated_at: context.nowIso })
        .where('id', '=', part.id)
        .execute()
  return readParts(context.db, context.simulation.id)
}

/** Stores geometry facts the client computed (e.g. its mesh-health check). */
export async function storeShapeInfo(
  context: PartContext,
  partId: number,
  info: ShapeInfo,
): Promise<Part> {
  const part = await readPart(context.db, partId)
  const shape = { ...part.shape, info }
  // The mesh-health warnings follow the stored facts; other warnings (discretizer) stay.
  const warnings = [
    ...part.warnings.filter((w) => !MESH_HEALTH_CODES.includes(w.errorCode)),
    ...geometryWarnings(shape),
  ]
  const next: Part = {
    ...part,
    shape,
    warnings,
    hasWarnings: warnings.length > 0,
    updatedAt: context.nowIso,
  }
  await context.db.updateTable('parts').set(partColumns(next)).where('id', '=', partId).execute()
  return readPart(context.db, partId)
}

export { readPart }
