import * as v from 'valibot'
import {
  IMAGE_UPLOAD_PATH,
  ImageSchema,
  type Image,
} from '../../../../../domain/rest/imageRoutes.ts'
import { api, callApi } from '../../../../api/index.ts'

/**
 * Stores a PNG as the simulation's post image: POST /client-upload/images (multipart name and file),
 * then PUT /simulations/{id} with its postImageId. Returns the stored image.
 */
export async function savePostImage(
  simulationId: number,
  png: Blob,
  fileName: string,
): Promise<Image> {
  const form = new FormData()
  form.append('name', fileName)
  form.append('file', png, fileName)
  const response = await api.requestRaw({
    method: 'POST',
    path: IMAGE_UPLOAD_PATH,
    body: form,
    expectedStatus: 201,
  })
  const image = v.parse(ImageSchema, await response.json())
  await callApi('updateSimulation', {
    params: { id: String(simulationId) },
    body: { postImageId: image.id },
  })
  return image
}
