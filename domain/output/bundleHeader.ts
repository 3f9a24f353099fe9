/** The bundle header codec: the preamble and the entry table before the Arrow streams (docs/output-format.md). */
import {
  FORMAT_MINOR_VERSION,
  FORMAT_VERSION,
  type FormatObjectKind,
  type FormatVersion,
  OutputFormatError,
  formatVersionString,
} from './formatBase.ts'
import type { Dataset } from '../results.ts'

/** The four bytes a bundle starts with. */
export const BUNDLE_MAGIC = 'DIVB'
/** Every payload (and the header's end) starts at a multiple of this, so columns view in place. */
export const BUNDLE_ALIGNMENT = 8
/** Bytes before the first entry: magic, major, minor, entry count, header length. */
export const BUNDLE_PREAMBLE_BYTES = 16
/** Fixed bytes of one entry, before its UTF-8 object id and padding. */
export const BUNDLE_ENTRY_FIXED_BYTES = 24

/** Object kind codes in the bundle header (0 is never valid, so zeroed bytes are caught). */
export const OBJECT_KIND_CODES = {
  fluid: 1,
  wall_boundary: 2,
  open_boundary: 3,
  volume_clip: 4,
} as const satisfies Record<FormatObjectKind, number>

/** Dataset codes in the bundle header. */
export const DATASET_CODES = {
  full: 1,
  fast: 2,
  surface: 3,
  raw: 4,
  static: 5,
} as const satisfies Record<Dataset, number>

/** Where one object's bytes lie in a bundle, and what they are. */
export interface BundleEntryLocation {
  objectId: string
  kind: FormatObjectKind
  dataset: Dataset
  outputNo: number
  /** From the start of the bundle; a multiple of {@link BUNDLE_ALIGNMENT}. */
  byteOffset: number
  byteLength: number
}

/** What a header needs to know about an entry before the offsets are laid out. */
export type BundleEntryDescription = Omit<BundleEntryLocation, 'byteOffset'>

/** A decoded bundle header. */
export interface BundleHeader {
  version: FormatVersion
  /** Bytes of the header; the first payload starts here. */
  headerByteLength: number
  entries: BundleEntryLocation[]
}

/** Rounds up to the bundle alignment. */
export function alignBundleOffset(offset: number): number {
  return Math.ceil(offset / BUNDLE_ALIGNMENT) * BUNDLE_ALIGNMENT
}

const MAX_OBJECT_ID_BYTES = 0xffff

/**
 * Lays out a bundle: the header bytes and each payload's aligned offset. Payloads follow the
 * header in entry order, each padded with zeros to the next multiple of 8. A server can write the
 * header and then stream the payloads without ever concatenating them.
 */
export function encodeBundleHeader(entries: readonly BundleEntryDescription[]): {
  header: Uint8Array
  entries: BundleEntryLocation[]
  totalByteLength: number
} {
  const encoder = new TextEncoder()
  const ids = entries.map((entry) => encoder.encode(entry.objectId))
  let headerByteLength = BUNDLE_PREAMBLE_BYTES
  for (const id of ids) {
    if (id.length > MAX_OBJECT_ID_BYTES) {
      throw new OutputFormatError('invalid_input', 'An object id is longer than 65535 bytes.')
    }
    headerByteLength = alignBundleOffset(headerByteLength + BUNDLE_ENTRY_FIXED_BYTES + id.length)
  }
  const header = new Uint8Array(headerByteLength)
  const view = new DataView(header.buffer)
  header.set(encoder.encode(BUNDLE_MAGIC), 0)
  view.setUint16(4, FORMAT_VERSION, true)
  view.setUint16(6, FORMAT_MINOR_VERSION, true)
  view.setUint32(8, entries.length, true)
  view.setUint32(12, headerByteLength, true)
  const located: BundleEntryLocation[] = []
  let cursor = BUNDLE_PREAMBLE_BYTES
  let payloadOffset = headerByteLength
  entries.forEach((entry, index) => {
    const id = ids[index] ?? new Uint8Array(0)
    if (!Number.isInteger(entry.outputNo) || entry.outputNo < 0 || entry.outputNo > 0xffffffff) {
      throw new OutputFormatError('invalid_input', `Output number ${entry.outputNo} is invalid.`)
    }
    if (!Number.isSafeInteger(entry.byteLength) || entry.byteLength < 0) {
      throw new OutputFormatError('invalid_input', `Byte length ${entry.byteLength} is invalid.`)
    }
    view.setBigUint64(cursor, BigInt(payloadOffset), true)
    view.setBigUint64(cursor + 8, BigInt(entry.byteLength), true)
    view.setUint32(cursor + 16, entry.outputNo, true)
    view.setUint8(cursor + 20, OBJECT_KIND_CODES[entry.kind])
    view.setUint8(cursor + 21, DATASET_CODES[entry.dataset])
    view.setUint16(cursor + 22, id.length, true)
    header.set(id, cursor + BUNDLE_ENTRY_FIXED_BYTES)
    cursor = alignBundleOffset(cursor + BUNDLE_ENTRY_FIXED_BYTES + id.length)
    located.push({ ...entry, byteOffset: payloadOffset })
    payloadOffset = alignBundleOffset(payloadOffset + entry.byteLength)
  })
  const last = located.at(-1)
  const totalByteLength = last ? last.byteOffset + last.byteLength : headerByteLength
  return { header, entries: located, totalByteLength }
}

