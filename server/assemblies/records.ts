import type { Kysely, Selectable } from 'kysely'
import * as v from 'valibot'
import { JOB_STATES, type JobState } from '../../domain/jobs.ts'
import { COMPONENT_TYPES } from '../../domain/parts.ts'
import {
  AssemblyNodeSchema,
  MeshingParametersSchema,
  TessellationWarningSchema,
  defaultMeshingParameters,
  duplicateComponentMessages,
  type Assembly,
  type AssemblyNode,
  type AssemblyPart,
  type MeshingParameters,
  type TessellationRun,
} from '../../domain/tessellation.ts'
import type { Database } from '../db/schema.ts'
import { parseJson } from '../jobs/records.ts'
import type { AssemblyRow, JobRow } from './access.ts'
import { TESSELLATION_JOB_KIND } from './access.ts'
import { indexTree, type NodeFacts } from './cadTree.ts'
import type { AssemblyPartsTable } from './tables.ts'

/*
 * Rows → the shapes of domain/tessellation.ts. JSON columns are read leniently (a broken value
 * reads as its default). An assembly's state is its reading job's; its warnings are those of its
 * parts' last tessellation and the duplicate components (spec §5 wording), each naming its parts.
 */

type Db = Kysely<Database>
export type AssemblyPartRow = Selectable<AssemblyPartsTable>
type TessellationWarning = AssemblyPart['warnings'][number]

/** errorCode of the duplicate-component warning. */
export const DUPLICATE_COMPONENT_CODE = 'duplicate_component'

/** What a tessellation job keeps in `payload`. */
export interface TessellationPayload {
  assemblyId: number
  partIds: number[]
  /** Who started it: the setup parts it makes are theirs. */
  userId: number | null
}

export function readTessellationPayload(job: JobRow): TessellationPayload {
  const stored = parseJson(job.payload) as Partial<TessellationPayload> | null
  return {
    assemblyId: typeof stored?.assemblyId === 'number' ? stored.assemblyId : 0,
    partIds: Array.isArray(stored?.partIds)
      ? stored.partIds.filter((id): id is number => typeof id === 'number')
      : [],
    userId: typeof stored?.userId === 'number' ? stored.userId : null,
  }
}

export function readJobState(state: string | undefined): JobState {
  return JOB_STATES.find((s) => s === state) ?? 'unknown'
}

/** The tree of a read assembly, or null. */
export function readTree(row: Pick<AssemblyRow, 'tree'>): AssemblyNode[] | null {
  const result = v.safeParse(v.array(AssemblyNodeSchema), parseJson(row.tree))
  return result.success ? result.output : null
}

/** The leaf facts of a read assembly. */
export function readNodeFacts(row: Pick<AssemblyRow, 'node_facts'>): NodeFacts {
  const value = parseJson(row.node_facts)
  return typeof value === 'object' && value !== null ? (value as NodeFacts) : {}
}

export function readMeshingParameters(text: string): MeshingParameters {
  const stored = parseJson(text)
  const merged = {
    ...defaultMeshingParameters(),
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
  }
  const result = v.safeParse(MeshingParametersSchema, merged)
  return result.success ? result.output : defaultMeshingParameters()
}

export function readNodeIds(text: string): string[] {
  const value = parseJson(text)
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []
}

function readWarnings(text: string): TessellationWarning[] {
  const result = v.safeParse(v.array(TessellationWarningSchema), parseJson(text))
  return result.success ? result.output : []
}

function readMessages(text: string): string[] {
  const value = parseJson(text)
  if (!Array.isArray(value)) return []
  return value
    .map((item: unknown) =>
      typeof item === 'object' && item !== null
        ? (item as { description?: unknown }).description
        : undefined,
    )
    .filter((message): message is string => typeof message === 'string')
}

/**
 * What decides a part's mesh: its nodes (as a set) and meshing parameters. A part needs a
 * tessellation while this differs from the key of its last one.
 */
export function tessellationKey(nodeIds: readonly string[], params: MeshingParameters): string {
  return JSON.stringify({
    nodes: [...new Set(nodeIds)].sort(),
    linearDeflectionFactor: params.linearDeflectionFactor,
    angularDeflection: params.angularDeflection,
    useDelabellaAlgorithm: params.useDelabellaAlgorithm,
  })
}

/** New, changed since its last tessellation, or its setup part was deleted since. */
export function needsTessellation(row: AssemblyPartRow): boolean {
  const key = tessellationKey(
    readNodeIds(row.node_ids),
    readMeshingParameters(row.meshing_parameters),
  )
  if (row.tessellated_key !== key) return true
  return (row.triangle_count ?? 0) > 0 && row.setup_part_id === null
}

