import type { Kysely } from 'kysely'
import type { Role } from '../../domain/account.ts'
import type { JobMessage } from '../../domain/jobs.ts'
import { SETUP_LOCKED_MESSAGE, UPLOADED_SETUP_MESSAGE } from '../../domain/rest/setupRoutes.ts'
import type { AssemblyPart } from '../../domain/tessellation.ts'
import type { SessionUser } from '../api/context.ts'
import type { Clock } from '../clock.ts'
import { fromFlag, type Database } from '../db/schema.ts'
import { resolveStoredPath } from '../storage/files.ts'
import type { JobRow } from './access.ts'
import type { CadExecutor } from './cadThread.ts'
import { boxOfLeaves, linearDeflectionOf, resolveLeaves } from './cadTree.ts'
import type { PartTessellationRequest, PartTessellationResult } from './cadWork.ts'
import {
  readMeshingParameters,
  readNodeFacts,
  readNodeIds,
  readTessellationPayload,
  readTree,
  tessellationKey,
  type AssemblyPartRow,
} from './records.ts'
import {
  carryTessellationWarnings,
  placeTessellatedMesh,
  storeTessellatedMesh,
} from './setupParts.ts'

/*
 * A tessellation run (spec/setup.md §2 step '2. Tessellation'): each part's nodes resolved to
 * the leaves of the tree, tessellated in a CAD thread with the part's meshing parameters
 * (linear deflection relative to the part's own bounding box, angular deflection in degrees),
 * merged into one mesh in metres, stored and placed as a setup part as soon as it is done, the
 * run's progress written after each. Warnings per part: nodes the file does not have, nodes
 * without surface, an empty result, triangles dropped without area, and the Delabella choice.
 */

type Db = Kysely<Database>
type Warning = AssemblyPart['warnings'][number]

/** errorCodes of the per-part tessellation warnings. */
export const TESSELLATION_WARNING_CODES = {
  unknownNodes: 'tessellation_unknown_nodes',
  noGeometry: 'tessellation_no_geometry',
  empty: 'tessellation_empty',
  degenerate: 'tessellation_degenerate',
  delabella: 'tessellation_delabella_unavailable',
  setupPart: 'tessellation_setup_part',
} as const

/**
 * useDelabellaAlgorithm: occt-import-js 0.0.23 meshes with BRepMesh_IncrementalMesh's default
 * algorithm and offers no other (OCCT's Delabella factory is not compiled into it), so the choice
 * is stored and reported, and the default mesher is used.
 */
export const DELABELLA_UNAVAILABLE_MESSAGE =
  'The Delabella algorithm is not available on this server; the default mesher was used.'

/** What a run needs from its runner. */
export interface TessellationContext {
  db: Db
  clock: Clock
  dataDir: string
  executor: CadExecutor
  /** False once the run was canceled or the runner closes: late results are dropped. */
  isCurrent(): Promise<boolean>
}

