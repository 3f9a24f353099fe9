import { open, type FileHandle } from 'node:fs/promises'
import { readRecordBatchMessage, readSchemaMessage } from '../../../domain/output/arrowIpc.ts'
import {
  FORMAT_VERSION,
  OutputFormatError,
  parseFormatVersion,
  SCHEMA_METADATA_KEYS,
} from '../../../domain/outputFormat.ts'
import type { BufferPool } from './outputReader.ts'

/*
 * Only the columns a statistic needs, read from an object file (docs/output-format.md: one Arrow
 * stream per part, the particles first, one record batch): the schema and record-batch messages at
 * the file's start tell where each column lies, and just those byte ranges are read, into a pooled
 * buffer of the file's size at their own offsets (so the reader's views line up). A pressure
 * statistic over a 1M-particle fluid reads 4 MB of a 40 MB file. The other bytes of the buffer are
 * left as they were and never exposed: only the columns read are returned.
 */

/** Bytes read first: the schema and record-batch messages of a particles stream fit in far less. */
const HEAD_BYTES = 64 * 1024

/** An object's needed Float32 columns, in a pooled buffer; `release` gives the buffer back. */
export interface PooledColumns {
  rowCount: number
  columns: Record<string, Float32Array>
  /** Bytes read from the file. */
  bytesRead: number
  release(): void
}

async function readRange(
  handle: FileHandle,
  target: Buffer,
  start: number,
  end: number,
  path: string,
): Promise<void> {
  let position = start
  while (position < end) {
    const { bytesRead } = await handle.read(target, position, end - position, position)
    if (bytesRead === 0) throw new OutputFormatError('truncated', `${path} ends early.`)
    position += bytesRead
  }
}

/** The end of the Arrow message at `position` (continuation marker, length, metadata). */
function messageMetadataEnd(bytes: Uint8Array, position: number): number {
  if (position + 8 > bytes.length) return position + 8
  const view = new DataView(bytes.buffer, bytes.byteOffset + position, 8)
  return position + 8 + Math.max(0, view.getInt32(4, true))
}

/**
 * Reads the Float32 columns `names` (those the particles stream has; others are left out) of the
 * object file at `path`. Throws OutputFormatError for a file that is not a readable particles
 * stream of a supported version, and I/O errors as they are.
 */
export async function readObjectColumns(
  path: string,
  names: readonly string[],
  pool: BufferPool,
): Promise<PooledColumns> {
  const handle = await open(path, 'r')
  let buffer: Buffer | null = null
  try {
    const { size } = await handle.stat()
    buffer = pool.take(size)
    const bytes = buffer.subarray(0, size)
    let head = Math.min(size, HEAD_BYTES)
    await readRange(handle, buffer, 0, head, path)
    let bytesRead = head
    const readHeadTo = async (end: number) => {
      if (end <= head) return
      const to = Math.min(size, end)
      await readRange(handle, buffer!, head, to, path)
      bytesRead += to - head
      head = to
    }
    await readHeadTo(messageMetadataEnd(bytes, 0))
    const { schema, next } = readSchemaMessage(bytes, 0)
    const versionText = schema.metadata.get(SCHEMA_METADATA_KEYS.formatVersion)
    const version = versionText === undefined ? null : parseFormatVersion(versionText)
    if (version === null || version.major < 1 || version.major > FORMAT_VERSION)
      throw new OutputFormatError('unsupported_version', `${path} has no supported version.`)
    if (schema.metadata.get(SCHEMA_METADATA_KEYS.part) !== 'particles')
      throw new OutputFormatError('corrupt', `${path} does not start with particles.`)
    await readHeadTo(messageMetadataEnd(bytes, next))
    // Views over the whole buffer; only the ones read below are handed out.
    const batch = readRecordBatchMessage(bytes, next, schema)
    const columns = Object.create(null) as Record<string, Float32Array>
    const ranges: { start: number; end: number }[] = []
    for (const name of new Set(names)) {
      const index = schema.fields.findIndex((field) => field.name === name)
      const values = batch.columns[index]
      if (index < 0 || !(values instanceof Float32Array)) continue
      const start = values.byteOffset - bytes.byteOffset
      ranges.push({ start, end: start + values.byteLength })
      columns[name] = values
    }
    ranges.sort((a, b) => a.start - b.start)
    for (const range of ranges) {
      const start = Math.max(range.start, head)
      if (range.end <= start) continue
      await readRange(handle, buffer, start, range.end, path)
      bytesRead += range.end - start
      if (range.start <= head) head = range.end
    }
    const owned = buffer
    buffer = null
    let released = false
    return {
      rowCount: batch.rowCount,
      columns,
      bytesRead,
      release: () => {
        if (released) return
        released = true
        pool.give(owned)
      },
    }
  } finally {
    if (buffer) pool.give(buffer)
    await handle.close()
  }
}
