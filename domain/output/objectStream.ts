/**
 * One object's Arrow IPC stream in the output format (docs/output-format.md): one record batch,
 * rows in a spatially stratified order, per-column finite min/max and unit in the field metadata.
 */
import {
  Field,
  Float32,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Uint32,
  Uint8,
} from 'apache-arrow'
import {
  COLUMN_UNITS,
  FIELD_METADATA_KEYS,
  FORMAT_MINOR_VERSION,
  FORMAT_VERSION,
  formatVersionString,
  MASK_COLUMN,
  MESH_INDEX_COLUMN,
  FORMAT_OBJECT_KINDS,
  OutputFormatError,
  POSITION_COLUMNS,
  SCHEMA_METADATA_KEYS,
  type FormatObjectKind,
  type RowOrdering,
  type StreamPart,
  type ValueRange,
} from '../outputFormat.ts'
import type { Dataset } from '../results.ts'
import { applyOrderToColumns, computeStratifiedOrder } from './ordering.ts'

/** What the writer needs to know about one object in one output and dataset. */
export interface ObjectStreamMeta {
  simulationId: number
  runId: number | null
  outputNo: number
  timeS: number
  objectId: string
  objectKind: FormatObjectKind
  /** The fluid's material (or a mask's fluid's material); null or absent for walls. */
  materialId?: number | null
  dataset: Dataset
  /** Rows of this object in the full dataset; defaults to this stream's rows. */
  fullParticleCount?: number
  /** For a volume clip mask: the object id of the fluid it is aligned with. */
  targetObjectId?: string | null
}

/** A triangle mesh attached to an object (a wall's surface). */
export interface MeshInput {
  /** Per-vertex Float32 columns: x, y, z and any quantity columns (e.g. pressure). */
  columns: Record<string, Float32Array>
  /** Three vertex indices per triangle, each below the vertex count. */
  indices: Uint32Array
}

/**
 * How {@link writeObjectStream} orders rows:
 * - `stratify` (default for particle objects): reorder with {@link computeStratifiedOrder};
 * - `presorted`: the rows already are a stratified order (or a prefix of one), write as given;
 * - `as_given` (default for masks): write as given and promise nothing about prefixes.
 */
export type RowOrderOption = 'stratify' | 'presorted' | 'as_given'

/** Options of {@link writeObjectStream}. */
export interface WriteObjectOptions {
  order?: RowOrderOption
  mesh?: MeshInput | null
}

/** Columns of one object: Float32 quantity columns, or `{ inside: Uint8Array }` for a mask. */
export type ObjectColumns = Record<string, Float32Array | Uint8Array>

export function invalid(message: string): OutputFormatError {
  return new OutputFormatError('invalid_input', message)
}

/** Smallest and largest finite value; null when there is none (empty, or all NaN/±Infinity). */
export function computeFiniteRange(values: Float32Array): ValueRange | null {
  let min = Infinity
  let max = -Infinity
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!
    // value - value is 0 only for finite values.
    if (value - value !== 0) continue
    if (value < min) min = value
    if (value > max) max = value
  }
  return min <= max ? { min, max } : null
}

function checkMeta(meta: ObjectStreamMeta): void {
  const isCount = (value: number): boolean => Number.isSafeInteger(value) && value >= 0
  if (!isCount(meta.simulationId)) throw invalid('The simulation id must be an integer ≥ 0.')
  if (meta.runId !== null && !isCount(meta.runId)) throw invalid('The run id must be an integer.')
  if (!isCount(meta.outputNo) || meta.outputNo > 0xffffffff) {
    throw invalid('The output number must be an integer from 0 to 2^32 − 1.')
  }
  if (!Number.isFinite(meta.timeS)) throw invalid('The output time must be a finite number.')
  if (meta.objectId.length === 0) throw invalid('The object id must not be empty.')
  if (!FORMAT_OBJECT_KINDS.includes(meta.objectKind))
    throw invalid(`Unknown kind ${meta.objectKind}.`)
  const materialId = meta.materialId ?? null
  if (materialId !== null && !Number.isSafeInteger(materialId)) {
    throw invalid('The material id must be an integer.')
  }
}