/** One part of the run, as read when the run started. */
interface PlannedPart {
  row: AssemblyPartRow
  key: string
  warnings: Warning[]
  request: PartTessellationRequest | null
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

function planPart(
  row: AssemblyPartRow,
  tree: ReturnType<typeof readTree>,
  facts: ReturnType<typeof readNodeFacts>,
): PlannedPart {
  const nodeIds = readNodeIds(row.node_ids)
  const params = readMeshingParameters(row.meshing_parameters)
  const key = tessellationKey(nodeIds, params)
  const warnings: Warning[] = []
  const { leaves, unknown } = resolveLeaves(tree ?? [], nodeIds)
  if (unknown.length > 0)
    warnings.push({
      errorCode: TESSELLATION_WARNING_CODES.unknownNodes,
      message: `The file has no node ${unknown.join(', ')}.`,
    })
  const empty = leaves.filter((leaf) => !facts[leaf]?.min)
  if (empty.length > 0)
    warnings.push({
      errorCode: TESSELLATION_WARNING_CODES.noGeometry,
      message: `${plural(empty.length, 'node')} of the part ${empty.length === 1 ? 'has' : 'have'} no surface to tessellate.`,
    })
  if (params.useDelabellaAlgorithm)
    warnings.push({
      errorCode: TESSELLATION_WARNING_CODES.delabella,
      message: DELABELLA_UNAVAILABLE_MESSAGE,
    })
  const box = boxOfLeaves(facts, leaves)
  const request =
    box === null
      ? null
      : {
          partId: row.id,
          leaves: leaves.filter((leaf) => facts[leaf]?.min),
          linearDeflectionM: linearDeflectionOf(box, params.linearDeflectionFactor ?? 1),
          angularDeflectionRad: ((params.angularDeflection ?? 15) * Math.PI) / 180,
        }
  return { row, key, warnings, request }
}

async function readStarter(db: Db, userId: number | null): Promise<SessionUser> {
  const user =
    userId === null
      ? undefined
      : await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst()
  if (!user) throw new Error('The user who started the tessellation no longer exists.')
  return { ...user, role: user.role as Role }
}

/** The part's end: its mesh (when it has triangles) placed as a setup part, its row updated. */
async function storePart(
  context: TessellationContext,
  run: { simulationId: number; filename: string; user: SessionUser },
  planned: PlannedPart,
  result: PartTessellationResult | null,
): Promise<Warning[]> {
  const { db, dataDir } = context
  if (!(await context.isCurrent())) return []
  const row = await db
    .selectFrom('assembly_parts')
    .selectAll()
    .where('id', '=', planned.row.id)
    .executeTakeFirst()
  if (!row) return []
  const triangles = result ? result.indices.length / 3 : 0
  const warnings = [...planned.warnings]
  if (result && result.missingLeaves.length > 0)
    warnings.push({
      errorCode: TESSELLATION_WARNING_CODES.noGeometry,
      message: `${plural(result.missingLeaves.length, 'node')} gave no mesh at these meshing parameters.`,
    })
  if (result && result.degenerateTriangles > 0)
    warnings.push({
      errorCode: TESSELLATION_WARNING_CODES.degenerate,
      message: `${plural(result.degenerateTriangles, 'degenerate triangle')} without area ${result.degenerateTriangles === 1 ? 'was' : 'were'} dropped.`,
    })
  if (triangles === 0)
    warnings.push({
      errorCode: TESSELLATION_WARNING_CODES.empty,
      message: 'The tessellation gave no triangles: no setup part was made.',
    })
  const nowIso = context.clock.nowIso()
  let setupPartId = row.setup_part_id
  if (result && triangles > 0) {
    const simulation = await db
      .selectFrom('simulations')
      .selectAll()
      .where('id', '=', run.simulationId)
      .executeTakeFirstOrThrow()
    if (fromFlag(simulation.uploaded_setup)) throw new Error(UPLOADED_SETUP_MESSAGE)
    if (fromFlag(simulation.setup_locked)) throw new Error(SETUP_LOCKED_MESSAGE)
    try {
      setupPartId = await db.transaction().execute(async (trx) => {
        const uploadId = await storeTessellatedMesh(
          { db: trx, dataDir, nowIso },
          {
            organizationId: simulation.organization_id,
            uploaderId: run.user.id,
            fileName: run.filename,
          },
          { positions: result.positions, indices: result.indices },
        )
        const placed = await placeTessellatedMesh(
          { db: trx, dataDir, nowIso, simulation, user: run.user },
          row.setup_part_id,
          { name: row.name, componentType: row.component_type as AssemblyPart['componentType'] },
          uploadId,
        )
        await carryTessellationWarnings(trx, placed, warnings)
        return placed
      })
    } catch (error) {
      warnings.push({
        errorCode: TESSELLATION_WARNING_CODES.setupPart,
        message: `The setup part could not be made: ${error instanceof Error ? error.message : String(error)}`,
      })
    }
  }
  await db
    .updateTable('assembly_parts')
    .set({
      tessellated_key: planned.key,
      triangle_count: triangles,
      warnings: JSON.stringify(warnings),
      setup_part_id: setupPartId,
      updated_at: nowIso,
    })
    .where('id', '=', row.id)
    .execute()
  return warnings
}

/**
 * Runs a claimed tessellation job: returns its warnings (one per part warning, named by part).
 * Throws when the run cannot go on; an abort rejects (the caller knows why).
 */
export async function runTessellationJob(
  context: TessellationContext,
  job: JobRow,
  signal: AbortSignal,
): Promise<JobMessage[]> {
  const { db } = context
  const payload = readTessellationPayload(job)
  const assembly = await db
    .selectFrom('assemblies')
    .selectAll()
    .where('id', '=', payload.assemblyId)
    .executeTakeFirst()
  if (!assembly) throw new Error('The assembly of this tessellation no longer exists.')
  const tree = readTree(assembly)
  if (!tree) throw new Error('The file has not been read yet.')
  const facts = readNodeFacts(assembly)
  const rows =
    payload.partIds.length === 0
      ? []
      : await db
          .selectFrom('assembly_parts')
          .selectAll()
          .where('assembly_id', '=', assembly.id)
          .where('id', 'in', payload.partIds)
          .orderBy('id')
          .execute()
  const run = {
    simulationId: job.simulation_id,
    filename: assembly.filename,
    user: await readStarter(db, payload.userId),
  }
  const planned = rows.map((row) => planPart(row, tree, facts))
  const messages: JobMessage[] = []
  let done = 0
  const finishPart = async (part: PlannedPart, result: PartTessellationResult | null) => {
    const warnings = await storePart(context, run, part, result)
    for (const warning of warnings)
      messages.push({ description: `${part.row.name}: ${warning.message}` })
    done++
    await db
      .updateTable('jobs')
      .set({ progress: done / Math.max(1, planned.length), updated_at: context.clock.nowIso() })
      .where('id', '=', job.id)
      .where('state', '=', 'running')
      .execute()
  }
  for (const part of planned) if (part.request === null) await finishPart(part, null)
  const requests = planned.flatMap((part) => (part.request ? [part.request] : []))
  if (requests.length === 0) return messages
  const byId = new Map(planned.map((part) => [part.row.id, part]))
  await context.executor.tessellate(
    resolveStoredPath(context.dataDir, assembly.stored_path),
    requests,
    signal,
    async (result) => {
      const part = byId.get(result.partId)
      if (part) await finishPart(part, result)
    },
  )
  return messages
}
