import { airDragCellCount, type AirDragDomain } from '../../../../../domain/airDrag.ts'
import type { Refinement } from '../../../../../domain/meshes.ts'
import { sliceFrame, type PeriodicBoundary } from '../../../../../domain/periodic.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'
import type { SetupObjectView } from '../../../../../engine/setupProtocol.ts'
import {
  fullVector,
  meshGeometry,
  placedObjectView,
  plainAppearance,
} from '../../../../components/viewport/objectViews.ts'

/*
 * Refinement zones, the air drag domain (its box and, when shown, its grid) and the periodic
 * boundary (the two faces of its slice) as the setup scene draws them.
 */

/** Colours of the air drag domain and the periodic boundary. */
export const SPECIAL_OBJECT_COLOURS = { airDrag: '#2D69B2', periodic: '#25C189' } as const
/** At most this many grid lines are drawn per axis pair (a finer grid is drawn coarser). */
export const MAX_GRID_LINES_PER_AXIS = 64

/** A refinement zone: its placed mesh, drawn translucent in its own colour. */
export function refinementView(refinement: Refinement): SetupObjectView {
  const a = refinement.appearance
  return placedObjectView({
    id: `refinement:${refinement.id}`,
    kind: 'refinement',
    name: refinement.name,
    geometry: meshGeometry(refinement.mesh.meshUrl),
    appearance: {
      color: a.color,
      opacity: Math.min(a.opacity ?? 1, 0.5),
      wireframe: a.wireframe,
      translucent: true,
      visible: a.visibility,
    },
    selectable: true,
  })
}

function boxEdges(min: Vec3, max: Vec3): number[] {
  const corner = (i: number) => [
    i & 1 ? max[0] : min[0],
    i & 2 ? max[1] : min[1],
    i & 4 ? max[2] : min[2],
  ]
  const edges = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7]
  return edges.flatMap(corner)
}

/**
 * Grid lines on the box's six faces every `cell` (at most MAX_GRID_LINES_PER_AXIS a face and
 * axis; a finer grid is drawn with a multiple of its cell).
 */
export function gridLines(min: Vec3, max: Vec3, cell: number): number[] {
  const out: number[] = []
  for (let axis = 0; axis < 3; axis++) {
    const length = max[axis]! - min[axis]!
    const count = Math.ceil(Math.round((length / cell) * 1e9) / 1e9)
    const stride = Math.max(1, Math.ceil(count / MAX_GRID_LINES_PER_AXIS))
    for (let i = stride; i < count; i += stride) {
      const at = min[axis]! + i * cell
      // A ring around the box at this coordinate: four segments on the faces parallel to `axis`.
      const [u, w] = [(axis + 1) % 3, (axis + 2) % 3]
      const point = (pu: number, pw: number) => {
        const p = [0, 0, 0]
        p[axis] = at
        p[u] = pu
        p[w] = pw
        return p
      }
      const [u0, u1, w0, w1] = [min[u]!, max[u]!, min[w]!, max[w]!]
      out.push(...point(u0, w0), ...point(u1, w0), ...point(u1, w0), ...point(u1, w1))
      out.push(...point(u1, w1), ...point(u0, w1), ...point(u0, w1), ...point(u0, w0))
    }
  }
  return out
}

/** The air drag domain while air drag is on and its size is set; null otherwise. */
export function airDragView(
  domain: AirDragDomain | undefined,
  on: boolean,
): SetupObjectView | null {
  const center = fullVector(domain?.center)
  const size = fullVector(domain?.size)
  if (!on || !domain || center === null || size === null || size.some((s) => !(s > 0))) return null
  const min: Vec3 = [center[0] - size[0] / 2, center[1] - size[1] / 2, center[2] - size[2] / 2]
  const max: Vec3 = [center[0] + size[0] / 2, center[1] + size[1] / 2, center[2] + size[2] / 2]
  const positions = boxEdges(min, max)
  const cells = airDragCellCount(domain)
  if (domain.gridVisibility && domain.kind !== 'constant' && cells !== null && domain.cellSize)
    positions.push(...gridLines(min, max, domain.cellSize))
  return placedObjectView({
    id: 'air_drag_domain',
    kind: 'air_drag_domain',
    name: 'Air Drag Domain',
    geometry: { type: 'lines', positions },
    appearance: plainAppearance(domain.visibility, SPECIAL_OBJECT_COLOURS.airDrag),
    selectable: true,
  })
}

/**
 * The two faces of a rotational slice: from the axis through the centre, a face at
 * sliceRotation and one at sliceRotation + sliceAngle (degrees, right-handed about the axis, 0
 * along the axis's first perpendicular), each drawn as a `radius` × `radius` square, with the
 * arc between them. Null while a value is unset or the axis is zero.
 */
export function periodicSlice(periodic: PeriodicBoundary, radius: number): number[] | null {
  // the solver's frame of the slice (domain/periodic.ts), so the faces drawn are the ones it cuts
  const frame = sliceFrame(periodic)
  if (frame === null || periodic.sliceAngle === null || periodic.sliceRotation === null) return null
  const { center, axis, e1, e2 } = frame
  const direction = (deg: number): Vec3 => {
    const r = (deg * Math.PI) / 180
    return [0, 1, 2].map((i) => Math.cos(r) * e1[i]! + Math.sin(r) * e2[i]!) as Vec3
  }
  const at = (d: Vec3, along: number, out: number): number[] =>
    [0, 1, 2].map((i) => center[i]! + d[i]! * out + axis[i]! * along)
  const h = radius / 2
  const out: number[] = []
  for (const deg of [periodic.sliceRotation, periodic.sliceRotation + periodic.sliceAngle]) {
    const d = direction(deg)
    out.push(...at(d, -h, 0), ...at(d, -h, radius), ...at(d, -h, radius), ...at(d, h, radius))
    out.push(...at(d, h, radius), ...at(d, h, 0), ...at(d, h, 0), ...at(d, -h, 0))
  }
  const steps = Math.max(2, Math.ceil(periodic.sliceAngle / 5))
  for (let i = 0; i < steps; i++) {
    const a0 = periodic.sliceRotation + (periodic.sliceAngle * i) / steps
    const a1 = periodic.sliceRotation + (periodic.sliceAngle * (i + 1)) / steps
    out.push(...at(direction(a0), 0, radius), ...at(direction(a1), 0, radius))
  }
  return out
}

/** The periodic boundary's slice (sized `radius`, e.g. half the scene), or null. */
export function periodicView(
  periodic: PeriodicBoundary | undefined,
  radius: number,
): SetupObjectView | null {
  const positions = periodic ? periodicSlice(periodic, radius) : null
  if (!periodic || positions === null) return null
  return placedObjectView({
    id: 'periodic_boundary',
    kind: 'periodic_boundary',
    name: 'Periodic Boundary',
    geometry: { type: 'lines', positions },
    appearance: plainAppearance(periodic.visibility, SPECIAL_OBJECT_COLOURS.periodic),
    selectable: true,
  })
}
