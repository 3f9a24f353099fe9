import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { POLL_INTERVALS_MS } from '../../../../domain/constants.ts'
import { isJobActive } from '../../../../domain/jobs.ts'
import type { CompressionReply } from '../../../../domain/rest/compressionRoutes.ts'
import { filenameFromDisposition } from '../../../api/files.ts'
import { api, callApi } from '../../../api/index.ts'
import { routeKey } from '../../../queries/queries.ts'

/*
 * Server state of Download with compression (domain/rest/compressionRoutes.ts): the latest archive
 * of a simulation, polled while it is being made (as often as the user export: the spec names no
 * rate for it), started, cancelled or deleted; and the download of a completed archive.
 */

const paramsOf = (id: number) => ({ params: { id: String(id) } })

/** The latest compression of a simulation; polled every 5 s while it runs. */
export function useCompressionQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('getCompression', input),
    queryFn: ({ signal }) => callApi('getCompression', input, { signal }),
    refetchInterval: (query) => {
      const record = query.state.data?.compression
      return record && isJobActive(record.state) ? POLL_INTERVALS_MS.userExport : false
    },
  })
}

function useStore(simulationId: number) {
  const queryClient = useQueryClient()
  return (reply: CompressionReply) =>
    queryClient.setQueryData(routeKey('getCompression', paramsOf(simulationId)), reply)
}

/** POST: starts a new archive (replacing a finished one). */
export function useStartCompression(simulationId: number) {
  const store = useStore(simulationId)
  return useMutation({
    mutationFn: () => callApi('startCompression', paramsOf(simulationId)),
    onSuccess: (compression) => store({ compression }),
  })
}

/** DELETE: cancels a running compression or deletes the archive; the answer is stored. */
export function useDeleteCompression(simulationId: number) {
  const store = useStore(simulationId)
  return useMutation({
    mutationFn: () => callApi('deleteCompression', paramsOf(simulationId)),
    onSuccess: store,
  })
}

/** GET /simulations/{id}/download?filename=…: the completed archive, saved by the browser. */
export async function downloadCompressedArchive(
  simulationId: number,
  filename: string,
): Promise<void> {
  const response = await api.requestRaw({
    method: 'GET',
    path: `/simulations/${simulationId}/download?filename=${encodeURIComponent(filename)}`,
    expectedStatus: 200,
  })
  const name = filenameFromDisposition(response.headers.get('content-disposition')) ?? filename
  const url = URL.createObjectURL(await response.blob())
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = name
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
