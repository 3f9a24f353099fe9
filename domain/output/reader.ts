/**
 * Reads outputs in the output format (docs/output-format.md) without copying columns: every
 * Float32Array / Uint8Array / Uint32Array returned is a view over the input bytes' buffer (the one
 * exception: input not 8-byte aligned in its buffer is copied once, since typed-array views need
 * aligned offsets). On bad input it throws {@link OutputFormatError} and nothing else.
 */
import {
  COLUMN_UNITS,
  decodeBundleHeader,
  FIELD_METADATA_KEYS,
  FORMAT_VERSION,
  formatVersionString,
  MASK_COLUMN,
  MESH_INDEX_COLUMN,
  FORMAT_OBJECT_KINDS,
  OutputFormatError,
  parseFormatVersion,
  POSITION_COLUMNS,
  ROW_ORDERINGS,
  SCHEMA_METADATA_KEYS,
  STREAM_PARTS,
  type BundleEntryLocation,
  type FormatVersion,
  type ObjectMeta,
  type StreamPart,
  type ValueRange,
} from '../outputFormat.ts'
import { DATASETS } from '../results.ts'
import {
  readEndOfStream,
  readRecordBatchMessage,
  readSchemaMessage,
  type ColumnType,
  type ColumnValues,
  type IpcSchema,
} from './arrowIpc.ts'

/** Float32 columns of one table (particles or mesh vertices), viewed in place. */
export interface ColumnTable {
  rowCount: number
  /** Columns by name, in place over the input bytes. x, y and z are always present. */
  columns: Record<string, Float32Array>
  /** Finite min/max per column from the field metadata; null when the column has none. */
  ranges: Record<string, ValueRange | null>
  /** Stored unit per column ('' when neither the metadata nor the quantity table knows it). */
  units: Record<string, string>
}

/** An object's triangle mesh, viewed in place. */
export interface MeshView extends ColumnTable {
  vertexCount: number
  triangleCount: number
  /** Three vertex indices per triangle, each below vertexCount (checked). */
  indices: Uint32Array
}

/** One object of one output and dataset, as read. */
export interface ObjectView extends ColumnTable {
  meta: ObjectMeta
  /** A volume clip's mask (1 = inside), aligned with its target fluid's rows; null otherwise. */
  mask: Uint8Array | null
  mesh: MeshView | null
}

/** One entry of a bundle: where it lies, what it is, and its bytes (a view into the bundle). */
export interface BundleEntry extends BundleEntryLocation {
  bytes: Uint8Array
}

const ALIGNMENT = 8

/** The input itself when 8-byte aligned in its buffer, else one aligned copy. */
function alignBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset % ALIGNMENT === 0) return bytes
  const copy = new Uint8Array(bytes.length)
  copy.set(bytes)
  return copy
}

function rethrowAsFormatError(error: unknown): never {
  if (error instanceof OutputFormatError) throw error
  const reason = error instanceof Error ? error.message : String(error)
  throw new OutputFormatError('corrupt', `The output bytes could not be read: ${reason}`)
}

function invalidMetadata(key: string): OutputFormatError {
  return new OutputFormatError('invalid_metadata', `Metadata "${key}" is missing or malformed.`)
}

function checkVersion(metadata: Map<string, string>): FormatVersion {
  const text = metadata.get(SCHEMA_METADATA_KEYS.formatVersion)
  const version = text === undefined ? null : parseFormatVersion(text)
  if (version === null) throw invalidMetadata(SCHEMA_METADATA_KEYS.formatVersion)
  if (version.major > FORMAT_VERSION || version.major < 1) {
    throw new OutputFormatError(
      'unsupported_version',
      `Output format ${formatVersionString(version)} is not supported (this reader knows ${FORMAT_VERSION}.x).`,
    )
  }
  return version
}

/** Required column and type of each stream part; other columns must be Float32. */
const PART_COLUMNS: Record<StreamPart, { required: readonly string[]; type: ColumnType }> = {
  particles: { required: POSITION_COLUMNS, type: 'float32' },
  mesh_vertices: { required: POSITION_COLUMNS, type: 'float32' },
  mask: { required: [MASK_COLUMN], type: 'uint8' },
  mesh_indices: { required: [MESH_INDEX_COLUMN], type: 'uint32' },
}