/** The spec's duplicate-component message for each node of `partId` that other parts use too. */
function duplicateWarnings(
  partId: number,
  parts: readonly Pick<AssemblyPart, 'id' | 'assemblyNodeIds' | 'assemblyNodeNames'>[],
  tree: readonly AssemblyNode[] | null,
): TessellationWarning[] {
  const own = new Set(parts.find((p) => p.id === partId)?.assemblyNodeIds ?? [])
  const restricted = parts.map((p) => {
    const kept = p.assemblyNodeIds.map((id, i) => [id, p.assemblyNodeNames?.[i] ?? id] as const)
    const shared = kept.filter(([id]) => own.has(id))
    return {
      id: p.id,
      assemblyNodeIds: shared.map(([id]) => id),
      assemblyNodeNames: shared.map(([, name]) => name),
    }
  })
  return duplicateComponentMessages(restricted, tree).map((message) => ({
    message,
    errorCode: DUPLICATE_COMPONENT_CODE,
  }))
}

/** The parts of an assembly as the API returns them, in id order. */
export function toAssemblyParts(
  rows: readonly AssemblyPartRow[],
  tree: readonly AssemblyNode[] | null,
): AssemblyPart[] {
  const nodes = indexTree(tree ?? [])
  const base = [...rows]
    .sort((a, b) => a.id - b.id)
    .map((row) => {
      const assemblyNodeIds = readNodeIds(row.node_ids)
      return {
        id: row.id,
        name: row.name,
        assemblyNodeIds,
        assemblyNodeNames: assemblyNodeIds.map((id) => nodes.get(id)?.labelName ?? id),
        componentType: COMPONENT_TYPES.find((t) => t === row.component_type) ?? 'rigid',
        meshingParameters: readMeshingParameters(row.meshing_parameters),
        needsTessellation: needsTessellation(row),
        setupPartId: row.setup_part_id,
        warnings: readWarnings(row.warnings),
      }
    })
  return base.map((part) => ({
    ...part,
    warnings: [...part.warnings, ...duplicateWarnings(part.id, base, tree)],
  }))
}

/** Warnings of the parts, each message once with the names of the parts it concerns. */
function assemblyWarnings(parts: readonly AssemblyPart[]): Assembly['tessellationWarnings'] {
  const grouped = new Map<string, Assembly['tessellationWarnings'][number]>()
  for (const part of parts)
    for (const warning of part.warnings) {
      const key = `${warning.errorCode}\u0000${warning.message}`
      const entry = grouped.get(key) ?? { ...warning, parts: [] }
      if (!entry.parts?.includes(part.name)) entry.parts?.push(part.name)
      grouped.set(key, entry)
    }
  return [...grouped.values()]
}

/** An assembly as the API returns it. */
export async function toAssembly(db: Db, row: AssemblyRow): Promise<Assembly> {
  const jobIds = [row.import_job_id, row.latest_tessellation_job_id].filter(
    (id): id is number => id !== null,
  )
  const [jobs, partRows] = await Promise.all([
    jobIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('jobs').selectAll().where('id', 'in', jobIds).execute(),
    db.selectFrom('assembly_parts').selectAll().where('assembly_id', '=', row.id).execute(),
  ])
  const importJob = jobs.find((job) => job.id === row.import_job_id)
  const tessellation = jobs.find((job) => job.id === row.latest_tessellation_job_id)
  // The tree is stored before its job ends: a row read before a job read as done is read again.
  const current =
    importJob?.state === 'done' && row.tree === null
      ? ((await db
          .selectFrom('assemblies')
          .selectAll()
          .where('id', '=', row.id)
          .executeTakeFirst()) ?? row)
      : row
  const tree = readTree(current)
  const errors = [
    ...(importJob ? readMessages(importJob.errors) : []),
    ...(tessellation ? readMessages(tessellation.errors) : []),
  ]
  return {
    id: row.id,
    filename: row.filename,
    state: readJobState(importJob?.state),
    assemblyMetadata: tree,
    latestTessellationRunId: row.latest_tessellation_job_id,
    tessellationWarnings: assemblyWarnings(toAssemblyParts(partRows, tree)),
    tessellationErrors: errors.map((message) => ({ message })),
    createdAt: row.created_at,
  }
}

/** A tessellation job as a run record. */
export function toTessellationRun(job: JobRow): TessellationRun {
  return {
    id: job.id,
    assemblyId: readTessellationPayload(job).assemblyId,
    state: readJobState(job.state),
    progress: Math.min(1, Math.max(0, job.progress)),
  }
}

/** The tessellation jobs of a simulation, newest first. */
export async function listTessellationJobs(db: Db, simulationId: number): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .where('kind', '=', TESSELLATION_JOB_KIND)
    .orderBy('id', 'desc')
    .execute()
}
