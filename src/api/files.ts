import { AIR_DRAG_GRID_PATH } from '../../domain/rest/setupSchemas.ts'
import { api } from './index.ts'

/** `attachment; filename="run.zip"` → run.zip */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1]
  if (encoded) return decodeURIComponent(encoded)
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? null
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob)
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = filename
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** GET /simulations/{id}/download: the simulation's files as one archive, saved by the browser. */
export async function downloadSimulation(simulation: { id: number; name: string }): Promise<void> {
  const response = await api.requestRaw({
    method: 'GET',
    path: `/simulations/${simulation.id}/download`,
    expectedStatus: 200,
  })
  const filename =
    filenameFromDisposition(response.headers.get('content-disposition')) ?? `${simulation.name}.zip`
  saveBlob(await response.blob(), filename)
}

/** PUT /client-upload/simulations/{id}: a preprocessed setup (zip) and the job file inside it. */
export async function uploadPreprocessing(
  simulationId: number,
  file: File,
  jobFilename: string,
): Promise<void> {
  const form = new FormData()
  form.append('file', file)
  form.append('job_filename', jobFilename)
  await api.requestRaw({
    method: 'PUT',
    path: `/client-upload/simulations/${simulationId}`,
    body: form,
    expectedStatus: 200,
  })
}

/**
 * GET /simulations/{id}/air_drag_domain/grid: the air drag domain's grid binary as an array buffer
 * (spec/results.md 'fetch an air drag grid binary by URL as an array buffer'; read with
 * domain/airDragGridFile.ts decodeAirDragGridFile).
 */
export async function fetchAirDragGrid(
  simulationId: number,
  signal?: AbortSignal,
): Promise<ArrayBuffer> {
  const response = await api.requestRaw({
    method: 'GET',
    path: AIR_DRAG_GRID_PATH.replace('{id}', String(simulationId)),
    expectedStatus: 200,
    ...(signal && { signal }),
  })
  return response.arrayBuffer()
}
