import { open } from 'node:fs/promises'
import { crc32 } from 'node:zlib'

/*
 * Just enough ZIP for simulation archives: entries are stored (no compression: outputs are Float32
 * columns that barely compress, and storing keeps the download streaming at disk speed), written
 * with data descriptors so each entry's CRC is computed while it streams. ZIP64 is used for every
 * entry so archives of any size open everywhere. The reader only lists the central directory: an
 * uploaded archive is checked, never extracted into the data directory.
 */

const LOCAL_HEADER = 0x04034b50
const DATA_DESCRIPTOR = 0x08074b50
const CENTRAL_HEADER = 0x02014b50
const ZIP64_END = 0x06064b50
const ZIP64_LOCATOR = 0x07064b50
const END_OF_CENTRAL_DIRECTORY = 0x06054b50
/** bit 3: sizes and CRC follow the data; bit 11: names are UTF-8. */
const FLAGS = 0x0808
const VERSION_ZIP64 = 45
const MAX_16 = 0xffff
const MAX_32 = 0xffffffff

/** One file of an archive: its name and its bytes, produced lazily so large files stream. */
export interface ZipSource {
  name: string
  /** Chunks of the file, read when the writer reaches this entry. */
  chunks: () => AsyncIterable<Uint8Array>
}

interface WrittenEntry {
  name: Buffer
  crc: number
  size: number
  offset: number
}

function localHeader(name: Buffer): Buffer {
  const header = Buffer.alloc(30 + name.length + 20)
  header.writeUInt32LE(LOCAL_HEADER, 0)
  header.writeUInt16LE(VERSION_ZIP64, 4)
  header.writeUInt16LE(FLAGS, 6)
  // method 0 (stored), time and date 0; crc and sizes in the data descriptor
  header.writeUInt32LE(MAX_32, 18)
  header.writeUInt32LE(MAX_32, 22)
  header.writeUInt16LE(name.length, 26)
  header.writeUInt16LE(20, 28)
  name.copy(header, 30)
  // ZIP64 extra field with zero sizes: the descriptor carries the real ones
  header.writeUInt16LE(0x0001, 30 + name.length)
  header.writeUInt16LE(16, 32 + name.length)
  return header
}

function dataDescriptor(entry: WrittenEntry): Buffer {
  const descriptor = Buffer.alloc(24)
  descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0)
  descriptor.writeUInt32LE(entry.crc, 4)
  descriptor.writeBigUInt64LE(BigInt(entry.size), 8)
  descriptor.writeBigUInt64LE(BigInt(entry.size), 16)
  return descriptor
}

function centralHeader(entry: WrittenEntry): Buffer {
  const header = Buffer.alloc(46 + entry.name.length + 28)
  header.writeUInt32LE(CENTRAL_HEADER, 0)
  header.writeUInt16LE(VERSION_ZIP64, 4)
  header.writeUInt16LE(VERSION_ZIP64, 6)
  header.writeUInt16LE(FLAGS, 8)
  header.writeUInt32LE(entry.crc, 16)
  header.writeUInt32LE(MAX_32, 20)
  header.writeUInt32LE(MAX_32, 24)
  header.writeUInt16LE(entry.name.length, 28)
  header.writeUInt16LE(28, 30)
  header.writeUInt32LE(MAX_32, 42)
  entry.name.copy(header, 46)
  const extra = 46 + entry.name.length
  header.writeUInt16LE(0x0001, extra)
  header.writeUInt16LE(24, extra + 2)
  header.writeBigUInt64LE(BigInt(entry.size), extra + 4)
  header.writeBigUInt64LE(BigInt(entry.size), extra + 12)
  header.writeBigUInt64LE(BigInt(entry.offset), extra + 20)
  return header
}

function endRecords(count: number, directoryOffset: number, directorySize: number): Buffer {
  const end = Buffer.alloc(56 + 20 + 22)
  end.writeUInt32LE(ZIP64_END, 0)
  end.writeBigUInt64LE(44n, 4)
  end.writeUInt16LE(VERSION_ZIP64, 12)
  end.writeUInt16LE(VERSION_ZIP64, 14)
  end.writeBigUInt64LE(BigInt(count), 24)
  end.writeBigUInt64LE(BigInt(count), 32)
  end.writeBigUInt64LE(BigInt(directorySize), 40)
  end.writeBigUInt64LE(BigInt(directoryOffset), 48)
  end.writeUInt32LE(ZIP64_LOCATOR, 56)
  end.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 64)
  end.writeUInt32LE(1, 72)
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 76)
  end.writeUInt16LE(Math.min(count, MAX_16), 84)
  end.writeUInt16LE(Math.min(count, MAX_16), 86)
  end.writeUInt32LE(MAX_32, 88)
  end.writeUInt32LE(MAX_32, 92)
  return end
}

/** Streams a stored ZIP64 archive of the sources, in order. */
export async function* writeZip(sources: Iterable<ZipSource>): AsyncGenerator<Uint8Array> {
  const entries: WrittenEntry[] = []
  let offset = 0
  for (const source of sources) {
    const name = Buffer.from(source.name, 'utf8')
    const entry: WrittenEntry = { name, crc: 0, size: 0, offset }
    const header = localHeader(name)
    yield header
    offset += header.length
    for await (const chunk of source.chunks()) {
      entry.crc = crc32(chunk, entry.crc)
      entry.size += chunk.length
      offset += chunk.length
      yield chunk
    }
    const descriptor = dataDescriptor(entry)
    yield descriptor
    offset += descriptor.length
    entries.push(entry)
  }
  const directoryOffset = offset
  let directorySize = 0
  for (const entry of entries) {
    const header = centralHeader(entry)
    directorySize += header.length
    yield header
  }
  yield endRecords(entries.length, directoryOffset, directorySize)
}

