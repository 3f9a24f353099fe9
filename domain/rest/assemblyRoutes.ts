/**
 * The CAD import calls (spec/setup.md §2 "Assembly import wizard", §3 "Assembly", "Assembly
 * part", "Tessellation run", §7 "Assemblies"). A STEP file is uploaded with
 * POST /client-upload/simulations/{id}/assemblies (multipart `file`, a binary operation); the
 * server reads its import tree in a job (the assembly's state, then `assemblyMetadata`). The wizard
 * groups tree nodes into assembly parts, then POST /assemblies/{id} tessellates the parts that need
 * it: each becomes (or updates) a setup part with an STL-like shape of the tessellated mesh.
 */
import * as v from 'valibot'
import { IdParamSchema } from '../projects.ts'
import type { RouteDef } from '../rest.ts'
import {
  AssemblyPartCreateSchema,
  AssemblyPartSchema,
  AssemblyPartsDeleteSchema,
  AssemblyPartUpdateSchema,
  AssemblySchema,
  TessellationRequestSchema,
  TessellationRunSchema,
} from '../tessellation.ts'

/** Largest STEP upload: 1 GiB (the wizard warns from 500 MB, ASSEMBLY_WIZARD.stepWarningBytes). */
export const STEP_UPLOAD_LIMIT_BYTES = 1024 ** 3
/** File name endings the CAD upload accepts. */
export const STEP_EXTENSIONS = ['.stp', '.step'] as const
/** Refusal of a tessellation while one of the same assembly is scheduled or running. */
export const TESSELLATION_ACTIVE_MESSAGE = 'A tessellation of this file is already running.'
/** Refusal of a tessellation with no part that needs one. */
export const NOTHING_TO_TESSELLATE_MESSAGE = 'No part needs tessellation.'

const DeletedIdsSchema = v.object({ ids: v.array(v.number()) })

/** Assembly calls of spec/setup.md §7 (JSON); the STEP upload is a binary operation. */
export const ASSEMBLY_ROUTES = {
  listAssemblies: {
    method: 'GET',
    path: '/simulations/{id}/assemblies',
    summary: 'CAD files uploaded to a simulation, newest first',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(AssemblySchema),
  },
  getAssembly: {
    method: 'GET',
    path: '/assemblies/{id}',
    summary: 'A CAD file: state, import tree, tessellation warnings and errors',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: AssemblySchema,
  },
  startTessellation: {
    method: 'POST',
    path: '/assemblies/{id}',
    summary: 'Tessellate the parts that need it (or the listed ones) into setup parts',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: TessellationRequestSchema,
    response: TessellationRunSchema,
  },
  listAssemblyParts: {
    method: 'GET',
    path: '/assemblies/{id}/parts',
    summary: 'Parts being built from the import tree',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(AssemblyPartSchema),
  },
  createAssemblyPart: {
    method: 'POST',
    path: '/assemblies/{id}/parts',
    summary: 'Group tree nodes into a part (rigid unless chosen otherwise)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: AssemblyPartCreateSchema,
    response: AssemblyPartSchema,
  },
  updateAssemblyPart: {
    method: 'PUT',
    path: '/assemblies/{id}/parts',
    summary: 'Rename a part, change its nodes, component type or meshing parameters',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: AssemblyPartUpdateSchema,
    response: AssemblyPartSchema,
  },
  deleteAssemblyParts: {
    method: 'DELETE',
    path: '/assemblies/{id}/parts',
    summary: 'Delete parts of the wizard (setup parts made from them stay)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: AssemblyPartsDeleteSchema,
    response: DeletedIdsSchema,
  },
  listTessellationRuns: {
    method: 'GET',
    path: '/simulations/{id}/tessellation_runs',
    summary: 'Tessellation runs of a simulation, newest first',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(TessellationRunSchema),
  },
  cancelTessellationRun: {
    method: 'DELETE',
    path: '/tessellation_runs/{id}',
    summary: 'Cancel a scheduled or running tessellation',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: TessellationRunSchema,
  },
} as const satisfies Record<string, RouteDef>
