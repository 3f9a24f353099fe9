/**
 * A small, bounds-checked reader of the Arrow IPC stream format, limited to what the output format
 * uses: primitive, non-null columns (Float32, Uint8, Uint32) in one uncompressed record batch.
 *
 * Why not apache-arrow's tableFromIPC: on corrupt bytes it trusts flatbuffer lengths and can loop
 * or allocate without bound (a single flipped byte ran a Node process out of memory). Here every
 * offset and length is checked against the bytes before use, loops are bounded by the metadata
 * size, and column values are returned as views over the input, never copied.
 * Layout reference: https://arrow.apache.org/docs/format/Columnar.html#serialization-and-ipc
 */
import { OutputFormatError } from '../outputFormat.ts'

/** Column types of the output format. */
export type ColumnType = 'float32' | 'uint8' | 'uint32'
/** A column's values, viewed in place. */
export type ColumnValues = Float32Array | Uint8Array | Uint32Array

const BYTES_PER_ELEMENT: Record<ColumnType, number> = { float32: 4, uint8: 1, uint32: 4 }

/** One field of a schema message. */
export interface IpcField {
  name: string
  /** One of our column types, or null for any other Arrow type. */
  type: ColumnType | null
  /** Arrow's name for the type, for error messages (e.g. `Float64`, `Utf8`). */
  typeName: string
  metadata: Map<string, string>
}

/** A decoded schema message. */
export interface IpcSchema {
  fields: IpcField[]
  metadata: Map<string, string>
}

const CONTINUATION = 0xffffffff
// Union tags of Message.header (Message.fbs) and Field.type (Schema.fbs).
const HEADER_SCHEMA = 1
const HEADER_RECORD_BATCH = 3
const TYPE_INT = 2
const TYPE_FLOATING_POINT = 3
const PRECISION_SINGLE = 1
const TYPE_NAMES = [
  'NONE',
  'Null',
  'Int',
  'FloatingPoint',
  'Binary',
  'Utf8',
  'Bool',
  'Decimal',
  'Date',
  'Time',
  'Timestamp',
  'Interval',
  'List',
  'Struct',
  'Union',
  'FixedSizeBinary',
  'FixedSizeList',
  'Map',
  'Duration',
  'LargeBinary',
  'LargeUtf8',
  'LargeList',
  'RunEndEncoded',
  'BinaryView',
  'Utf8View',
  'ListView',
  'LargeListView',
]
// MetadataVersion V4 (3) and V5 (4) share the layout read here.
const MIN_METADATA_VERSION = 3
const MAX_METADATA_VERSION = 4

