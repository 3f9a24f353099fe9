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

function parseAscii(bytes: Uint8Array, scale: number): Float32Array {
  const text = new TextDecoder('latin1').decode(bytes)
  const token = /\S+/g
  const values: number[] = []
  let facet = 0
  let inFacet = false
  let facetVertices = 0
  for (let match = token.exec(text); match; match = token.exec(text)) {
    const word = match[0].toLowerCase()
    if (word === 'facet') {
      if (inFacet) throw new StlError('not_stl', STL_MESSAGES.badFacet(facet))
      inFacet = true
      facet++
      facetVertices = 0
    } else if (word === 'endfacet') {
      if (facetVertices !== 3) throw new StlError('not_stl', STL_MESSAGES.badFacet(facet))
      inFacet = false
    } else if (word === 'vertex') {
      if (!inFacet) throw new StlError('not_stl', STL_MESSAGES.notStl)
      for (let k = 0; k < 3; k++) {
        const next = token.exec(text)
        if (!next) throw new StlError('truncated', STL_MESSAGES.truncatedAscii)
        const value = Number(next[0])
        if (!Number.isFinite(value))
          throw new StlError('invalid_number', STL_MESSAGES.invalidNumber(facet))
        values.push(value * scale)
      }
      facetVertices++
    }
  }
  if (inFacet) throw new StlError('truncated', STL_MESSAGES.truncatedAscii)
  if (facet === 0) throw new StlError('empty', STL_MESSAGES.noTriangles)
  return Float32Array.from(values)
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
