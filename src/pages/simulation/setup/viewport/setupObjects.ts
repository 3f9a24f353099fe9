import type { Sensor, VolumeClip } from '../../../../../domain/meshes.ts'
import { movementChain, type Movement } from '../../../../../domain/movements.ts'
import type { Part } from '../../../../../domain/parts.ts'
import type { CalcDomain } from '../../../../../domain/rest/setupRoutes.ts'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import type { LooseVec3, Vec3 } from '../../../../../domain/vector.ts'
import type { SetupAppearance, SetupObjectView } from '../../../../../engine/setupProtocol.ts'
import {
  fullVector,
  hashOfUrl,
  IDENTITY_TRANSFORM,
  meshGeometry,
  OBJECT_COLOURS,
  plainAppearance,
  sensorObjectView,
  volumeClipObjectView,
} from '../../../../components/viewport/objectViews.ts'
import { partWarnings } from '../explorer/explorerModel.ts'
import { objectId } from '../state/setupAtoms.ts'

/*
 * The setup scene as the engine draws it (engine/setupProtocol.ts SetupObjectView): every part,
 * sensor, volume clip and the deletion boundary, built from the server's state. Plain data, no
 * geometry: meshes, point clouds and keyframes are fetched by the data workers from the URLs here.
 */

/** Everything the scene is built from. */
export interface SetupSceneInput {
  parts: readonly Part[]
  movements: readonly Movement[]
  sensors: readonly Sensor[]
  volumeClips: readonly VolumeClip[]
  calcDomain: CalcDomain | undefined
  /** The simulation's end time (bounds the keyframes; null: not set). */
  endTimeS: number | null
  /** Gizmos and seed-point drags are allowed (the setup is editable here). */
  editable: boolean
  /** Parts whose point clouds show because a discretization just finished (by part id). */
  freshPointclouds: ReadonlySet<number>
  /** The latest discretization's messages about each part (drawn with a warning outline). */
  discretizationMessages?: ReadonlyMap<number, readonly { description: string }[]>
}

/** Components still unset take `fallback` (a placement is drawn while a field is being typed). */
function vectorOr(vector: LooseVec3, fallback: number): Vec3 {
  return [vector[0] ?? fallback, vector[1] ?? fallback, vector[2] ?? fallback]
}