function schemaMetadata(
  meta: ObjectStreamMeta,
  part: StreamPart,
  entries: Record<string, string>,
): Map<string, string> {
  const keys = SCHEMA_METADATA_KEYS
  return new Map([
    [
      keys.formatVersion,
      formatVersionString({ major: FORMAT_VERSION, minor: FORMAT_MINOR_VERSION }),
    ],
    [keys.part, part],
    [keys.simulationId, String(meta.simulationId)],
    [keys.runId, meta.runId === null ? '' : String(meta.runId)],
    [keys.outputNo, String(meta.outputNo)],
    [keys.timeS, String(meta.timeS)],
    [keys.objectId, meta.objectId],
    [keys.objectKind, meta.objectKind],
    [keys.materialId, meta.materialId == null ? '' : String(meta.materialId)],
    [keys.dataset, meta.dataset],
    ...Object.entries(entries),
  ])
}

function fieldMetadata(name: string, values: Float32Array | null): Map<string, string> {
  const metadata = new Map<string, string>()
  const unit = COLUMN_UNITS.get(name)?.unit
  if (unit !== undefined) metadata.set(FIELD_METADATA_KEYS.unit, unit)
  const range = values === null ? null : computeFiniteRange(values)
  if (range !== null) {
    metadata.set(FIELD_METADATA_KEYS.min, String(range.min))
    metadata.set(FIELD_METADATA_KEYS.max, String(range.max))
  }
  return metadata
}

/** One Arrow stream: schema, ONE record batch (so every column is one contiguous chunk), end. */
function encodeStream(
  columns: readonly (readonly [string, Float32Array | Uint8Array | Uint32Array])[],
  metadata: Map<string, string>,
): Uint8Array {
  const length = columns[0]?.[1].length ?? 0
  const fields: Field[] = []
  const children = columns.map(([name, values]) => {
    if (values instanceof Float32Array) {
      fields.push(new Field(name, new Float32(), false, fieldMetadata(name, values)))
      return makeData({ type: new Float32(), length, nullCount: 0, data: values })
    }
    if (values instanceof Uint8Array) {
      fields.push(new Field(name, new Uint8(), false, fieldMetadata(name, null)))
      return makeData({ type: new Uint8(), length, nullCount: 0, data: values })
    }
    fields.push(new Field(name, new Uint32(), false, fieldMetadata(name, null)))
    return makeData({ type: new Uint32(), length, nullCount: 0, data: values })
  })
  const schema = new Schema(fields, metadata)
  const batch = new RecordBatch(
    schema,
    makeData({ type: new Struct(fields), length, nullCount: 0, children }),
  )
  const bytes = RecordBatchStreamWriter.writeAll([batch]).toUint8Array(true)
  // Arrow pads every message to 8 bytes; streams placed back to back stay aligned.
  if (bytes.length % 8 !== 0) throw invalid('The Arrow writer produced an unpadded stream.')
  return bytes
}

/** Known Float32 columns in schema order (position first, then the quantity table's order). */
export function orderFloatColumns(
  columns: Record<string, Float32Array | Uint8Array>,
  what: string,
): [string, Float32Array][] {
  const names = Object.keys(columns)
  for (const name of names) {
    if (!COLUMN_UNITS.has(name)) throw invalid(`${what}: "${name}" is not a known column.`)
    if (!(columns[name] instanceof Float32Array)) {
      throw invalid(`${what}: column "${name}" must be a Float32Array.`)
    }
  }
  for (const name of POSITION_COLUMNS) {
    if (!(name in columns)) throw invalid(`${what}: column "${name}" is required.`)
  }
  const ordered = [...COLUMN_UNITS.keys()]
    .filter((name) => name in columns)
    .map((name): [string, Float32Array] => [name, columns[name] as Float32Array])
  const length = ordered[0]?.[1].length ?? 0
  for (const [name, values] of ordered) {
    if (values.length !== length) throw invalid(`${what}: column "${name}" has a different length.`)
  }
  return ordered
}

