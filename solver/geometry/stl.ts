/**
 * STL reading: binary and ASCII (told apart by content, not by the leading "solid", which many
 * binary exporters also write), unit conversion to metres and exact vertex welding.
 */
import type { TriangleMesh } from './mesh.ts'

/** Length units an STL upload may be in. */
export const STL_UNITS = ['m', 'mm', 'in'] as const
/** One STL length unit. */
export type StlUnit = (typeof STL_UNITS)[number]

/** Metres per unit. */
export const METRES_PER_STL_UNIT: Record<StlUnit, number> = { m: 1, mm: 0.001, in: 0.0254 }

/** Why an STL could not be read. */
export const STL_ERROR_CODES = ['empty', 'truncated', 'invalid_number', 'not_stl'] as const
export type StlErrorCode = (typeof STL_ERROR_CODES)[number]

/** An STL that cannot be read; `message` is shown to the person who uploaded it. */
export class StlError extends Error {
  override name = 'StlError'
  readonly code: StlErrorCode
  constructor(code: StlErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

export const STL_MESSAGES = {
  empty: 'The STL file is empty.',
  noTriangles: 'The STL file contains no triangles.',
  truncated: (expected: number, found: number) =>
    `The STL file is truncated: its header announces ${expected} triangles but only ${found} are present.`,
  truncatedAscii: 'The STL file is truncated: it ends inside a facet.',
  invalidNumber: (triangle: number) =>
    `The STL file has an invalid coordinate (not a finite number) in triangle ${triangle}.`,
  notStl: 'The file is not an STL file (neither binary nor ASCII STL).',
  badFacet: (facet: number) =>
    `The STL file is malformed: facet ${facet} does not have 3 vertices.`,
} as const

const BINARY_HEADER_BYTES = 84
const BINARY_TRIANGLE_BYTES = 50

function looksLikeAsciiStl(bytes: Uint8Array): boolean {
  let i = 0
  while (i < bytes.length && (bytes[i] === 0x20 || (bytes[i]! >= 0x09 && bytes[i]! <= 0x0d))) i++
  const head = String.fromCharCode(...bytes.subarray(i, i + 5)).toLowerCase()
  if (head !== 'solid') return false
  // A binary header may start with "solid" too: ASCII STL is printable text throughout.
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096))
  for (const byte of sample)
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f) return false
  return true
}

/** Welds identical vertices (after conversion to Float32, −0 equal to 0) with a hash table. */
function weldVertices(raw: Float32Array): TriangleMesh {
  const vertexCount = raw.length / 3
  for (let i = 0; i < raw.length; i++) raw[i] = raw[i]! + 0 // −0 → 0
  const bits = new Uint32Array(raw.buffer, raw.byteOffset, raw.length)
  let size = 1
  while (size < vertexCount * 2) size *= 2
  const mask = size - 1
  const table = new Int32Array(size).fill(-1)
  const positions = new Float32Array(raw.length)
  const positionBits = new Uint32Array(positions.buffer)
  const remap = new Uint32Array(vertexCount)
  let unique = 0
  for (let v = 0; v < vertexCount; v++) {
    const x = bits[v * 3]!
    const y = bits[v * 3 + 1]!
    const z = bits[v * 3 + 2]!
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)
    h = (h ^ (h >>> 15)) & mask
    for (;;) {
      const slot = table[h]!
      if (slot < 0) {
        table[h] = unique
        positions[unique * 3] = raw[v * 3]!
        positions[unique * 3 + 1] = raw[v * 3 + 1]!
        positions[unique * 3 + 2] = raw[v * 3 + 2]!
        remap[v] = unique++
        break
      }
      if (
        positionBits[slot * 3] === x &&
        positionBits[slot * 3 + 1] === y &&
        positionBits[slot * 3 + 2] === z
      ) {
        remap[v] = slot
        break
      }
      h = (h + 1) & mask
    }
  }
  // Triangles that collapse to an edge or a point after welding carry no surface: drop them.
  const indices = new Uint32Array(vertexCount)
  let kept = 0
  for (let t = 0; t + 2 < vertexCount; t += 3) {
    const a = remap[t]!
    const b = remap[t + 1]!
    const c = remap[t + 2]!
    if (a === b || b === c || a === c) continue
    indices[kept++] = a
    indices[kept++] = b
    indices[kept++] = c
  }
  return { positions: positions.slice(0, unique * 3), indices: indices.slice(0, kept) }
}