function corrupt(message: string): OutputFormatError {
  return new OutputFormatError('corrupt', message)
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Checked reads of one flatbuffer (a message's metadata block). */
class FlatBuffer {
  #bytes: Uint8Array
  #view: DataView

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  #check(position: number, size: number): void {
    if (position < 0 || position + size > this.#bytes.length) {
      throw corrupt('An Arrow metadata offset points outside its message.')
    }
  }

  uint8(position: number): number {
    this.#check(position, 1)
    return this.#view.getUint8(position)
  }

  int16(position: number): number {
    this.#check(position, 2)
    return this.#view.getInt16(position, true)
  }

  uint16(position: number): number {
    this.#check(position, 2)
    return this.#view.getUint16(position, true)
  }

  int32(position: number): number {
    this.#check(position, 4)
    return this.#view.getInt32(position, true)
  }

  uint32(position: number): number {
    this.#check(position, 4)
    return this.#view.getUint32(position, true)
  }

  /** A non-negative int64 that fits a double exactly. */
  int64(position: number): number {
    this.#check(position, 8)
    const low = this.#view.getUint32(position, true)
    const high = this.#view.getInt32(position + 4, true)
    if (high < 0 || high >= 1 << 21) throw corrupt('An Arrow length is negative or too large.')
    return high * 2 ** 32 + low
  }

  /** Position of the root table. */
  root(): number {
    return this.uint32(0)
  }

  /** Position of field `index` of the table at `table`, or null when the field is absent. */
  field(table: number, index: number): number | null {
    const vtable = table - this.int32(table)
    const vtableSize = this.uint16(vtable)
    if (vtableSize < 4 || vtableSize % 2 !== 0) throw corrupt('An Arrow vtable is malformed.')
    this.#check(vtable, vtableSize)
    const entry = 4 + 2 * index
    if (entry + 2 > vtableSize) return null
    const offset = this.uint16(vtable + entry)
    return offset === 0 ? null : table + offset
  }

  /** Follows the uoffset stored at `position`. */
  indirect(position: number): number {
    return position + this.uint32(position)
  }

  /** Start and length of the vector referenced at `position`, elements `size` bytes each. */
  vector(position: number, size: number): { start: number; length: number } {
    const vector = this.indirect(position)
    const length = this.uint32(vector)
    this.#check(vector + 4, length * size)
    return { start: vector + 4, length }
  }

  string(position: number): string {
    const { start, length } = this.vector(position, 1)
    try {
      return utf8.decode(this.#bytes.subarray(start, start + length))
    } catch {
      throw corrupt('An Arrow metadata string is not UTF-8.')
    }
  }

  /** Table field read as a scalar, with the schema's default when absent. */
  scalarField(
    table: number,
    index: number,
    read: 'uint8' | 'int16' | 'int32' | 'int64',
    fallback: number,
  ): number {
    const position = this.field(table, index)
    return position === null ? fallback : this[read](position)
  }
}

/** Reads a KeyValue vector (custom_metadata) into a map. */
function readKeyValues(buffer: FlatBuffer, position: number | null): Map<string, string> {
  const metadata = new Map<string, string>()
  if (position === null) return metadata
  const { start, length } = buffer.vector(position, 4)
  for (let index = 0; index < length; index++) {
    const entry = buffer.indirect(start + 4 * index)
    const key = buffer.field(entry, 0)
    const value = buffer.field(entry, 1)
    metadata.set(key === null ? '' : buffer.string(key), value === null ? '' : buffer.string(value))
  }
  return metadata
}

type Frame =
  | { kind: 'end'; next: number }
  | {
      kind: 'message'
      buffer: FlatBuffer
      headerType: number
      header: number
      bodyStart: number
      bodyLength: number
      next: number
    }

/** Reads the message (or end-of-stream marker) starting at `position`. */
function readFrame(bytes: Uint8Array, position: number): Frame {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (position + 8 > bytes.length) {
    throw new OutputFormatError('truncated', 'The Arrow stream ends before its end marker.')
  }
  if (view.getUint32(position, true) !== CONTINUATION) {
    throw corrupt('An Arrow message does not start with the continuation marker.')
  }
  const metadataLength = view.getInt32(position + 4, true)
  if (metadataLength === 0) return { kind: 'end', next: position + 8 }
  if (metadataLength < 0 || metadataLength % 8 !== 0) {
    throw corrupt('An Arrow message has an invalid metadata length.')
  }
  const metadataStart = position + 8
  if (metadataStart + metadataLength > bytes.length) {
    throw new OutputFormatError('truncated', 'The Arrow stream ends inside a message.')
  }
  const buffer = new FlatBuffer(bytes.subarray(metadataStart, metadataStart + metadataLength))
  const message = buffer.root()
  const version = buffer.scalarField(message, 0, 'int16', 0)
  if (version < MIN_METADATA_VERSION || version > MAX_METADATA_VERSION) {
    throw corrupt(`Arrow metadata version ${version} is not supported.`)
  }
  const headerType = buffer.scalarField(message, 1, 'uint8', 0)
  const headerPosition = buffer.field(message, 2)
  if (headerPosition === null) throw corrupt('An Arrow message has no header.')
  const bodyLength = buffer.scalarField(message, 3, 'int64', 0)
  if (bodyLength % 8 !== 0) throw corrupt('An Arrow message body is not padded to 8 bytes.')
  const bodyStart = metadataStart + metadataLength
  if (bodyStart + bodyLength > bytes.length) {
    throw new OutputFormatError('truncated', 'The Arrow stream ends inside a message body.')
  }
  return {
    kind: 'message',
    buffer,
    headerType,
    header: buffer.indirect(headerPosition),
    bodyStart,
    bodyLength,
    next: bodyStart + bodyLength,
  }
}

function readFieldType(
  buffer: FlatBuffer,
  field: number,
): { type: ColumnType | null; name: string } {
  const typeTag = buffer.scalarField(field, 2, 'uint8', 0)
  const typePosition = buffer.field(field, 3)
  const table = typePosition === null ? null : buffer.indirect(typePosition)
  if (typeTag === TYPE_FLOATING_POINT && table !== null) {
    const precision = buffer.scalarField(table, 0, 'int16', 0)
    if (precision === PRECISION_SINGLE) return { type: 'float32', name: 'Float32' }
    return { type: null, name: precision === 2 ? 'Float64' : 'Float16' }
  }
  if (typeTag === TYPE_INT && table !== null) {
    const bitWidth = buffer.scalarField(table, 0, 'int32', 0)
    const signed = buffer.scalarField(table, 1, 'uint8', 0) !== 0
    const name = `${signed ? 'Int' : 'Uint'}${bitWidth}`
    if (!signed && bitWidth === 8) return { type: 'uint8', name }
    if (!signed && bitWidth === 32) return { type: 'uint32', name }
    return { type: null, name }
  }
  return { type: null, name: TYPE_NAMES[typeTag] ?? `type ${typeTag}` }
}

/**
 * Reads the schema message at `position` (the start of a stream). Fields with dictionaries or
 * children are `corrupt` here: the format has neither.
 */
export function readSchemaMessage(
  bytes: Uint8Array,
  position: number,
): { schema: IpcSchema; next: number } {
  const frame = readFrame(bytes, position)
  if (frame.kind === 'end' || frame.headerType !== HEADER_SCHEMA) {
    throw corrupt('An Arrow stream does not start with a schema.')
  }
  const { buffer, header } = frame
  if (buffer.scalarField(header, 0, 'int16', 0) !== 0) {
    throw corrupt('Big-endian Arrow streams are not supported.')
  }
  const fields: IpcField[] = []
  const fieldsPosition = buffer.field(header, 1)
  if (fieldsPosition !== null) {
    const { start, length } = buffer.vector(fieldsPosition, 4)
    for (let index = 0; index < length; index++) {
      const field = buffer.indirect(start + 4 * index)
      const namePosition = buffer.field(field, 0)
      if (buffer.field(field, 4) !== null) throw corrupt('Dictionary-encoded columns are not used.')
      const children = buffer.field(field, 5)
      if (children !== null && buffer.vector(children, 4).length > 0) {
        throw corrupt('Nested columns are not used.')
      }
      const { type, name: typeName } = readFieldType(buffer, field)
      fields.push({
        name: namePosition === null ? '' : buffer.string(namePosition),
        type,
        typeName,
        metadata: readKeyValues(buffer, buffer.field(field, 6)),
      })
    }
  }
  return {
    schema: { fields, metadata: readKeyValues(buffer, buffer.field(header, 2)) },
    next: frame.next,
  }
}

/**
 * Reads the one record batch that follows the schema, returning each column as a view over
 * `bytes`. Every field must already have a column type (callers reject others first). Column
 * values must be aligned to their element size inside `bytes.buffer`.
 */
export function readRecordBatchMessage(
  bytes: Uint8Array,
  position: number,
  schema: IpcSchema,
): { rowCount: number; columns: ColumnValues[]; next: number } {
  const frame = readFrame(bytes, position)
  if (frame.kind === 'end') throw corrupt('An Arrow stream has no record batch.')
  if (frame.headerType !== HEADER_RECORD_BATCH) {
    throw corrupt('An Arrow stream holds a message other than a record batch.')
  }
  const { buffer, header, bodyStart, bodyLength } = frame
  const rowCount = buffer.scalarField(header, 0, 'int64', 0)
  if (buffer.field(header, 3) !== null) throw corrupt('Compressed Arrow bodies are not supported.')
  const nodesPosition = buffer.field(header, 1)
  const buffersPosition = buffer.field(header, 2)
  const nodes = nodesPosition === null ? { start: 0, length: 0 } : buffer.vector(nodesPosition, 16)
  const buffers =
    buffersPosition === null ? { start: 0, length: 0 } : buffer.vector(buffersPosition, 16)
  if (nodes.length !== schema.fields.length || buffers.length !== 2 * schema.fields.length) {
    throw corrupt('An Arrow record batch does not match its schema.')
  }
  const columns: ColumnValues[] = []
  schema.fields.forEach((field, index) => {
    const nodeLength = buffer.int64(nodes.start + 16 * index)
    const nullCount = buffer.int64(nodes.start + 16 * index + 8)
    if (nodeLength !== rowCount) throw corrupt(`Column "${field.name}" has the wrong length.`)
    if (nullCount !== 0) {
      throw new OutputFormatError('wrong_column_type', `Column "${field.name}" holds nulls.`)
    }
    const type = field.type
    if (type === null) throw corrupt(`Column "${field.name}" has an unsupported type.`)
    const valuesEntry = buffers.start + 16 * (2 * index + 1)
    const offset = buffer.int64(valuesEntry)
    const length = buffer.int64(valuesEntry + 8)
    const size = BYTES_PER_ELEMENT[type]
    if (offset + length > bodyLength || length < rowCount * size) {
      throw corrupt(`Column "${field.name}" lies outside its record batch.`)
    }
    const byteOffset = bytes.byteOffset + bodyStart + offset
    if (byteOffset % size !== 0) throw corrupt(`Column "${field.name}" is not aligned.`)
    columns.push(viewColumn(type, bytes.buffer, byteOffset, rowCount))
  })
  return { rowCount, columns, next: frame.next }
}

function viewColumn(
  type: ColumnType,
  buffer: ArrayBufferLike,
  byteOffset: number,
  length: number,
): ColumnValues {
  if (type === 'float32') return new Float32Array(buffer, byteOffset, length)
  if (type === 'uint8') return new Uint8Array(buffer, byteOffset, length)
  return new Uint32Array(buffer, byteOffset, length)
}

/** Reads the end-of-stream marker that must follow the record batch; returns the next position. */
export function readEndOfStream(bytes: Uint8Array, position: number): number {
  const frame = readFrame(bytes, position)
  if (frame.kind !== 'end') throw corrupt('An Arrow stream holds more than one record batch.')
  return frame.next
}