/** A short, stable hash of a string (FNV-1a, 32 bits, hex). */
export function hashText(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/** The URL the keyframes of a part are fetched from (GET /parts/{id}/movements/keyframes). */
export function keyframesUrl(partId: number): string {
  return `/api/parts/${partId}/movements/keyframes`
}

/**
 * A part's keyframe track: null when no movement acts on it (its own or a leader's), else the URL
 * with a hash of those movements and the end time, so an edit of either refetches the track.
 */
export function partKeyframes(
  partId: number,
  movements: readonly Movement[],
  endTimeS: number | null,
): SetupObjectView['keyframes'] {
  const chain = movementChain(partId, movements)
  if (chain.length === 0) return null
  return { url: keyframesUrl(partId), hash: hashText(JSON.stringify({ chain, endTimeS })) }
}

function partAppearance(part: Part): SetupAppearance {
  const a = part.appearance
  return {
    color: a.color,
    opacity: a.opacity ?? 1,
    wireframe: a.wireframe,
    translucent: a.translucent,
    visible: a.visibility,
  }
}

/** An open boundary's flow arrow from the placed shape's centre and normal (server's shape info). */
function partArrow(part: Part): SetupObjectView['arrow'] {
  const info = part.shape.info
  if (part.component.type !== 'openboundary' || !info?.normal) return null
  return { origin: info.center, normal: info.normal, direction: part.component.ioDirection }
}

/**
 * Parts whose particles show by themselves once a discretization finishes (spec/setup.md §3:
 * "Pointclouds are loaded for flow and filling parts"); walls show theirs on request only, so
 * their layers never bury the fluid.
 */
const POINTCLOUD_COMPONENTS: readonly Part['component']['type'][] = ['filling', 'flow']

/** One part as the engine draws it. */
export function partView(part: Part, input: SetupSceneInput): SetupObjectView {
  const shape = part.shape
  // a pointcloud part's geometry is its cloud: the reference output's particles until a
  // discretization gives its own (count unknown until loaded), always shown
  const cloudPart = shape.type === 'pointcloud'
  const pointcloud =
    part.pointcloudUrl !== null && (part.pointcloudCount !== null || cloudPart)
      ? {
          url: part.pointcloudUrl,
          hash: hashOfUrl(part.pointcloudUrl),
          count: part.pointcloudCount ?? 0,
          role: POINTCLOUD_COMPONENTS.includes(part.component.type)
            ? ('fluid' as const)
            : ('wall' as const),
          visible:
            cloudPart ||
            part.appearance.showPointcloud ||
            (input.freshPointclouds.has(part.id) &&
              POINTCLOUD_COMPONENTS.includes(part.component.type)),
        }
      : null
  return {
    id: objectId('part', part.id),
    kind: 'part',
    name: part.name,
    geometry: meshGeometry(part.meshUrl, part.meshHash),
    transform: {
      translation: vectorOr(shape.translation, 0),
      rotationDeg: vectorOr(shape.rotation, 0),
      scale: vectorOr(shape.scale, 1),
    },
    appearance: partAppearance(part),
    seedPoint: fullVector(part.seedPoint),
    pointcloud,
    arrow: partArrow(part),
    keyframes: partKeyframes(part.id, input.movements, input.endTimeS),
    selectable: true,
    // A point cloud part keeps the placement of the simulation it came from.
    editable: input.editable && shape.type !== 'pointcloud',
    warning: partWarnings(part, input.discretizationMessages?.get(part.id)).length > 0,
  }
}

/** A sensor: a point marker, or its surface mesh (placed already). */
export function sensorView(sensor: Sensor): SetupObjectView {
  return sensorObjectView(sensor, true)
}

/** A volume clip: its mesh (placed already), drawn with its own appearance. */
export function volumeClipView(clip: VolumeClip): SetupObjectView {
  return volumeClipObjectView(clip, true)
}

/** The deletion boundary's box while it is active and both corners are set; null otherwise. */
export function calcDomainView(calcDomain: CalcDomain | undefined): SetupObjectView | null {
  const min = fullVector(calcDomain?.min)
  const max = fullVector(calcDomain?.max)
  if (!calcDomain?.active || min === null || max === null) return null
  return {
    id: 'calc_domain',
    kind: 'calc_domain',
    name: SETUP_MESSAGES.deletionBoundaryTooltip,
    geometry: { type: 'box', min, max },
    transform: IDENTITY_TRANSFORM,
    appearance: plainAppearance(true, OBJECT_COLOURS.calcDomain),
    seedPoint: null,
    pointcloud: null,
    arrow: null,
    keyframes: null,
    selectable: true,
    editable: false,
    warning: false,
  }
}

/** Every object of the setup scene, parts first. */
export function setupObjectViews(input: SetupSceneInput): SetupObjectView[] {
  const domain = calcDomainView(input.calcDomain)
  return [
    ...input.parts.map((part) => partView(part, input)),
    ...input.sensors.map(sensorView),
    ...input.volumeClips.map(volumeClipView),
    ...(domain ? [domain] : []),
  ]
}

/**
 * The parts whose point clouds show because a discretization just finished: every part with a
 * point cloud at that moment, until its own 'show point cloud' switch is changed.
 */
export function freshPointcloudParts(
  parts: readonly Pick<Part, 'id' | 'appearance'>[],
  shownAtFinish: ReadonlyMap<number, boolean>,
): Set<number> {
  const fresh = new Set<number>()
  for (const part of parts) {
    const before = shownAtFinish.get(part.id)
    if (before !== undefined && before === part.appearance.showPointcloud) fresh.add(part.id)
  }
  return fresh
}