function parseBinary(bytes: Uint8Array, scale: number): Float32Array {
  if (bytes.length < BINARY_HEADER_BYTES) throw new StlError('not_stl', STL_MESSAGES.notStl)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let count = view.getUint32(80, true)
  // some exporters leave the count at 0: trust the size when it is a whole number of triangles
  const sizeCount = (bytes.length - BINARY_HEADER_BYTES) / BINARY_TRIANGLE_BYTES
  if (count === 0 && Number.isInteger(sizeCount)) count = sizeCount
  if (count === 0) throw new StlError('empty', STL_MESSAGES.noTriangles)
  const present = Math.floor((bytes.length - BINARY_HEADER_BYTES) / BINARY_TRIANGLE_BYTES)
  if (present < count) {
    // A header announcing far more than the file could hold is no STL at all.
    if (present < count / 2 || present === 0) throw new StlError('not_stl', STL_MESSAGES.notStl)
    throw new StlError('truncated', STL_MESSAGES.truncated(count, present))
  }
  const raw = new Float32Array(count * 9)
  for (let t = 0; t < count; t++) {
    const base = BINARY_HEADER_BYTES + t * BINARY_TRIANGLE_BYTES + 12
    for (let k = 0; k < 9; k++) {
      const value = view.getFloat32(base + k * 4, true)
      if (!Number.isFinite(value))
        throw new StlError('invalid_number', STL_MESSAGES.invalidNumber(t + 1))
      raw[t * 9 + k] = value * scale
    }
  }
  return raw
}

const isSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d)

/** Whether the token bytes[start, end) is `word` (lower-case ASCII), ignoring case. */
function tokenIs(bytes: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false
  for (let i = 0; i < word.length; i++)
    if ((bytes[start + i]! | 0x20) !== word.charCodeAt(i)) return false
  return true
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i)

/**
 * A decimal number from bytes[start, end) without building a string: digits into an exact integer
 * mantissa (exact up to 2^53), then one correctly rounded multiplication or division by an exact
 * power of ten. Anything else (inf, nan, long mantissas, huge exponents) goes through Number().
 */
function parseDecimal(bytes: Uint8Array, start: number, end: number): number {
  let i = start
  let sign = 1
  if (bytes[i] === 0x2d) {
    sign = -1
    i++
  } else if (bytes[i] === 0x2b) i++
  let mantissa = 0
  let digits = 0
  let exponent = 0
  let code = bytes[i]!
  while (i < end && code >= 0x30 && code <= 0x39) {
    mantissa = mantissa * 10 + (code - 0x30)
    digits++
    code = bytes[++i]!
  }
  if (i < end && code === 0x2e) {
    code = bytes[++i]!
    while (i < end && code >= 0x30 && code <= 0x39) {
      mantissa = mantissa * 10 + (code - 0x30)
      digits++
      exponent--
      code = bytes[++i]!
    }
  }
  if (i < end && (code | 0x20) === 0x65) {
    let exponentSign = 1
    code = bytes[++i]!
    if (code === 0x2d || code === 0x2b) {
      exponentSign = code === 0x2d ? -1 : 1
      code = bytes[++i]!
    }
    let value = 0
    let exponentDigits = 0
    while (i < end && code >= 0x30 && code <= 0x39) {
      value = value * 10 + (code - 0x30)
      exponentDigits++
      code = bytes[++i]!
    }
    if (exponentDigits === 0) digits = 0
    exponent += exponentSign * value
  }
  if (i !== end || digits === 0 || mantissa > Number.MAX_SAFE_INTEGER || Math.abs(exponent) > 22)
    return Number(String.fromCharCode(...bytes.subarray(start, end)))
  const magnitude =
    exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent]! : mantissa / POWERS_OF_TEN[-exponent]!
  return sign * magnitude
}

