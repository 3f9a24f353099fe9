import type { Part } from '../../../../../domain/parts.ts'
import type { CameraState } from '../../../../../domain/results.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'

/*
 * The Mesh Check dialog's model (spec/setup.md §2 "3D viewport", spec/results.md §2): the holes
 * and non-manifold edges of each part's mesh (server shape info, world metres), and the camera that
 * zooms to one defect.
 */

/** The dialog's two lists (spec/setup.md §2: 'Holes' and 'Non-Manifold'). */
export const MESH_CHECK_LISTS = { hole: 'Holes', nonManifold: 'Non-Manifold' } as const

/** How one defect of each kind is named in its list. */
export const DEFECT_LABELS = { hole: 'Hole', nonManifold: 'Non-manifold edge' } as const

/** Significant digits of a defect's size: enough to tell defects apart, as people write sizes. */
export const DEFECT_SIZE_DIGITS = 3

/** One defect of one part's mesh. */
export interface MeshDefectEntry {
  key: string
  partId: number
  partName: string
  kind: 'hole' | 'nonManifold'
  /** 1-based number of this defect of its kind within the part. */
  number: number
  center: Vec3
  /** Extent of the defect, m. */
  size: number
}

/** Every defect of the parts, holes and non-manifold edges listed apart, parts in order. */
export function meshDefects(parts: readonly Pick<Part, 'id' | 'name' | 'shape'>[]): {
  holes: MeshDefectEntry[]
  nonManifold: MeshDefectEntry[]
} {
  const holes: MeshDefectEntry[] = []
  const nonManifold: MeshDefectEntry[] = []
  for (const part of parts) {
    const info = part.shape.info
    if (!info) continue
    const add = (
      list: MeshDefectEntry[],
      kind: MeshDefectEntry['kind'],
      defects: typeof info.holes,
    ) =>
      defects.forEach((d, i) =>
        list.push({
          key: `${part.id}:${kind}:${i}`,
          partId: part.id,
          partName: part.name,
          kind,
          number: i + 1,
          center: [...d.center] as Vec3,
          size: d.size,
        }),
      )
    add(holes, 'hole', info.holes)
    add(nonManifold, 'nonManifold', info.nonManifold)
  }
  return { holes, nonManifold }
}

/** Closest the camera comes to a defect, m (a point-like defect still shows its surroundings). */
export const MIN_ZOOM_DISTANCE_M = 0.01

/**
 * The camera looking at a defect from the current viewing direction, at 3 × its size (at least
 * MIN_ZOOM_DISTANCE_M) from it; up and mode are kept.
 */
export function cameraAtDefect(
  defect: Pick<MeshDefectEntry, 'center' | 'size'>,
  camera: CameraState,
): CameraState {
  const view = [0, 1, 2].map((i) => camera.position[i]! - camera.target[i]!)
  const length = Math.hypot(...view)
  const direction = length > 0 ? view.map((c) => c / length) : [0, 0, 1]
  const distance = Math.max(MIN_ZOOM_DISTANCE_M, defect.size * 3)
  return {
    ...camera,
    target: [...defect.center] as Vec3,
    position: defect.center.map((c, i) => c + direction[i]! * distance) as Vec3,
  }
}

/** A defect's name in the dialog: 'Tank: Hole 2'. */
export function defectName(defect: Pick<MeshDefectEntry, 'partName' | 'kind' | 'number'>): string {
  return `${defect.partName}: ${DEFECT_LABELS[defect.kind]} ${defect.number}`
}

/** A defect's extent with its unit, to 3 significant digits: '0.245 m'. */
export function defectSizeText(defect: Pick<MeshDefectEntry, 'size'>): string {
  return `${formatNumber(defect.size, DEFECT_SIZE_DIGITS)} m`
}

/** Whether a defect is the one the view rings (the engine's marker: same centre and size). */
export function isMarkedDefect(
  marker: { center: readonly number[]; sizeM: number } | null,
): (defect: Pick<MeshDefectEntry, 'center' | 'size'>) => boolean {
  return (defect) =>
    marker !== null &&
    marker.sizeM === defect.size &&
    marker.center.every((value, i) => value === defect.center[i])
}
