import type { Mesh, Sensor, VolumeClip } from '../../../domain/meshes.ts'
import type { LooseVec3, Vec3 } from '../../../domain/vector.ts'
import type {
  SetupAppearance,
  SetupGeometry,
  SetupObjectView,
  SetupTransform,
} from '../../../engine/setupProtocol.ts'

/*
 * Sensors and volume clips as the engine draws them, in the Setup view and over the Results alike
 * (engine/setupProtocol.ts SetupObjectView): plain views, no geometry — the data workers fetch the
 * meshes from the URLs the API gives.
 */

/** Colours of objects without an appearance of their own (spec/setup.md §9 chart colours). */
export const OBJECT_COLOURS = {
  sensor: '#FFB10F',
  calcDomain: '#D64265',
} as const

/** Placement that leaves an already placed mesh where it is. */
export const IDENTITY_TRANSFORM: SetupTransform = {
  translation: [0, 0, 0],
  rotationDeg: [0, 0, 0],
  scale: [1, 1, 1],
}

/** A vector with every component set, or null (a value still being typed). */
export function fullVector(vector: LooseVec3 | null | undefined): Vec3 | null {
  if (!vector) return null
  const [x, y, z] = vector
  return x === null || y === null || z === null ? null : [x, y, z]
}

/** The content hash of a download URL ('/api/parts/1/mesh?v=abc' → 'abc'), else the URL itself. */
export function hashOfUrl(url: string): string {
  const query = url.indexOf('?')
  if (query < 0) return url
  return new URLSearchParams(url.slice(query + 1)).get('v') ?? url
}

/** A stored mesh at `url` (none without one); a new hash refetches it. */
export function meshGeometry(url: string | null, hash?: string | null): SetupGeometry {
  return url === null ? { type: 'none' } : { type: 'mesh', url, hash: hash ?? hashOfUrl(url) }
}

/** An opaque surface in one colour. */
export function plainAppearance(visible: boolean, color: string): SetupAppearance {
  return { color, opacity: 1, wireframe: false, translucent: false, visible }
}

/** A placed object that is neither moved nor edited in the view. */
export function placedObjectView(
  view: Pick<SetupObjectView, 'id' | 'kind' | 'name' | 'geometry' | 'appearance' | 'selectable'>,
): SetupObjectView {
  return {
    ...view,
    transform: IDENTITY_TRANSFORM,
    seedPoint: null,
    pointcloud: null,
    arrow: null,
    keyframes: null,
    editable: false,
    warning: false,
  }
}

function placedMesh(mesh: Mesh): SetupGeometry {
  return meshGeometry(mesh.meshUrl)
}

/** A point sensor's marker (nothing while its position is incomplete), or a surface sensor's mesh. */
export function sensorObjectView(sensor: Sensor, selectable: boolean): SetupObjectView {
  let geometry: SetupGeometry = { type: 'none' }
  if (sensor.kind === 'surface') geometry = placedMesh(sensor.mesh)
  else {
    const position = fullVector(sensor.position)
    if (position !== null) geometry = { type: 'point', position }
  }
  return placedObjectView({
    id: `sensor:${sensor.id}`,
    kind: 'sensor',
    name: sensor.name,
    geometry,
    appearance: plainAppearance(sensor.appearance.visibility, OBJECT_COLOURS.sensor),
    selectable,
  })
}

/** A volume clip: its placed mesh, drawn with its own appearance. */
export function volumeClipObjectView(clip: VolumeClip, selectable: boolean): SetupObjectView {
  const a = clip.appearance
  return placedObjectView({
    id: `volume_clip:${clip.id}`,
    kind: 'volume_clip',
    name: clip.name,
    geometry: placedMesh(clip.mesh),
    appearance: {
      color: a.color,
      opacity: a.opacity ?? 1,
      wireframe: a.wireframe,
      translucent: a.translucent,
      visible: a.visibility,
    },
    selectable,
  })
}