/** ASCII STL, scanned byte by byte: only 'facet', 'vertex' and 'endfacet' matter. */
function parseAscii(bytes: Uint8Array, scale: number): Float32Array {
  let values = new Float32Array(1 << 12)
  let count = 0
  let facet = 0
  let inFacet = false
  let facetVertices = 0
  let position = 0
  const length = bytes.length
  const nextToken = (): [number, number] | null => {
    while (position < length && isSpace(bytes[position]!)) position++
    if (position >= length) return null
    const start = position
    while (position < length && !isSpace(bytes[position]!)) position++
    return [start, position]
  }
  for (let token = nextToken(); token; token = nextToken()) {
    const [start, end] = token
    const first = bytes[start]! | 0x20
    if (first === 0x66 /* f */ && tokenIs(bytes, start, end, 'facet')) {
      if (inFacet) throw new StlError('not_stl', STL_MESSAGES.badFacet(facet))
      inFacet = true
      facet++
      facetVertices = 0
    } else if (first === 0x65 /* e */ && tokenIs(bytes, start, end, 'endfacet')) {
      if (facetVertices !== 3) throw new StlError('not_stl', STL_MESSAGES.badFacet(facet))
      inFacet = false
    } else if (first === 0x76 /* v */ && tokenIs(bytes, start, end, 'vertex')) {
      if (!inFacet) throw new StlError('not_stl', STL_MESSAGES.notStl)
      if (facetVertices === 3) throw new StlError('not_stl', STL_MESSAGES.badFacet(facet))
      if (count + 3 > values.length) {
        const grown = new Float32Array(values.length * 2)
        grown.set(values)
        values = grown
      }
      for (let k = 0; k < 3; k++) {
        const number = nextToken()
        if (!number) throw new StlError('truncated', STL_MESSAGES.truncatedAscii)
        const value = parseDecimal(bytes, number[0], number[1])
        if (!Number.isFinite(value))
          throw new StlError('invalid_number', STL_MESSAGES.invalidNumber(facet))
        values[count++] = value * scale
      }
      facetVertices++
    }
  }
  if (inFacet) throw new StlError('truncated', STL_MESSAGES.truncatedAscii)
  if (facet === 0) throw new StlError('empty', STL_MESSAGES.noTriangles)
  return values.slice(0, count)
}

/**
 * Reads a binary or ASCII STL in `unit` into a welded mesh in metres. A file whose size matches
 * its binary triangle count is binary even when it starts with "solid". Throws StlError for an
 * empty, truncated or non-STL file and for NaN or infinite coordinates. Triangles that are
 * degenerate after welding are dropped.
 */
export function parseStl(bytes: Uint8Array, unit: StlUnit): TriangleMesh {
  if (bytes.length === 0) throw new StlError('empty', STL_MESSAGES.empty)
  const scale = METRES_PER_STL_UNIT[unit]
  const exactBinary =
    bytes.length >= BINARY_HEADER_BYTES &&
    BINARY_HEADER_BYTES +
      BINARY_TRIANGLE_BYTES *
        new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true) ===
      bytes.length
  const raw =
    !exactBinary && looksLikeAsciiStl(bytes) ? parseAscii(bytes, scale) : parseBinary(bytes, scale)
  for (const value of raw)
    if (!Number.isFinite(value)) throw new StlError('invalid_number', STL_MESSAGES.invalidNumber(0))
  return weldVertices(raw)
}

/** A binary STL of a mesh (for tests and exports); `header` is up to 80 ASCII characters. */
export function encodeBinaryStl(mesh: TriangleMesh, header = 'Dive binary STL'): Uint8Array {
  const count = Math.floor(mesh.indices.length / 3)
  const bytes = new Uint8Array(BINARY_HEADER_BYTES + count * BINARY_TRIANGLE_BYTES)
  for (let i = 0; i < Math.min(80, header.length); i++) bytes[i] = header.charCodeAt(i) & 0x7f
  const view = new DataView(bytes.buffer)
  view.setUint32(80, count, true)
  for (let t = 0; t < count; t++) {
    const base = BINARY_HEADER_BYTES + t * BINARY_TRIANGLE_BYTES + 12
    for (let v = 0; v < 3; v++) {
      const index = mesh.indices[t * 3 + v]!
      for (let k = 0; k < 3; k++)
        view.setFloat32(base + (v * 3 + k) * 4, mesh.positions[index * 3 + k]!, true)
    }
  }
  return bytes
}

/** An ASCII STL of a mesh (for tests). */
export function encodeAsciiStl(mesh: TriangleMesh, name = 'dive'): string {
  const lines = [`solid ${name}`]
  for (let t = 0; t + 2 < mesh.indices.length; t += 3) {
    lines.push('  facet normal 0 0 0', '    outer loop')
    for (let v = 0; v < 3; v++) {
      const i = mesh.indices[t + v]! * 3
      const p = mesh.positions
      lines.push(`      vertex ${p[i]} ${p[i + 1]} ${p[i + 2]}`)
    }
    lines.push('    endloop', '  endfacet')
  }
  lines.push(`endsolid ${name}`)
  return lines.join('\n')
}
