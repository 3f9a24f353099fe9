import type { MeshBody, MeshKind, VolumeClip } from '../../../../../domain/meshes.ts'
import type { OutputManifestInfo } from '../../../../../domain/rest/resultsRoutes.ts'
import {
  VOLUME_CLIP_INFO,
  type MaterialDisplayMode,
  type PartViewMode,
} from '../../../../../domain/results.ts'
export {
  MATERIAL_DISPLAY_LABELS,
  PART_VIEW_LABELS,
  type MaterialDisplayMode,
  type PartViewMode,
} from '../../../../../domain/results.ts'
import { checkNumber, checkVector, issue, type Issue } from '../../../../../domain/validation.ts'

/*
 * The explorer's pure rules: which output objects it lists, the item states of volume clips, the
 * sensor and volume clip forms (drafts of strings → issues → request bodies) and their messages.
 */

/** How an object is drawn before anyone changes it (walls translucent, like the page's default). */
export const DEFAULT_MATERIAL_DISPLAY: MaterialDisplayMode = 'particles_spheres'
export const DEFAULT_WALL_VIEW: PartViewMode = 'translucent'
export const DEFAULT_OPEN_BOUNDARY_VIEW: PartViewMode = 'surface'

/** One drawable object of the output: a fluid material, a wall part or an open boundary. */
export interface ExplorerObject {
  objectId: string
  name: string
  /** Material id (fluids) or part id (walls, open boundaries). */
  sourceId: number
}

/** The output objects the explorer lists, grouped as the tree shows them. */
export interface OutputObjectGroups {
  fluids: ExplorerObject[]
  walls: ExplorerObject[]
  openBoundaries: ExplorerObject[]
}

/** Groups an output's objects (volume clip masks are listed under Volume clips, not here). */
export function groupOutputObjects(manifest: OutputManifestInfo | undefined): OutputObjectGroups {
  const groups: OutputObjectGroups = { fluids: [], walls: [], openBoundaries: [] }
  for (const object of manifest?.objects ?? []) {
    const item = { objectId: object.objectId, name: object.name, sourceId: object.sourceId }
    if (object.kind === 'fluid') groups.fluids.push(item)
    else if (object.kind === 'wall_boundary') groups.walls.push(item)
    else if (object.kind === 'open_boundary') groups.openBoundaries.push(item)
  }
  return groups
}

// ── Volume clip item info ───────────────────────────────────────────────────────────────────────

/** What the explorer knows of a clip's mask at the shown output. */
export type ClipMaskInfo =
  { status: 'missing' } | { status: 'loading' } | { status: 'ready'; empty: boolean }

/** The item state of a volume clip: missing (message), loading (spinner), empty (message), valid. */
export type VolumeClipItemState = 'missing' | 'loading' | 'empty' | 'valid'

/** A clip with no mask information yet is missing; a mask with no particle inside is empty. */
export function volumeClipItemState(info: ClipMaskInfo | undefined): VolumeClipItemState {
  if (!info || info.status === 'missing') return 'missing'
  if (info.status === 'loading') return 'loading'
  return info.empty ? 'empty' : 'valid'
}

/** The item's info line (spec/results.md §4 "Output loading"); null for loading and valid. */
export function volumeClipItemMessage(state: VolumeClipItemState): string | null {
  if (state === 'missing') return VOLUME_CLIP_INFO.missing
  if (state === 'empty') return VOLUME_CLIP_INFO.empty
  return null
}

// ── Sensors ─────────────────────────────────────────────────────────────────────────────────────

export {
  SENSORS_COMPUTING_MESSAGE,
  SENSORS_LOCKED_MESSAGE,
} from '../../../../../domain/rest/sensorRoutes.ts'
/** The hint of a sensor in pre mode (spec/results.md §4 "Sensor computation"). */
export const SENSOR_PRE_MODE_HINT =
  'No results for this sensor at the current output. Compute Sensors after changing its definition.'

// ── Forms ───────────────────────────────────────────────────────────────────────────────────────

/** 'Name is already used' (spec/results.md §5). */
export const NAME_TAKEN_MESSAGE = 'Name is already used'
/** The longest object name. */
export const NAME_MAX_LENGTH = 100

/** A vector as typed: three strings. */
export type VectorDraft = [string, string, string]

/** Parses a typed number: '' stays null (preliminary), anything unparsable is NaN. */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = Number(trimmed)
  return Number.isNaN(value) ? Number.NaN : value
}

export function parseVector(draft: VectorDraft): [number | null, number | null, number | null] {
  return [parseNumber(draft[0]), parseNumber(draft[1]), parseNumber(draft[2])]
}

const formatDraftNumber = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value)