function checkColumns(schema: IpcSchema, part: StreamPart): void {
  const names = new Set<string>()
  for (const field of schema.fields) {
    if (names.has(field.name)) {
      throw new OutputFormatError('corrupt', `Column "${field.name}" appears twice.`)
    }
    names.add(field.name)
  }
  const { required, type } = PART_COLUMNS[part]
  for (const name of required) {
    if (!names.has(name)) {
      throw new OutputFormatError('missing_column', `The ${part} stream has no "${name}" column.`)
    }
  }
  for (const field of schema.fields) {
    const expected = required.includes(field.name) ? type : 'float32'
    if (field.type !== expected) {
      throw new OutputFormatError(
        'wrong_column_type',
        `Column "${field.name}" is ${field.typeName}; the ${part} stream needs ${expected === 'float32' ? 'Float32' : expected === 'uint8' ? 'Uint8' : 'Uint32'}.`,
      )
    }
  }
}

interface StreamRead {
  schema: IpcSchema
  part: StreamPart
  rowCount: number
  values: ColumnValues[]
  next: number
}

/** Reads one Arrow stream at `position`, checking version, part and column types in that order. */
function readStream(
  bytes: Uint8Array,
  position: number,
  allowedParts: readonly StreamPart[],
): StreamRead {
  const { schema, next: batchPosition } = readSchemaMessage(bytes, position)
  checkVersion(schema.metadata)
  const part = schema.metadata.get(SCHEMA_METADATA_KEYS.part) as StreamPart | undefined
  if (part === undefined || !STREAM_PARTS.includes(part)) {
    throw invalidMetadata(SCHEMA_METADATA_KEYS.part)
  }
  if (!allowedParts.includes(part)) {
    throw new OutputFormatError(
      'corrupt',
      `Expected a ${allowedParts.join(' or ')} stream, got ${part}.`,
    )
  }
  checkColumns(schema, part)
  const batch = readRecordBatchMessage(bytes, batchPosition, schema)
  const next = readEndOfStream(bytes, batch.next)
  return { schema, part, rowCount: batch.rowCount, values: batch.columns, next }
}

function parseRange(metadata: Map<string, string>): ValueRange | null {
  const minText = metadata.get(FIELD_METADATA_KEYS.min)
  const maxText = metadata.get(FIELD_METADATA_KEYS.max)
  if (minText === undefined || maxText === undefined) return null
  const min = Number(minText)
  const max = Number(maxText)
  return Number.isFinite(min) && Number.isFinite(max) && min <= max ? { min, max } : null
}

function toColumnTable(stream: StreamRead): ColumnTable {
  // Null-prototype records: a column named "__proto__" is data, not a prototype.
  const columns = Object.create(null) as Record<string, Float32Array>
  const ranges = Object.create(null) as Record<string, ValueRange | null>
  const units = Object.create(null) as Record<string, string>
  stream.schema.fields.forEach((field, index) => {
    const values = stream.values[index]
    if (!(values instanceof Float32Array)) return
    columns[field.name] = values
    ranges[field.name] = parseRange(field.metadata)
    units[field.name] =
      field.metadata.get(FIELD_METADATA_KEYS.unit) ?? COLUMN_UNITS.get(field.name)?.unit ?? ''
  })
  return { rowCount: stream.rowCount, columns, ranges, units }
}

function parseInteger(
  metadata: Map<string, string>,
  key: string,
  nullable: boolean,
): number | null {
  const text = metadata.get(key)
  if (text === undefined) throw invalidMetadata(key)
  if (text === '' && nullable) return null
  if (!/^-?\d{1,16}$/.test(text)) throw invalidMetadata(key)
  const value = Number(text)
  if (!Number.isSafeInteger(value)) throw invalidMetadata(key)
  return value
}

function parsePicklist<T extends string>(
  metadata: Map<string, string>,
  key: string,
  values: readonly T[],
): T {
  const text = metadata.get(key)
  if (text === undefined || !values.includes(text as T)) throw invalidMetadata(key)
  return text as T
}

