/**
 * Images (spec/results.md §7: GET, DELETE /images/{id}; POST /client-upload/images with name and
 * file): pictures of a simulation such as the post image the Results screen's Save Image stores
 * (Simulation.postImageId). They are binary, so the server registers them beside ROUTES
 * (server/images/imageRoutes.ts); this module is the contract both sides share.
 */
import * as v from 'valibot'

/** Where images are uploaded (multipart: `name` and `file`), under /api. */
export const IMAGE_UPLOAD_PATH = '/client-upload/images'

/** The path of one image, under /api (GET: its bytes; DELETE: removes it). */
export function imagePath(imageId: number): string {
  return `/images/${imageId}`
}

/** Largest image accepted, bytes (a 4K PNG screenshot is well below). */
export const IMAGE_UPLOAD_LIMIT_BYTES = 16 * 1024 * 1024

/** Longest image name kept, characters. */
export const IMAGE_NAME_MAX_LENGTH = 255

/** Image formats accepted, recognised by their leading bytes (not by the file name). */
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const
/** One accepted image format. */
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number]

/** Refusal of a file that is neither a PNG nor a JPEG. */
export const IMAGE_FORMAT_MESSAGE = 'Only PNG and JPEG images can be uploaded.'

/** A stored image as the API returns it. */
export const ImageSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  name: v.string(),
  contentType: v.picklist(IMAGE_CONTENT_TYPES),
  sizeBytes: v.pipe(v.number(), v.integer(), v.minValue(0)),
  createdAt: v.string(),
  /** Where its bytes are (GET, authenticated), under /api. */
  url: v.string(),
})
/** A stored image. */
export type Image = v.InferOutput<typeof ImageSchema>

/** The format of an image from its leading bytes (PNG or JPEG signature), or null. */
export function sniffImageContentType(bytes: Uint8Array): ImageContentType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (bytes.length >= png.length && png.every((byte, i) => bytes[i] === byte)) return 'image/png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'image/jpeg'
  return null
}

/**
 * The images of one simulation, under /api (GET, JSON: Image[], newest first): those uploaded for
 * it (the upload's optional `simulationId` field, which Save Image sends) and its post image.
 */
export function simulationImagesPath(simulationId: number): string {
  return `/simulations/${simulationId}/images`
}

/** GET /simulations/{id}/images. */
export const SimulationImagesSchema = v.array(ImageSchema)