export function vectorDraft(value: readonly (number | null)[] | undefined, fallback: VectorDraft) {
  if (!value) return fallback
  return value.map(formatDraftNumber) as VectorDraft
}

/** Name rules: required, at most 100 characters, unique among the other objects' names. */
export function checkObjectName(name: string, takenNames: readonly string[]): Issue[] {
  const trimmed = name.trim()
  if (trimmed === '') return [issue('error', 'name', 'Name is required')]
  if (trimmed.length > NAME_MAX_LENGTH)
    return [issue('error', 'name', `Name must be at most ${NAME_MAX_LENGTH} characters.`)]
  if (takenNames.includes(trimmed)) return [issue('error', 'name', NAME_TAKEN_MESSAGE)]
  return []
}

/** Mesh kinds a surface sensor can use (their triangles are sampled). */
export const SURFACE_SENSOR_MESH_KINDS = [
  'rectangle',
  'circle',
  'plane',
  'cube',
  'sphere',
  'cylinder',
] as const satisfies readonly MeshKind[]
/** Mesh kinds a volume clip can use. */
export const VOLUME_CLIP_MESH_KINDS = [
  'cube',
  'cylinder',
  'sphere',
  'plane',
] as const satisfies readonly MeshKind[]
/** A mesh kind the explorer's forms edit. */
export type FormMeshKind = (typeof SURFACE_SENSOR_MESH_KINDS)[number]

export const MESH_KIND_LABELS: Record<FormMeshKind, string> = {
  rectangle: 'Rectangle',
  circle: 'Circle',
  plane: 'Plane',
  cube: 'Cube',
  sphere: 'Sphere',
  cylinder: 'Cylinder',
}

/** A mesh as typed in a form: its kind, centre and the size fields of every kind. */
export interface MeshDraft {
  kind: FormMeshKind
  center: VectorDraft
  /** Cube edge lengths, m. */
  dimensions: VectorDraft
  radius: string
  width: string
  length: string
  height: string
  /** Plane, rectangle and circle normal. */
  normal: VectorDraft
  /** Cylinder axis. */
  axis: VectorDraft
}

/** A new mesh draft of a kind: 1 m in size at the origin, facing +z. */
export function defaultMeshDraft(kind: FormMeshKind): MeshDraft {
  return {
    kind,
    center: ['0', '0', '0'],
    dimensions: ['1', '1', '1'],
    radius: '0.5',
    width: '1',
    length: '1',
    height: kind === 'plane' ? '0' : '1',
    normal: ['0', '0', '1'],
    axis: ['0', '0', '1'],
  }
}

/** The draft of an existing mesh (fields its kind lacks keep their defaults). */
export function meshDraftOf(mesh: VolumeClip['mesh']): MeshDraft {
  const kind: FormMeshKind = (SURFACE_SENSOR_MESH_KINDS as readonly string[]).includes(mesh.kind)
    ? (mesh.kind as FormMeshKind)
    : 'cube'
  const draft = defaultMeshDraft(kind)
  draft.center = vectorDraft(mesh.center, draft.center)
  if ('dimensions' in mesh) draft.dimensions = vectorDraft(mesh.dimensions, draft.dimensions)
  if ('radius' in mesh) draft.radius = formatDraftNumber(mesh.radius)
  if ('width' in mesh) draft.width = formatDraftNumber(mesh.width)
  if ('length' in mesh) draft.length = formatDraftNumber(mesh.length)
  if ('height' in mesh) draft.height = formatDraftNumber(mesh.height)
  if ('normal' in mesh) draft.normal = vectorDraft(mesh.normal, draft.normal)
  if ('axis' in mesh) draft.axis = vectorDraft(mesh.axis, draft.axis)
  return draft
}

/** The size fields each kind shows (and sends). */
export const MESH_SIZE_FIELDS: Record<
  FormMeshKind,
  readonly ('dimensions' | 'radius' | 'width' | 'length' | 'height' | 'normal' | 'axis')[]
> = {
  cube: ['dimensions'],
  sphere: ['radius'],
  cylinder: ['radius', 'height', 'axis'],
  plane: ['width', 'length', 'height', 'normal'],
  rectangle: ['width', 'height', 'normal'],
  circle: ['radius', 'normal'],
}

const positive = { min: 0, exclusiveMin: true } as const

