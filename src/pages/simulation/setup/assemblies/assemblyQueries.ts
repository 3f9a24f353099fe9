import { useQuery } from '@tanstack/react-query'
import { isJobActive } from '../../../../../domain/jobs.ts'
import { STEP_UPLOAD_LIMIT_BYTES } from '../../../../../domain/rest/assemblyRoutes.ts'
import {
  AssemblySchema,
  type Assembly,
  type AssemblyPart,
  type AssemblyPartCreate,
  type AssemblyPartUpdate,
} from '../../../../../domain/tessellation.ts'
import { ApiError } from '../../../../api/ApiError.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { paramsOf } from '../queries/setupQueries.ts'
import { useSetupMutation } from '../queries/useSetupMutation.ts'
import { fileTooLargeMessage } from '../uploads/uploadFiles.ts'
import {
  browserTransport,
  parseReply,
  sendUpload,
  type UploadTransport,
} from '../uploads/uploadRequest.ts'

/*
 * Server state of the assembly wizard (domain/rest/assemblyRoutes.ts), keyed by route like every
 * query: the simulation's CAD files and tessellation runs (polled while one is scheduled or
 * running: the 'Importing File' widget), one file with its import tree, its parts. Edits go through
 * useSetupMutation (the spec's failure toasts: 'Adding part failed', …).
 */

/** Imports and tessellations are polled every second while they are scheduled or running. */
export const ASSEMBLY_POLL_MS = 1000

/** POST /client-upload/simulations/{id}/assemblies: the STEP upload (multipart `file`). */
export function assemblyUploadPath(simulationId: number): string {
  return `/client-upload/simulations/${simulationId}/assemblies`
}

/**
 * Uploads a STEP file with progress; answers the stored assembly (its tree is read in a job).
 * A file over the server's limit is refused before it is sent.
 */
export async function uploadStep(
  simulationId: number,
  file: File,
  options: {
    onProgress?: (fraction: number) => void
    signal?: AbortSignal
    transport?: UploadTransport
  } = {},
): Promise<Assembly> {
  if (file.size > STEP_UPLOAD_LIMIT_BYTES)
    throw new ApiError(413, undefined, { message: fileTooLargeMessage(STEP_UPLOAD_LIMIT_BYTES) })
  const form = new FormData()
  form.append('file', file, file.name)
  const body = await sendUpload(
    {
      method: 'POST',
      path: assemblyUploadPath(simulationId),
      form,
      expectedStatus: 201,
      onProgress: options.onProgress,
      signal: options.signal,
    },
    options.transport ?? browserTransport,
  )
  return parseReply(AssemblySchema, body)
}

const pollWhileActive = <T extends { state: Parameters<typeof isJobActive>[0] }>(
  records: readonly T[] | T | undefined,
) =>
  records !== undefined && [records].flat().some((record) => isJobActive(record.state))
    ? ASSEMBLY_POLL_MS
    : false

/** The simulation's CAD files, newest first (polled while one is being read). */
export function useAssembliesQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listAssemblies', input),
    queryFn: ({ signal }) => callApi('listAssemblies', input, { signal }),
    refetchInterval: (query) => pollWhileActive(query.state.data),
  })
}

/** One CAD file: its state and import tree (polled while it is being read). */
export function useAssemblyQuery(assemblyId: number | null) {
  const input = paramsOf(assemblyId ?? 0)
  return useQuery({
    queryKey: routeKey('getAssembly', input),
    queryFn: ({ signal }) => callApi('getAssembly', input, { signal }),
    enabled: assemblyId !== null,
    refetchInterval: (query) => pollWhileActive(query.state.data),
  })
}

/** The parts built from a CAD file. */
export function useAssemblyPartsQuery(assemblyId: number | null) {
  const input = paramsOf(assemblyId ?? 0)
  return useQuery({
    queryKey: routeKey('listAssemblyParts', input),
    queryFn: ({ signal }) => callApi('listAssemblyParts', input, { signal }),
    enabled: assemblyId !== null,
  })
}

/** The simulation's tessellation runs, newest first (polled while one is scheduled or running). */
export function useTessellationRunsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listTessellationRuns', input),
    queryFn: ({ signal }) => callApi('listTessellationRuns', input, { signal }),
    refetchInterval: (query) => pollWhileActive(query.state.data),
  })
}

const partsKey = (assemblyId: number) => routeKey('listAssemblyParts', paramsOf(assemblyId))

/** Refetched after a wizard part edit. */
const AFTER_ASSEMBLY_PART_EDIT = ['listAssemblyParts'] as const

/** POST /assemblies/{id}/parts, one per body, in order ('Adding part failed'). */
export function useCreateAssemblyPartsMutation(assemblyId: number) {
  return useSetupMutation({
    mutationFn: async (bodies: readonly AssemblyPartCreate[]) => {
      const created: AssemblyPart[] = []
      for (const body of bodies)
        created.push(await callApi('createAssemblyPart', { ...paramsOf(assemblyId), body }))
      return created
    },
    failure: { action: 'add', entity: 'part' },
    invalidate: AFTER_ASSEMBLY_PART_EDIT,
  })
}

/** A part with an update applied (the optimistic cache). */
export function applyAssemblyPartUpdate(
  part: AssemblyPart,
  update: AssemblyPartUpdate,
): AssemblyPart {
  return {
    ...part,
    ...(update.name !== undefined ? { name: update.name } : {}),
    ...(update.assemblyNodeIds !== undefined ? { assemblyNodeIds: update.assemblyNodeIds } : {}),
    ...(update.componentType !== undefined ? { componentType: update.componentType } : {}),
    ...(update.meshingParameters !== undefined
      ? { meshingParameters: update.meshingParameters, needsTessellation: true }
      : {}),
  }
}

/** PUT /assemblies/{id}/parts for each update, applied to the list at once ('Updating part failed'). */
export function useUpdateAssemblyPartsMutation(assemblyId: number) {
  return useSetupMutation({
    mutationFn: async (updates: readonly AssemblyPartUpdate[]) => {
      const saved: AssemblyPart[] = []
      for (const body of updates)
        saved.push(await callApi('updateAssemblyPart', { ...paramsOf(assemblyId), body }))
      return saved
    },
    failure: { action: 'update', entity: 'part' },
    optimistic: [
      {
        queryKey: partsKey(assemblyId),
        update: (parts: AssemblyPart[], updates: readonly AssemblyPartUpdate[]) =>
          parts.map((part) => {
            const update = updates.find((u) => u.id === part.id)
            return update ? applyAssemblyPartUpdate(part, update) : part
          }),
      },
    ],
    invalidate: AFTER_ASSEMBLY_PART_EDIT,
  })
}

/** DELETE /assemblies/{id}/parts ('Deleting part failed'); gone from the list at once. */
export function useDeleteAssemblyPartsMutation(assemblyId: number) {
  return useSetupMutation({
    mutationFn: (partIds: readonly number[]) =>
      callApi('deleteAssemblyParts', {
        ...paramsOf(assemblyId),
        body: { partIds: [...partIds] },
      }),
    failure: { action: 'delete', entity: 'part' },
    optimistic: [
      {
        queryKey: partsKey(assemblyId),
        update: (parts: AssemblyPart[], partIds: readonly number[]) =>
          parts.filter((part) => !partIds.includes(part.id)),
      },
    ],
    invalidate: AFTER_ASSEMBLY_PART_EDIT,
  })
}
