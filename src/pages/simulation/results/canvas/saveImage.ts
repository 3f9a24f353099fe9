import * as v from 'valibot'
import type { Simulation } from '../../../../../domain/projects.ts'
import {
  IMAGE_UPLOAD_PATH,
  ImageSchema,
  imagePath,
  type Image,
} from '../../../../../domain/rest/imageRoutes.ts'
import { api, callApi } from '../../../../api/index.ts'

/**
 * Stores a PNG as the simulation's post image: POST /client-upload/images (multipart name and file),
 * then PUT /simulations/{id} with its postImageId. Returns the image and the updated simulation.
 */
export async function savePostImage(
  simulationId: number,
  png: Blob,
  fileName: string,
): Promise<{ image: Image; simulation: Simulation }> {
  const form = new FormData()
  form.append('name', fileName)
  // The image is of this simulation: it is listed for the dashboard's image tiles.
  form.append('simulationId', String(simulationId))
  form.append('file', png, fileName)
  const response = await api.requestRaw({
    method: 'POST',
    path: IMAGE_UPLOAD_PATH,
    body: form,
    expectedStatus: 201,
  })
  const image = v.parse(ImageSchema, await response.json())
  const simulation = await callApi('updateSimulation', {
    params: { id: String(simulationId) },
    body: { postImageId: image.id },
  })
  return { image, simulation }
}

/** GET /images/{id} (authenticated) as an object URL for an <img>; the caller revokes it. */
export async function fetchImageUrl(imageId: number, signal?: AbortSignal): Promise<string> {
  const response = await api.requestRaw({
    method: 'GET',
    path: imagePath(imageId),
    expectedStatus: 200,
    signal,
  })
  return URL.createObjectURL(await response.blob())
}
