import { encodeMaskId, encodeObjectId, decodeMaskId } from '../../../domain/resultsObjects.ts'
import type { VolumeClip } from '../../../domain/meshes.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'
import type { OutputDatasetStats, OutputMask, OutputObject } from '../../../domain/results.ts'

/*
 * What fetch.info says about one output, and how the numeric ids of the session map back to the
 * manifest's objects (domain/resultsObjects.ts holds the arithmetic).
 */

/** One object of a manifest. */
export type ManifestObjectInfo = OutputManifestInfo['objects'][number]

/** Numeric id of a manifest object: its kind folded into its material or part id. */
export function numericObjectId(object: ManifestObjectInfo): number {
  return encodeObjectId(object.kind, object.sourceId)
}

/** The manifest object with this numeric id, if the output has it. */
export function findManifestObject(
  manifest: OutputManifestInfo,
  objId: number,
): ManifestObjectInfo | undefined {
  return manifest.objects.find((object) => numericObjectId(object) === objId)
}

/** The objects of an output as fetch.info lists them; fluids carry their material and index. */
export function describeOutputObjects(manifest: OutputManifestInfo): OutputObject[] {
  let materialIndex = 0
  return manifest.objects.map((object) => {
    const described: OutputObject = {
      id: numericObjectId(object),
      kind: object.kind,
      name: object.name,
      objectKey: object.objectId,
    }
    if (object.kind === 'fluid') {
      described.materialIndex = materialIndex++
      described.material = { id: object.sourceId, name: object.name }
    }
    return described
  })
}

/** Particle and triangle counts of the whole output per written dataset. */
export function describeDatasetStats(manifest: OutputManifestInfo): OutputDatasetStats {
  const particles = manifest.objects.filter((object) => object.kind !== 'volume_clip')
  const sum = (pick: (object: ManifestObjectInfo) => number) =>
    particles.reduce((total, object) => total + pick(object), 0)
  const triangleCount = sum((object) => object.triangleCount)
  return {
    full: { particleCount: sum((object) => object.particleCount.full), triangleCount },
    fast: { particleCount: sum((object) => object.particleCount.fast), triangleCount },
  }
}

/** A mask of the session: one volume clip over one fluid of the output. */
export interface ClipMaskTarget {
  maskId: number
  clip: VolumeClip
  fluid: ManifestObjectInfo
}

/** One mask per volume clip and fluid material it clips (a clip for all materials: every fluid). */
export function listClipMasks(
  manifest: OutputManifestInfo,
  clips: readonly VolumeClip[],
): ClipMaskTarget[] {
  const fluids = manifest.objects.filter((object) => object.kind === 'fluid')
  return clips.flatMap((clip) =>
    fluids
      .filter((fluid) => clip.materialId === null || clip.materialId === fluid.sourceId)
      .map((fluid) => ({ maskId: encodeMaskId(clip.id, fluid.sourceId), clip, fluid })),
  )
}

/** The masks of an output as fetch.info lists them. */
export function describeMasks(
  manifest: OutputManifestInfo,
  clips: readonly VolumeClip[],
): OutputMask[] {
  return listClipMasks(manifest, clips).map(({ maskId, clip, fluid }) => ({
    id: maskId,
    materialId: fluid.sourceId,
    appearance: { visibility: clip.appearance.visibility },
    volumeClipId: clip.id,
    objId: numericObjectId(fluid),
  }))
}

/** The clip and fluid of a mask id in this output; null when either is gone. */
export function findClipMask(
  manifest: OutputManifestInfo,
  clips: readonly VolumeClip[],
  maskId: number,
): ClipMaskTarget | null {
  const ids = decodeMaskId(maskId)
  if (!ids) return null
  const clip = clips.find((candidate) => candidate.id === ids.volumeClipId)
  if (!clip || (clip.materialId !== null && clip.materialId !== ids.materialId)) return null
  const fluid = manifest.objects.find(
    (object) => object.kind === 'fluid' && object.sourceId === ids.materialId,
  )
  return fluid ? { maskId, clip, fluid } : null
}
