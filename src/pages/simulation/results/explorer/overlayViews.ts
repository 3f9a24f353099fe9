import type { Sensor, VolumeClip } from '../../../../../domain/meshes.ts'
import type {
  AirDragGridOverlay,
  OverlayIntent,
  VolumeClipView,
} from '../../../../../engine/overlayProtocol.ts'
import {
  OBJECT_COLOURS,
  sensorObjectView,
  volumeClipObjectView,
} from '../../../../components/viewport/objectViews.ts'

/*
 * The explorer's sensors and volume clips as the engine draws them over the results
 * (engine/overlayProtocol.ts): plain views, no geometry (the meshes are fetched by the data
 * workers from the URLs the API gives). Visibility is the explorer's toggle; a shown clip also
 * clips the fluid drawn.
 */

/** Sensors are drawn in the second chart colour (the setup view's sensor colour). */
export const SENSOR_OVERLAY_COLOUR = OBJECT_COLOURS.sensor

/** A volume clip: its placed mesh in its own colour, and what it clips. */
export function volumeClipOverlay(clip: VolumeClip): VolumeClipView {
  return {
    view: volumeClipObjectView(clip, false),
    mesh: clip.mesh,
    inverted: clip.inverted,
    materialId: clip.materialId,
  }
}

/** The whole list, as the engine takes it (with the air drag grid when there is one). */
export function overlaysIntent(
  sensors: readonly Sensor[],
  clips: readonly VolumeClip[],
  airDragGrid: AirDragGridOverlay | null = null,
): OverlayIntent {
  return {
    type: 'set_overlays',
    sensors: sensors.map((sensor) => sensorObjectView(sensor, false)),
    clips: clips.map(volumeClipOverlay),
    airDragGrid,
  }
}
