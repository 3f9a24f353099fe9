import type { Mesh, Sensor, VolumeClip } from '../../../../../domain/meshes.ts'
import type { OverlayIntent, VolumeClipView } from '../../../../../engine/overlayProtocol.ts'
import type {
  SetupGeometry,
  SetupObjectView,
  SetupTransform,
} from '../../../../../engine/setupProtocol.ts'

/*
 * The explorer's sensors and volume clips as the engine draws them over the results
 * (engine/overlayProtocol.ts): plain views, no geometry (the meshes are fetched by the data
 * workers from the URLs the API gives). Visibility is the explorer's toggle; a shown clip also
 * clips the fluid drawn.
 */

/** Sensors are drawn in the second chart colour (the setup view's sensor colour). */
export const SENSOR_OVERLAY_COLOUR = '#FFB10F'

/** Sensor and clip meshes come placed already. */
const PLACED: SetupTransform = {
  translation: [0, 0, 0],
  rotationDeg: [0, 0, 0],
  scale: [1, 1, 1],
}

/** The hash in a `?v=` URL (a changed mesh is a new URL); the URL itself otherwise. */
function hashOfUrl(url: string): string {
  return /[?&]v=([^&]+)/.exec(url)?.[1] ?? url
}

function placedMesh(mesh: Mesh): SetupGeometry {
  return mesh.meshUrl === null
    ? { type: 'none' }
    : { type: 'mesh', url: mesh.meshUrl, hash: hashOfUrl(mesh.meshUrl) }
}

function overlayView(
  id: string,
  kind: SetupObjectView['kind'],
  name: string,
  geometry: SetupGeometry,
  appearance: SetupObjectView['appearance'],
): SetupObjectView {
  return {
    id,
    kind,
    name,
    geometry,
    transform: PLACED,
    appearance,
    seedPoint: null,
    pointcloud: null,
    arrow: null,
    keyframes: null,
    selectable: false,
    editable: false,
    warning: false,
  }
}

/** A point sensor's marker (nothing while its position is incomplete), or a surface sensor's mesh. */
export function sensorOverlay(sensor: Sensor): SetupObjectView {
  let geometry: SetupGeometry
  if (sensor.kind === 'surface') geometry = placedMesh(sensor.mesh)
  else {
    const [x, y, z] = sensor.position
    geometry =
      x === null || y === null || z === null
        ? { type: 'none' }
        : { type: 'point', position: [x, y, z] }
  }
  return overlayView(`sensor:${sensor.id}`, 'sensor', sensor.name, geometry, {
    color: SENSOR_OVERLAY_COLOUR,
    opacity: 1,
    wireframe: false,
    translucent: false,
    visible: sensor.appearance.visibility,
  })
}

/** A volume clip: its placed mesh in its own colour, and what it clips. */
export function volumeClipOverlay(clip: VolumeClip): VolumeClipView {
  const appearance = clip.appearance
  return {
    view: overlayView(`volume_clip:${clip.id}`, 'volume_clip', clip.name, placedMesh(clip.mesh), {
      color: appearance.color,
      opacity: appearance.opacity ?? 1,
      wireframe: appearance.wireframe,
      translucent: appearance.translucent,
      visible: appearance.visibility,
    }),
    mesh: clip.mesh,
    inverted: clip.inverted,
    materialId: clip.materialId,
  }
}

/** The whole list, as the engine takes it. */
export function overlaysIntent(
  sensors: readonly Sensor[],
  clips: readonly VolumeClip[],
): OverlayIntent {
  return {
    type: 'set_overlays',
    sensors: sensors.map(sensorOverlay),
    clips: clips.map(volumeClipOverlay),
  }
}