/** Why an uploaded archive could not be read. */
export class ZipFormatError extends Error {}

/** An entry of an archive's central directory. */
export interface ZipEntryInfo {
  name: string
  size: number
}

function readZip64Extra(
  extra: Buffer,
  needed: { size: boolean; offset: boolean },
): { size?: number; offset?: number } {
  let position = 0
  while (position + 4 <= extra.length) {
    const id = extra.readUInt16LE(position)
    const length = extra.readUInt16LE(position + 2)
    if (id === 0x0001) {
      let field = position + 4
      const out: { size?: number; offset?: number } = {}
      if (needed.size) {
        out.size = Number(extra.readBigUInt64LE(field + 8))
        field += 16
      }
      if (needed.offset) out.offset = Number(extra.readBigUInt64LE(field))
      return out
    }
    position += 4 + length
  }
  return {}
}

interface CentralDirectory {
  count: number
  offset: number
  size: number
}

/** Finds the central directory from the archive's last bytes (`tail` starts at `tailStart`). */
function findCentralDirectory(tail: Buffer, tailStart: number): CentralDirectory {
  let end = -1
  for (let position = tail.length - 22; position >= 0; position--) {
    if (tail.readUInt32LE(position) === END_OF_CENTRAL_DIRECTORY) {
      end = position
      break
    }
  }
  if (end < 0) throw new ZipFormatError('The file is not a ZIP archive.')
  let count = tail.readUInt16LE(end + 10)
  let size = tail.readUInt32LE(end + 12)
  let offset = tail.readUInt32LE(end + 16)
  if (offset === MAX_32 || size === MAX_32 || count === MAX_16) {
    const locator = end - 20
    if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR)
      throw new ZipFormatError('The ZIP archive is damaged.')
    const zip64End = Number(tail.readBigUInt64LE(locator + 8)) - tailStart
    if (zip64End < 0 || zip64End + 56 > tail.length || tail.readUInt32LE(zip64End) !== ZIP64_END)
      throw new ZipFormatError('The ZIP archive is damaged.')
    count = Number(tail.readBigUInt64LE(zip64End + 32))
    size = Number(tail.readBigUInt64LE(zip64End + 40))
    offset = Number(tail.readBigUInt64LE(zip64End + 48))
  }
  return { count, offset, size }
}

function parseCentralDirectory(directory: Buffer, count: number): ZipEntryInfo[] {
  const entries: ZipEntryInfo[] = []
  let position = 0
  for (let index = 0; index < count; index++) {
    if (position + 46 > directory.length || directory.readUInt32LE(position) !== CENTRAL_HEADER)
      throw new ZipFormatError('The ZIP archive is damaged.')
    const nameLength = directory.readUInt16LE(position + 28)
    const extraLength = directory.readUInt16LE(position + 30)
    const commentLength = directory.readUInt16LE(position + 32)
    const next = position + 46 + nameLength + extraLength + commentLength
    if (next > directory.length) throw new ZipFormatError('The ZIP archive is damaged.')
    const nameEnd = position + 46 + nameLength
    const name = directory.toString('utf8', position + 46, nameEnd)
    let size = directory.readUInt32LE(position + 24)
    if (size === MAX_32) {
      const extra = directory.subarray(nameEnd, nameEnd + extraLength)
      size = readZip64Extra(extra, { size: true, offset: false }).size ?? size
    }
    entries.push({ name, size })
    position = next
  }
  return entries
}

/** The most bytes at the end of an archive that can hold its end records (comment included). */
const END_SEARCH_BYTES = MAX_16 + 22 + 20 + 56

/** Lists the files of a ZIP archive in memory; throws ZipFormatError when it is not one. */
export function listZipEntries(archive: Buffer): ZipEntryInfo[] {
  const tailStart = Math.max(0, archive.length - END_SEARCH_BYTES)
  const directory = findCentralDirectory(archive.subarray(tailStart), tailStart)
  if (directory.offset + directory.size > archive.length)
    throw new ZipFormatError('The ZIP archive is damaged.')
  return parseCentralDirectory(
    archive.subarray(directory.offset, directory.offset + directory.size),
    directory.count,
  )
}

/** Lists the files of a ZIP archive on disk, reading only its end: uploads can be gigabytes. */
export async function listZipFileEntries(path: string): Promise<ZipEntryInfo[]> {
  const file = await open(path, 'r')
  try {
    const { size } = await file.stat()
    const tailStart = Math.max(0, size - END_SEARCH_BYTES)
    const tail = Buffer.alloc(size - tailStart)
    await file.read(tail, 0, tail.length, tailStart)
    const directory = findCentralDirectory(tail, tailStart)
    if (directory.offset + directory.size > size)
      throw new ZipFormatError('The ZIP archive is damaged.')
    const bytes = Buffer.alloc(directory.size)
    await file.read(bytes, 0, bytes.length, directory.offset)
    return parseCentralDirectory(bytes, directory.count)
  } finally {
    await file.close()
  }
}
