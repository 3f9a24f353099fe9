import type { Kysely } from 'kysely'
import {
  checkMeshingParameters,
  defaultMeshingParameters,
  type AssemblyNode,
  type AssemblyPart,
  type AssemblyPartCreate,
  type AssemblyPartUpdate,
  type MeshingParameters,
} from '../../domain/tessellation.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { Database } from '../db/schema.ts'
import { refuseIssues } from '../setup/issues.ts'
import type { AssemblyRow } from './access.ts'
import { indexTree } from './cadTree.ts'
import { readTree, toAssemblyParts } from './records.ts'
import { syncSetupPart } from './setupParts.ts'

/*
 * The wizard's parts of an assembly (spec/setup.md §2 "Assembly import wizard", §3 "Assembly
 * part"): tree nodes grouped under a name, a component type (rigid unless chosen) and meshing
 * parameters (the defaults unless given). Out-of-range meshing parameters are refused; empty ones
 * are kept while the form is being filled and block the tessellation instead. A rename or another
 * component type also reaches the setup part made from the part at once.
 */

type Db = Kysely<Database>

/** Refusal of part edits before the file's tree is read. */
export const ASSEMBLY_NOT_READ_MESSAGE = 'The file has not been read yet.'

interface PartEditContext {
  db: Db
  dataDir: string
  assembly: AssemblyRow
  nowIso: string
}

function requireTree(assembly: AssemblyRow): AssemblyNode[] {
  const tree = readTree(assembly)
  if (!tree) throw new ApiError('conflict', ASSEMBLY_NOT_READ_MESSAGE)
  return tree
}

function checkNodeIds(tree: readonly AssemblyNode[], nodeIds: readonly string[]): void {
  const nodes = indexTree(tree)
  const unknown = nodeIds.find((id) => !nodes.has(id))
  if (unknown !== undefined)
    throw new ApiError('validation_error', `The file has no node ${unknown}.`, [
      { path: 'assemblyNodeIds', message: `The file has no node ${unknown}.` },
    ])
  if (nodeIds.length === 0)
    throw new ApiError('validation_error', 'A part needs at least one node.', [
      { path: 'assemblyNodeIds', message: 'A part needs at least one node.' },
    ])
}

function checkParameters(params: MeshingParameters): void {
  const errors = checkMeshingParameters(params).filter((issue) => issue.level === 'error')
  if (errors.length > 0) throw refuseIssues(errors)
}

/** The parts of an assembly as the API returns them. */
export async function listAssemblyParts(db: Db, assembly: AssemblyRow): Promise<AssemblyPart[]> {
  const rows = await db
    .selectFrom('assembly_parts')
    .selectAll()
    .where('assembly_id', '=', assembly.id)
    .execute()
  return toAssemblyParts(rows, readTree(assembly))
}

async function readAssemblyPart(db: Db, assembly: AssemblyRow, id: number): Promise<AssemblyPart> {
  const part = (await listAssemblyParts(db, assembly)).find((p) => p.id === id)
  if (!part) throw notFound('Assembly part')
  return part
}

export async function createAssemblyPart(
  context: PartEditContext,
  body: AssemblyPartCreate,
): Promise<AssemblyPart> {
  const { db, assembly, nowIso } = context
  checkNodeIds(requireTree(assembly), body.assemblyNodeIds)
  const meshingParameters = body.meshingParameters ?? defaultMeshingParameters()
  checkParameters(meshingParameters)
  const { id } = await db
    .insertInto('assembly_parts')
    .values({
      assembly_id: assembly.id,
      name: body.name,
      node_ids: JSON.stringify(body.assemblyNodeIds),
      component_type: body.componentType,
      meshing_parameters: JSON.stringify(meshingParameters),
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return readAssemblyPart(db, assembly, id)
}

export async function updateAssemblyPart(
  context: PartEditContext,
  body: AssemblyPartUpdate,
): Promise<AssemblyPart> {
  const { db, assembly, nowIso } = context
  const row = await db
    .selectFrom('assembly_parts')
    .selectAll()
    .where('id', '=', body.id)
    .where('assembly_id', '=', assembly.id)
    .executeTakeFirst()
  if (!row) throw notFound('Assembly part')
  if (body.assemblyNodeIds !== undefined) checkNodeIds(requireTree(assembly), body.assemblyNodeIds)
  if (body.meshingParameters !== undefined) checkParameters(body.meshingParameters)
  await db
    .updateTable('assembly_parts')
    .set({
      ...(body.name !== undefined && { name: body.name }),
      ...(body.assemblyNodeIds !== undefined && { node_ids: JSON.stringify(body.assemblyNodeIds) }),
      ...(body.componentType !== undefined && { component_type: body.componentType }),
      ...(body.meshingParameters !== undefined && {
        meshing_parameters: JSON.stringify(body.meshingParameters),
      }),
      updated_at: nowIso,
    })
    .where('id', '=', row.id)
    .execute()
  const renamed = body.name !== undefined && body.name !== row.name
  const retyped = body.componentType !== undefined && body.componentType !== row.component_type
  if (row.setup_part_id !== null && (renamed || retyped))
    await syncSetupPart(context, row.setup_part_id, {
      ...(renamed && { name: body.name }),
      ...(retyped && { componentType: body.componentType }),
    })
  return readAssemblyPart(db, assembly, row.id)
}

/** Deletes parts of the wizard; the setup parts made from them stay. */
export async function deleteAssemblyParts(
  db: Db,
  assembly: AssemblyRow,
  partIds: readonly number[],
): Promise<{ ids: number[] }> {
  if (partIds.length === 0) return { ids: [] }
  const rows = await db
    .selectFrom('assembly_parts')
    .select('id')
    .where('assembly_id', '=', assembly.id)
    .where('id', 'in', [...partIds])
    .execute()
  const ids = rows.map((row) => row.id)
  const missing = partIds.find((id) => !ids.includes(id))
  if (missing !== undefined) throw notFound('Assembly part')
  await db.deleteFrom('assembly_parts').where('id', 'in', ids).execute()
  return { ids: ids.sort((a, b) => a - b) }
}
