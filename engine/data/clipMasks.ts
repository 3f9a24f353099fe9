/**
 * Volume clip masks in a data worker: for each clip and each fluid it clips (its material's, or
 * every fluid), one byte per particle row, 1 inside the clip's mesh (domain/clipMask.ts, the test
 * the results server's masks and statistics use). A load adds them to the output as mask objects
 * of the output format (kind `volume_clip`, one Uint8 column `inside`, `targetObjectId` the
 * fluid); an output loaded before its clips were shown gets them by a separate request.
 */
import { ClipMaskError, computeClipMask } from '../../domain/clipMask.ts'
import { MASK_COLUMN } from '../../domain/outputFormat.ts'
import type { ClipMask, ClipMaskSpec } from '../overlayProtocol.ts'
import type { RenderableObject, RenderableOutput } from '../protocol.ts'

/** A fluid's positions and material. */
export interface MaskedFluid {
  objectId: string
  materialId: number | null
  x: Float32Array
  y: Float32Array
  z: Float32Array
}

/** True when a clip of `clipMaterialId` (null: all materials) clips a fluid of `materialId`. */
export function clipMasksMaterial(clipMaterialId: number | null, materialId: number | null) {
  return clipMaterialId === null || clipMaterialId === materialId
}

/** Why a clip cannot mask (an unsupported kind, a zero size or scale), or null when it can. */
export function clipMaskProblem(spec: ClipMaskSpec): string | null {
  const none = new Float32Array(0)
  try {
    computeClipMask(spec.mesh, false, none, none, none, new Uint8Array(0))
    return null
  } catch (error) {
    if (error instanceof ClipMaskError) return error.message
    throw error
  }
}

/** The masks of every clip over every fluid it clips (fresh buffers, ready to transfer). */
export function computeFluidMasks(
  fluids: readonly MaskedFluid[],
  clips: readonly ClipMaskSpec[],
): ClipMask[] {
  const masks: ClipMask[] = []
  for (const clip of clips) {
    for (const fluid of fluids) {
      if (!clipMasksMaterial(clip.materialId, fluid.materialId)) continue
      const base = { clipKey: clip.key, objectId: fluid.objectId }
      const inside = new Uint8Array(fluid.x.length)
      try {
        const insideCount = computeClipMask(clip.mesh, false, fluid.x, fluid.y, fluid.z, inside)
        masks.push({ ...base, inside, insideCount, error: null })
      } catch (error) {
        if (!(error instanceof ClipMaskError)) throw error
        masks.push({ ...base, inside: null, insideCount: 0, error: error.message })
      }
    }
  }
  return masks
}

/** The fluids of a decoded output, with position views into their buffers. */
export function fluidsOf(output: RenderableOutput): MaskedFluid[] {
  const fluids: MaskedFluid[] = []
  for (const object of output.objects) {
    if (object.kind !== 'fluid') continue
    const column = (name: string) => {
      const slice = object.columns.find((c) => c.name === name)
      return slice === undefined
        ? null
        : new Float32Array(object.buffer, slice.byteOffset, slice.length)
    }
    const [x, y, z] = [column('x'), column('y'), column('z')]
    if (x === null || y === null || z === null) continue
    fluids.push({ objectId: object.objectId, materialId: object.materialId ?? null, x, y, z })
  }
  return fluids
}

/** A computed mask as a mask object of the output (its own buffer). */
export function maskObjectOf(
  mask: ClipMask & { inside: Uint8Array },
  fluid: RenderableObject,
): RenderableObject {
  return {
    objectId: `${mask.clipKey}@${mask.objectId}`,
    kind: 'volume_clip',
    name: mask.clipKey,
    dataset: fluid.dataset,
    particleCount: mask.inside.length,
    buffer: mask.inside.buffer as ArrayBuffer,
    columns: [
      {
        name: MASK_COLUMN,
        byteOffset: mask.inside.byteOffset,
        length: mask.inside.length,
        range: null,
        unit: '',
      },
    ],
    mesh: null,
    materialId: fluid.materialId ?? null,
    targetObjectId: mask.objectId,
    clipMaskKey: mask.clipKey,
  }
}

/**
 * Adds the clips' masks over its fluids to a loaded output, as mask objects; returns their
 * buffers (to transfer with it). A clip that cannot mask adds nothing (its request says why).
 */
export function addClipMasks(
  output: RenderableOutput,
  clips: readonly ClipMaskSpec[],
): ArrayBuffer[] {
  if (clips.length === 0) return []
  const fluids = new Map(
    output.objects.filter((o) => o.kind === 'fluid').map((o) => [o.objectId, o]),
  )
  const buffers: ArrayBuffer[] = []
  for (const mask of computeFluidMasks(fluidsOf(output), clips)) {
    const fluid = fluids.get(mask.objectId)
    if (mask.inside === null || fluid === undefined) continue
    output.objects.push(maskObjectOf({ ...mask, inside: mask.inside }, fluid))
    buffers.push(mask.inside.buffer as ArrayBuffer)
  }
  return buffers
}
