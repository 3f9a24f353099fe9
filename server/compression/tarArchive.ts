/*
 * A POSIX tar stream (ustar headers, a pax 'path' record for names over 100 bytes), to be gzipped
 * by node:zlib. Entries are regular files whose sizes are known before they stream (the header
 * carries the size), read lazily so large outputs never sit in memory.
 */

const BLOCK = 512
const NAME_BYTES = 100
/** Largest size the 11 octal digits of a ustar header hold (8 GiB − 1). */
const MAX_OCTAL_SIZE = 0o77777777777

/** One file of the archive. */
export interface TarSource {
  name: string
  sizeBytes: number
  /** The file's bytes; must yield exactly sizeBytes. */
  chunks: () => AsyncIterable<Uint8Array>
}

function writeOctal(header: Buffer, value: number, offset: number, length: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii')
}

/** A size field: octal, or base-256 (GNU/POSIX extension) above 8 GiB. */
function writeSize(header: Buffer, size: number): void {
  if (size <= MAX_OCTAL_SIZE) {
    writeOctal(header, size, 124, 12)
    return
  }
  header[124] = 0x80
  let rest = BigInt(size)
  for (let i = 135; i > 124; i--) {
    header[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
}

function header(name: Buffer, size: number, type: '0' | 'x', mtimeS: number): Buffer {
  const block = Buffer.alloc(BLOCK)
  name.copy(block, 0, 0, Math.min(name.length, NAME_BYTES))
  writeOctal(block, 0o644, 100, 8)
  writeOctal(block, 0, 108, 8)
  writeOctal(block, 0, 116, 8)
  writeSize(block, size)
  writeOctal(block, mtimeS, 136, 12)
  block.write(type, 156, 1, 'ascii')
  block.write('ustar\0', 257, 6, 'ascii')
  block.write('00', 263, 2, 'ascii')
  // The checksum is computed with its own field read as spaces.
  block.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii')
  return block
}

/** A pax extended header record: "<length> path=<name>\n", the length counting itself. */
function paxPathRecord(name: string): Buffer {
  const body = ` path=${name}\n`
  const bodyBytes = Buffer.byteLength(body, 'utf8')
  let length = bodyBytes + 1
  while (String(length).length + bodyBytes !== length) length = String(length).length + bodyBytes
  return Buffer.from(`${length}${body}`, 'utf8')
}

function padding(size: number): Buffer {
  const rest = size % BLOCK
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest)
}

/** Bytes of the tar stream tarStream writes for these entries (for progress and tests). */
export function tarSizeBytes(entries: readonly { name: string; sizeBytes: number }[]): number {
  let total = 2 * BLOCK
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    if (name.length > NAME_BYTES) {
      const record = paxPathRecord(entry.name).length
      total += BLOCK + record + padding(record).length
    }
    total += BLOCK + entry.sizeBytes + padding(entry.sizeBytes).length
  }
  return total
}

/** Streams the tar archive of the sources, in order; `mtimeS` stamps every entry. */
export async function* tarStream(
  sources: Iterable<TarSource>,
  mtimeS: number,
): AsyncGenerator<Uint8Array> {
  for (const source of sources) {
    const name = Buffer.from(source.name, 'utf8')
    if (name.length > NAME_BYTES) {
      const record = paxPathRecord(source.name)
      yield header(Buffer.from('PaxHeader', 'ascii'), record.length, 'x', mtimeS)
      yield record
      yield padding(record.length)
    }
    yield header(name, source.sizeBytes, '0', mtimeS)
    let written = 0
    for await (const chunk of source.chunks()) {
      written += chunk.length
      if (written > source.sizeBytes) throw new Error(`${source.name} grew while it was archived`)
      yield chunk
    }
    if (written !== source.sizeBytes) throw new Error(`${source.name} shrank while it was archived`)
    yield padding(source.sizeBytes)
  }
  yield Buffer.alloc(2 * BLOCK)
}
