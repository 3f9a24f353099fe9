import { createReadStream } from 'node:fs'
import { writeZip, type ZipSource } from '../files/zip.ts'

/*
 * The all-files archive of an export: its entries are the export's files on disk, zipped (stored)
 * while they stream (server/files/zip.ts), so the archive takes no disk space of its own.
 */

/** Bytes zip.ts writes around each entry: local header + ZIP64 extra, data descriptor, central header + extra. */
const ENTRY_OVERHEAD_BYTES = 30 + 20 + 24 + 46 + 28
/** ZIP64 end record, its locator and the classic end record. */
const END_BYTES = 56 + 20 + 22

/** The size of the stored ZIP64 archive writeZip produces for these entries. */
export function storedZipSizeBytes(
  entries: readonly { name: string; sizeBytes: number }[],
): number {
  return entries.reduce(
    (sum, entry) =>
      sum + ENTRY_OVERHEAD_BYTES + 2 * Buffer.byteLength(entry.name, 'utf8') + entry.sizeBytes,
    END_BYTES,
  )
}

/** Streams the archive of these files, in order. */
export function streamArchive(
  entries: readonly { name: string; path: string }[],
): AsyncGenerator<Uint8Array> {
  const sources: ZipSource[] = entries.map((entry) => ({
    name: entry.name,
    chunks: () =>
      createReadStream(entry.path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Uint8Array>,
  }))
  return writeZip(sources)
}