function parseObjectMeta(metadata: Map<string, string>, version: FormatVersion): ObjectMeta {
  const keys = SCHEMA_METADATA_KEYS
  const count = (key: string): number => {
    const value = parseInteger(metadata, key, false)
    if (value === null || value < 0) throw invalidMetadata(key)
    return value
  }
  const timeText = metadata.get(keys.timeS)
  const timeS = timeText === undefined || timeText === '' ? NaN : Number(timeText)
  if (!Number.isFinite(timeS)) throw invalidMetadata(keys.timeS)
  const objectId = metadata.get(keys.objectId)
  if (!objectId) throw invalidMetadata(keys.objectId)
  const objectKind = parsePicklist(metadata, keys.objectKind, FORMAT_OBJECT_KINDS)
  const targetObjectId = metadata.get(keys.targetObjectId) ?? null
  if (objectKind === 'volume_clip' && !targetObjectId) throw invalidMetadata(keys.targetObjectId)
  return {
    formatVersion: version,
    simulationId: count(keys.simulationId),
    runId: parseInteger(metadata, keys.runId, true),
    outputNo: count(keys.outputNo),
    timeS,
    objectId,
    objectKind,
    materialId: parseInteger(metadata, keys.materialId, true),
    dataset: parsePicklist(metadata, keys.dataset, DATASETS),
    particleCount: count(keys.particleCount),
    fullParticleCount: count(keys.fullParticleCount),
    ordering: parsePicklist(metadata, keys.ordering, ROW_ORDERINGS),
    streamCount: count(keys.streamCount),
    targetObjectId: objectKind === 'volume_clip' ? targetObjectId : null,
  }
}

function readObjectUnchecked(bytes: Uint8Array): ObjectView {
  const primary = readStream(bytes, 0, ['particles', 'mask'])
  const meta = parseObjectMeta(primary.schema.metadata, checkVersion(primary.schema.metadata))
  if ((meta.objectKind === 'volume_clip') !== (primary.part === 'mask')) {
    throw invalidMetadata(SCHEMA_METADATA_KEYS.part)
  }
  if (meta.particleCount !== primary.rowCount || meta.fullParticleCount < meta.particleCount) {
    throw new OutputFormatError('corrupt', 'The particle count does not match the rows.')
  }
  const expectedStreams = meta.objectKind === 'volume_clip' ? [1] : [1, 3]
  if (!expectedStreams.includes(meta.streamCount)) {
    throw invalidMetadata(SCHEMA_METADATA_KEYS.streamCount)
  }
  let mesh: MeshView | null = null
  let end = primary.next
  if (meta.streamCount === 3) {
    const vertices = readStream(bytes, end, ['mesh_vertices'])
    const indicesStream = readStream(bytes, vertices.next, ['mesh_indices'])
    const indices = indicesStream.values[
      indicesStream.schema.fields.findIndex((field) => field.name === MESH_INDEX_COLUMN)
    ] as Uint32Array
    if (indices.length % 3 !== 0) {
      throw new OutputFormatError('corrupt', 'The mesh index count is not a multiple of 3.')
    }
    for (let index = 0; index < indices.length; index++) {
      if (indices[index]! >= vertices.rowCount) {
        throw new OutputFormatError('corrupt', 'A mesh index points past the last vertex.')
      }
    }
    mesh = {
      ...toColumnTable(vertices),
      vertexCount: vertices.rowCount,
      triangleCount: indices.length / 3,
      indices,
    }
    end = indicesStream.next
  }
  if (end !== bytes.length) {
    throw new OutputFormatError('corrupt', 'The object bytes continue after their last stream.')
  }
  const mask =
    primary.part === 'mask'
      ? (primary.values[
          primary.schema.fields.findIndex((field) => field.name === MASK_COLUMN)
        ] as Uint8Array)
      : null
  return { meta, ...toColumnTable(primary), mask, mesh }
}

/**
 * Reads one object's bytes (a bundle entry, or a stream file): its metadata, its Float32 columns
 * as views over `bytes` with their ranges and units, a mask's `inside` column, and its mesh.
 * Throws {@link OutputFormatError}: `truncated`, `corrupt`, `unsupported_version`,
 * `invalid_metadata`, `missing_column`, `wrong_column_type`.
 */
export function readObjectStream(bytes: Uint8Array): ObjectView {
  try {
    return readObjectUnchecked(alignBytes(bytes))
  } catch (error) {
    return rethrowAsFormatError(error)
  }
}

/**
 * Splits a bundle into its entries. Each entry's `bytes` is a view into the bundle (no copy; an
 * input not 8-byte aligned in its buffer is copied once first). Throws {@link OutputFormatError}:
 * `bad_magic`, `unsupported_version`, `truncated`, `corrupt`.
 */
export function readBundle(bytes: Uint8Array): BundleEntry[] {
  try {
    const aligned = alignBytes(bytes)
    return decodeBundleHeader(aligned).entries.map((entry) => ({
      ...entry,
      bytes: aligned.subarray(entry.byteOffset, entry.byteOffset + entry.byteLength),
    }))
  } catch (error) {
    return rethrowAsFormatError(error)
  }
}