/** The mesh rules of domain/meshes.ts checkMesh, on the typed values (fields 'mesh.…'). */
export function checkMeshDraft(draft: MeshDraft): Issue[] {
  const issues = checkVector('mesh.center', 'Center', parseVector(draft.center))
  for (const field of MESH_SIZE_FIELDS[draft.kind]) {
    switch (field) {
      case 'dimensions':
        issues.push(
          ...checkVector('mesh.dimensions', 'Dimensions', parseVector(draft.dimensions), {
            bounds: positive,
          }),
        )
        break
      case 'radius':
        issues.push(...checkNumber('mesh.radius', 'Radius', parseNumber(draft.radius), positive))
        break
      case 'width':
        issues.push(...checkNumber('mesh.width', 'Width', parseNumber(draft.width), positive))
        break
      case 'length':
        issues.push(...checkNumber('mesh.length', 'Length', parseNumber(draft.length), positive))
        break
      case 'height':
        // A plane's height is its offset along the normal: any number.
        issues.push(
          ...checkNumber(
            'mesh.height',
            draft.kind === 'plane' ? 'Offset' : 'Height',
            parseNumber(draft.height),
            draft.kind === 'plane' ? {} : positive,
          ),
        )
        break
      case 'normal':
        issues.push(
          ...checkVector('mesh.normal', 'Normal', parseVector(draft.normal), { nonZero: true }),
        )
        break
      case 'axis':
        issues.push(...checkVector('mesh.axis', 'Axis', parseVector(draft.axis), { nonZero: true }))
        break
    }
  }
  return issues
}

const vec = (draft: VectorDraft) => parseVector(draft) as [number, number, number]
const num = (text: string) => parseNumber(text) as number

/** The POST /meshes or PUT /meshes/{id} body of a valid draft. */
export function meshBodyOf(draft: MeshDraft): MeshBody {
  const center = vec(draft.center)
  switch (draft.kind) {
    case 'cube':
      return { kind: 'cube', center, dimensions: vec(draft.dimensions) }
    case 'sphere':
      return { kind: 'sphere', center, radius: num(draft.radius) }
    case 'cylinder':
      return {
        kind: 'cylinder',
        center,
        radius: num(draft.radius),
        height: num(draft.height),
        axis: vec(draft.axis),
      }
    case 'plane':
      return {
        kind: 'plane',
        center,
        width: num(draft.width),
        length: num(draft.length),
        height: num(draft.height),
        normal: vec(draft.normal),
      }
    case 'rectangle':
      return {
        kind: 'rectangle',
        center,
        width: num(draft.width),
        height: num(draft.height),
        normal: vec(draft.normal),
      }
    case 'circle':
      return { kind: 'circle', center, radius: num(draft.radius), normal: vec(draft.normal) }
  }
}

export {
  checkSensorDraft,
  newSensorDraft,
  sensorDraftOf,
  sensorPositionOf,
  type SensorDraft,
} from './sensorDraft.ts'

/** The volume clip form as typed; materialId null clips all materials. */
export interface VolumeClipDraft {
  name: string
  mesh: MeshDraft
  materialId: number | null
  inverted: boolean
}

/** A new clip draft: a 1 m cube at the origin over all materials. */
export function newVolumeClipDraft(name: string): VolumeClipDraft {
  return { name, mesh: defaultMeshDraft('cube'), materialId: null, inverted: false }
}

/** The draft of an existing clip. */
export function volumeClipDraftOf(clip: VolumeClip): VolumeClipDraft {
  return {
    name: clip.name,
    mesh: meshDraftOf(clip.mesh),
    materialId: clip.materialId,
    inverted: clip.inverted,
  }
}

/** The volume clip form's issues. */
export function checkVolumeClipDraft(
  draft: VolumeClipDraft,
  takenNames: readonly string[],
): Issue[] {
  return [...checkObjectName(draft.name, takenNames), ...checkMeshDraft(draft.mesh)]
}

/** The first message of a field (or of a field's components, 'mesh.dimensions.1'). */
export function fieldMessage(issues: readonly Issue[], field: string): string | null {
  return (
    issues.find((candidate) => candidate.field === field || candidate.field.startsWith(`${field}.`))
      ?.message ?? null
  )
}

/** A name not yet taken: 'Sensor 1', 'Sensor 2' … */
export function nextFreeName(prefix: string, takenNames: readonly string[]): string {
  for (let n = 1; ; n++) {
    const name = `${prefix} ${n}`
    if (!takenNames.includes(name)) return name
  }
}

// ── Toasts ──────────────────────────────────────────────────────────────────────────────────────

/** Failure toasts (spec/setup.md §8: adding, updating or deleting a sensor or volume clip). */
export const EXPLORER_TOASTS = {
  addSensorFailed: 'Adding sensor failed',
  updateSensorFailed: 'Updating sensor failed',
  deleteSensorFailed: 'Deleting sensor failed',
  addVolumeClipFailed: 'Adding volume clip failed',
  updateVolumeClipFailed: 'Updating volume clip failed',
  deleteVolumeClipFailed: 'Deleting volume clip failed',
  computeSensorsFailed: 'Computing sensors failed',
  stopComputationFailed: 'Stopping the computation failed',
  plotSensorFailed: 'Loading the sensor samples failed',
} as const