function codeToName<T extends string>(codes: Record<T, number>, code: number): T | null {
  for (const [name, value] of Object.entries(codes) as [T, number][]) {
    if (value === code) return name
  }
  return null
}

/**
 * Decodes and checks a bundle header: magic, major version, entry table, and that every payload is
 * aligned and lies inside `bytes`. Throws {@link OutputFormatError} (`bad_magic`,
 * `unsupported_version`, `truncated`, `corrupt`) and nothing else.
 */
export function decodeBundleHeader(bytes: Uint8Array): BundleHeader {
  if (bytes.length < 4) {
    throw new OutputFormatError('truncated', 'The bundle is shorter than its magic number.')
  }
  const magic = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0)
  if (magic !== BUNDLE_MAGIC) {
    throw new OutputFormatError('bad_magic', 'The bytes are not a Dive output bundle (no DIVB).')
  }
  if (bytes.length < BUNDLE_PREAMBLE_BYTES) {
    throw new OutputFormatError('truncated', 'The bundle ends inside its header.')
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = { major: view.getUint16(4, true), minor: view.getUint16(6, true) }
  if (version.major > FORMAT_VERSION || version.major < 1) {
    throw new OutputFormatError(
      'unsupported_version',
      `Bundle format ${formatVersionString(version)} is not supported (this reader knows ${FORMAT_VERSION}.x).`,
    )
  }
  const count = view.getUint32(8, true)
  const headerByteLength = view.getUint32(12, true)
  if (headerByteLength % BUNDLE_ALIGNMENT !== 0 || headerByteLength < BUNDLE_PREAMBLE_BYTES) {
    throw new OutputFormatError('corrupt', 'The bundle header length is invalid.')
  }
  if (count > (headerByteLength - BUNDLE_PREAMBLE_BYTES) / BUNDLE_ENTRY_FIXED_BYTES) {
    throw new OutputFormatError('corrupt', 'The bundle lists more entries than its header holds.')
  }
  if (headerByteLength > bytes.length) {
    throw new OutputFormatError('truncated', 'The bundle ends inside its header.')
  }
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const entries: BundleEntryLocation[] = []
  let cursor = BUNDLE_PREAMBLE_BYTES
  for (let index = 0; index < count; index++) {
    if (cursor + BUNDLE_ENTRY_FIXED_BYTES > headerByteLength) {
      throw new OutputFormatError('corrupt', 'The bundle entry table overruns its header.')
    }
    const byteOffset = view.getBigUint64(cursor, true)
    const byteLength = view.getBigUint64(cursor + 8, true)
    const outputNo = view.getUint32(cursor + 16, true)
    const kind = codeToName(OBJECT_KIND_CODES, view.getUint8(cursor + 20))
    const dataset = codeToName(DATASET_CODES, view.getUint8(cursor + 21))
    const idLength = view.getUint16(cursor + 22, true)
    const idStart = cursor + BUNDLE_ENTRY_FIXED_BYTES
    if (idStart + idLength > headerByteLength) {
      throw new OutputFormatError('corrupt', 'A bundle object id overruns the header.')
    }
    if (kind === null || dataset === null) {
      throw new OutputFormatError(
        'corrupt',
        `Bundle entry ${index} has an unknown kind or dataset.`,
      )
    }
    if (byteOffset % BigInt(BUNDLE_ALIGNMENT) !== 0n || byteOffset < BigInt(headerByteLength)) {
      throw new OutputFormatError('corrupt', `Bundle entry ${index} is not 8-byte aligned.`)
    }
    if (byteOffset + byteLength > BigInt(bytes.length)) {
      throw new OutputFormatError('truncated', `Bundle entry ${index} runs past the end.`)
    }
    let objectId: string
    try {
      objectId = decoder.decode(bytes.subarray(idStart, idStart + idLength))
    } catch {
      throw new OutputFormatError('corrupt', `Bundle entry ${index} has an invalid object id.`)
    }
    entries.push({
      objectId,
      kind,
      dataset,
      outputNo,
      byteOffset: Number(byteOffset),
      byteLength: Number(byteLength),
    })
    cursor = alignBundleOffset(idStart + idLength)
  }
  return { version, headerByteLength, entries }
}