function encodeMesh(mesh: MeshInput, meta: ObjectStreamMeta): Uint8Array[] {
  const vertices = orderFloatColumns(mesh.columns, 'Mesh')
  const vertexCount = vertices[0]?.[1].length ?? 0
  if (mesh.indices.length % 3 !== 0) throw invalid('Mesh indices must come in threes.')
  for (let index = 0; index < mesh.indices.length; index++) {
    if (mesh.indices[index]! >= vertexCount) throw invalid('A mesh index is out of range.')
  }
  const triangleCount = String(mesh.indices.length / 3)
  const extra = { [SCHEMA_METADATA_KEYS.triangleCount]: triangleCount }
  return [
    encodeStream(vertices, schemaMetadata(meta, 'mesh_vertices', extra)),
    encodeStream([[MESH_INDEX_COLUMN, mesh.indices]], schemaMetadata(meta, 'mesh_indices', extra)),
  ]
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const result = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    result.set(part, offset)
    offset += part.length
  }
  return result
}

/**
 * Encodes one object of one output and dataset as its bytes: the primary Arrow stream (particles,
 * or a mask's `inside` column) and, with `options.mesh`, the mesh vertex and index streams.
 * Each stream has ONE record batch, so a reader views every column in place. Particle rows are
 * stored in a stratified order unless `options.order` says otherwise; a mask is written as given
 * (align it with its fluid first, see {@link writeOutput}).
 * Throws {@link OutputFormatError} `invalid_input` for inconsistent columns or metadata.
 */
export function writeObjectStream(
  columns: ObjectColumns,
  meta: ObjectStreamMeta,
  options: WriteObjectOptions = {},
): Uint8Array {
  checkMeta(meta)
  const keys = SCHEMA_METADATA_KEYS
  const mesh = options.mesh ?? null
  if (meta.objectKind === 'volume_clip') {
    const inside = columns[MASK_COLUMN]
    if (!(inside instanceof Uint8Array) || Object.keys(columns).length !== 1) {
      throw invalid(`A volume clip mask has exactly one Uint8Array column, "${MASK_COLUMN}".`)
    }
    if (options.order === 'stratify')
      throw invalid('A mask follows its fluid; it cannot be reordered.')
    if (mesh !== null) throw invalid('A volume clip mask has no mesh.')
    if (!meta.targetObjectId) throw invalid('A volume clip mask needs its target object id.')
    const ordering: RowOrdering = options.order === 'presorted' ? 'stratified' : 'as_given'
    const metadata = schemaMetadata(meta, 'mask', {
      [keys.particleCount]: String(inside.length),
      [keys.fullParticleCount]: String(meta.fullParticleCount ?? inside.length),
      [keys.ordering]: ordering,
      [keys.streamCount]: '1',
      [keys.targetObjectId]: meta.targetObjectId,
    })
    return encodeStream([[MASK_COLUMN, inside]], metadata)
  }
  let ordered = orderFloatColumns(columns, `Object ${meta.objectId}`)
  const order = options.order ?? 'stratify'
  if (order === 'stratify') {
    const [x, y, z] = POSITION_COLUMNS.map((name) => columns[name] as Float32Array)
    const permutation = computeStratifiedOrder(x!, y!, z!)
    const gathered = applyOrderToColumns(
      ordered.map(([, values]) => values),
      permutation,
    )
    ordered = ordered.map(([name], index) => [name, gathered[index]!])
  }
  const rowCount = ordered[0]?.[1].length ?? 0
  const fullParticleCount = meta.fullParticleCount ?? rowCount
  if (fullParticleCount < rowCount) throw invalid('The full particle count is below the row count.')
  const metadata = schemaMetadata(meta, 'particles', {
    [keys.particleCount]: String(rowCount),
    [keys.fullParticleCount]: String(fullParticleCount),
    [keys.ordering]: order === 'as_given' ? 'as_given' : 'stratified',
    [keys.streamCount]: mesh === null ? '1' : '3',
  })
  const streams = [encodeStream(ordered, metadata)]
  if (mesh !== null) streams.push(...encodeMesh(mesh, meta))
  return concatenate(streams)
}

/** A particle object of one output, as the solver holds it (rows in any order). */
