/**
 * Numeric ids of output objects and masks on the results session (/ws/results, fetch.info and
 * fetch.data): one place that maps the manifest's objects (a material's fluid, a wall part, an open
 * boundary …) and the volume clip masks to numbers. Materials and parts have overlapping table ids,
 * so the kind is folded into the number; the mapping is pure arithmetic, the same in every output
 * and session, and reversible.
 */
import type { OutputObjectKind } from './results.ts'

/** Code of each object kind in a numeric object id (0 is never used). */
export const OBJECT_KIND_ID_CODES = {
  fluid: 1,
  wall_boundary: 2,
  open_boundary: 3,
  volume_clip: 4,
  sensor: 5,
  air_drag: 6,
  material: 7,
} as const satisfies Record<OutputObjectKind, number>

/** Slots per source id: the kind codes fit below it. */
const KIND_SLOTS = 8

const KIND_BY_CODE = new Map(
  (Object.entries(OBJECT_KIND_ID_CODES) as [OutputObjectKind, number][]).map(([kind, code]) => [
    code,
    kind,
  ]),
)

/**
 * The numeric id of an object: `sourceId × 8 + kind code`, where sourceId is the manifest's
 * sourceId (material id of a fluid, part id of a wall or open boundary, clip or sensor id).
 */
export function encodeObjectId(kind: OutputObjectKind, sourceId: number): number {
  if (!Number.isSafeInteger(sourceId) || sourceId < 0)
    throw new Error(`Object source id must be a non-negative integer, got ${sourceId}`)
  return sourceId * KIND_SLOTS + OBJECT_KIND_ID_CODES[kind]
}

/** Kind and source id of a numeric object id; null for a number no object can have. */
export function decodeObjectId(id: number): { kind: OutputObjectKind; sourceId: number } | null {
  if (!Number.isSafeInteger(id) || id < 0) return null
  const kind = KIND_BY_CODE.get(id % KIND_SLOTS)
  return kind === undefined ? null : { kind, sourceId: Math.floor(id / KIND_SLOTS) }
}

/**
 * The numeric id of the mask of a volume clip over one material (a clip for all materials has one
 * mask per fluid material): the Cantor pairing of the two ids, unique and reversible.
 */
export function encodeMaskId(volumeClipId: number, materialId: number): number {
  for (const value of [volumeClipId, materialId])
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`Mask ids are built from non-negative integers, got ${value}`)
  const sum = volumeClipId + materialId
  return (sum * (sum + 1)) / 2 + materialId
}

/** The clip and material of a numeric mask id; null for a negative or fractional number. */
export function decodeMaskId(id: number): { volumeClipId: number; materialId: number } | null {
  if (!Number.isSafeInteger(id) || id < 0) return null
  const sum = Math.floor((Math.sqrt(8 * id + 1) - 1) / 2)
  const materialId = id - (sum * (sum + 1)) / 2
  return { volumeClipId: sum - materialId, materialId }
}
