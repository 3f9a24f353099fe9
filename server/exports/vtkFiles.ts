/*
 * The file formats of a user export, as chunk generators so a caller can write them to disk a
 * piece at a time and yield to other requests between pieces:
 * - VTU: VTK XML UnstructuredGrid (ParaView, VisIt), one vertex cell per particle, raw appended
 *   binary little-endian data with UInt64 block headers, the output time as FieldData TimeValue;
 * - binary STL of a triangle mesh (normals from the vertex order).
 */

/** Points per chunk: a chunk of interleaved Float32 xyz is 768 KiB. */
export const POINTS_PER_CHUNK = 65_536

/** One point-data array: one column per component (1 for scalars, 3 for vectors). */
export interface VtuArray {
  name: string
  components: readonly Float32Array[]
}

/** What one VTU file holds. */
export interface VtuInput {
  x: Float32Array
  y: Float32Array
  z: Float32Array
  arrays: readonly VtuArray[]
  /** Simulated time of the output, written as FieldData TimeValue. */
  timeS: number
}

/** VTK cell type of a single point. */
const VTK_VERTEX = 1
const BLOCK_HEADER_BYTES = 8
const encoder = new TextEncoder()

interface Block {
  tag: string
  byteLength: number
  /** Bytes of the block's data in order, a chunk at a time. */
  chunks: () => Generator<Uint8Array>
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
}

/** Interleaves columns (x, y, z or vx, vy, vz …) into Float32 tuples, a chunk at a time. */
function* interleavedChunks(columns: readonly Float32Array[], count: number) {
  const width = columns.length
  if (width === 1) {
    const column = columns[0]!
    for (let start = 0; start < count; start += POINTS_PER_CHUNK)
      yield bytesOf(column.subarray(start, Math.min(count, start + POINTS_PER_CHUNK)))
    return
  }
  for (let start = 0; start < count; start += POINTS_PER_CHUNK) {
    const end = Math.min(count, start + POINTS_PER_CHUNK)
    const chunk = new Float32Array((end - start) * width)
    for (let c = 0; c < width; c++) {
      const column = columns[c]!
      for (let i = start, o = c; i < end; i++, o += width) chunk[o] = column[i]!
    }
    yield bytesOf(chunk)
  }
}

/** Int64 little-endian i + first for every point: low words counted, high words 0 (< 2^32 points). */
function* countingChunks(count: number, first: number) {
  for (let start = 0; start < count; start += POINTS_PER_CHUNK) {
    const end = Math.min(count, start + POINTS_PER_CHUNK)
    const words = new Uint32Array((end - start) * 2)
    for (let i = start, o = 0; i < end; i++, o += 2) words[o] = i + first
    yield bytesOf(words)
  }
}

function* vertexTypeChunks(count: number) {
  for (let start = 0; start < count; start += POINTS_PER_CHUNK)
    yield new Uint8Array(Math.min(count, start + POINTS_PER_CHUNK) - start).fill(VTK_VERTEX)
}

function blockHeader(byteLength: number): Uint8Array {
  const header = new Uint8Array(BLOCK_HEADER_BYTES)
  new DataView(header.buffer).setBigUint64(0, BigInt(byteLength), true)
  return header
}

/**
 * A VTU file of particles: Points, vertex cells and the point-data arrays, in chunks. Every array
 * must have as many values per component as there are points.
 */
export function* vtuChunks(input: VtuInput): Generator<Uint8Array> {
  const count = input.x.length
  for (const array of input.arrays)
    for (const column of array.components)
      if (column.length !== count)
        throw new Error(`Array ${array.name} has ${column.length} values for ${count} points`)
  const blocks: Block[] = []
  const pointData: string[] = []
  for (const array of input.arrays) {
    const width = array.components.length
    pointData.push(
      `<DataArray type="Float32" Name="${escapeXml(array.name)}" NumberOfComponents="${width}"`,
    )
    blocks.push({
      tag: 'pointData',
      byteLength: count * width * 4,
      chunks: () => interleavedChunks(array.components, count),
    })
  }
  blocks.push({
    tag: 'Points',
    byteLength: count * 12,
    chunks: () => interleavedChunks([input.x, input.y, input.z], count),
  })
  blocks.push({
    tag: 'connectivity',
    byteLength: count * 8,
    chunks: () => countingChunks(count, 0),
  })
  blocks.push({ tag: 'offsets', byteLength: count * 8, chunks: () => countingChunks(count, 1) })
  blocks.push({ tag: 'types', byteLength: count, chunks: () => vertexTypeChunks(count) })

  const offsets: number[] = []
  let offset = 0
  for (const block of blocks) {
    offsets.push(offset)
    offset += BLOCK_HEADER_BYTES + block.byteLength
  }
  const at = (index: number) => `format="appended" offset="${offsets[index]}"/>`
  const arrayCount = input.arrays.length
  const firstScalar = input.arrays.find((array) => array.components.length === 1)?.name
  const firstVector = input.arrays.find((array) => array.components.length === 3)?.name
  const pointDataAttributes =
    (firstScalar ? ` Scalars="${escapeXml(firstScalar)}"` : '') +
    (firstVector ? ` Vectors="${escapeXml(firstVector)}"` : '')
  const header = [
    '<?xml version="1.0"?>',
    '<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" header_type="UInt64">',
    '  <UnstructuredGrid>',
    '    <FieldData>',
    `      <DataArray type="Float64" Name="TimeValue" NumberOfTuples="1" format="ascii">${input.timeS}</DataArray>`,
    '    </FieldData>',
    `    <Piece NumberOfPoints="${count}" NumberOfCells="${count}">`,
    `      <PointData${pointDataAttributes}>`,
    ...pointData.map((open, index) => `        ${open} ${at(index)}`),
    '      </PointData>',
    '      <Points>',
    `        <DataArray type="Float32" Name="Points" NumberOfComponents="3" ${at(arrayCount)}`,
    '      </Points>',
    '      <Cells>',
    `        <DataArray type="Int64" Name="connectivity" ${at(arrayCount + 1)}`,
    `        <DataArray type="Int64" Name="offsets" ${at(arrayCount + 2)}`,
    `        <DataArray type="UInt8" Name="types" ${at(arrayCount + 3)}`,
    '      </Cells>',
    '    </Piece>',
    '  </UnstructuredGrid>',
    '  <AppendedData encoding="raw">',
    '   _',
  ].join('\n')
  yield encoder.encode(header)
  for (const block of blocks) {
    yield blockHeader(block.byteLength)
    yield* block.chunks()
  }
  yield encoder.encode('\n  </AppendedData>\n</VTKFile>\n')
}

/** Triangles per STL chunk (50 bytes each). */
const TRIANGLES_PER_CHUNK = 16_384
const STL_HEADER_BYTES = 80
const STL_TRIANGLE_BYTES = 50

/** What one binary STL file holds: vertex columns and three indices per triangle. */
export interface StlInput {
  x: Float32Array
  y: Float32Array
  z: Float32Array
  indices: Uint32Array
  /** Written into the 80-byte header (ASCII, cut to fit; never starting with "solid"). */
  title: string
}

/** A binary STL of a triangle mesh, in chunks. */
export function* stlChunks(input: StlInput): Generator<Uint8Array> {
  const triangles = Math.floor(input.indices.length / 3)
  const head = new Uint8Array(STL_HEADER_BYTES + 4)
  head.set(
    encoder.encode(`Dive export ${input.title}`.replace(/[^\x20-\x7e]/g, '_')).subarray(0, 80),
  )
  new DataView(head.buffer).setUint32(STL_HEADER_BYTES, triangles, true)
  yield head
  const { x, y, z, indices } = input
  for (let start = 0; start < triangles; start += TRIANGLES_PER_CHUNK) {
    const end = Math.min(triangles, start + TRIANGLES_PER_CHUNK)
    const chunk = new Uint8Array((end - start) * STL_TRIANGLE_BYTES)
    const view = new DataView(chunk.buffer)
    for (let t = start; t < end; t++) {
      const a = indices[t * 3]!
      const b = indices[t * 3 + 1]!
      const c = indices[t * 3 + 2]!
      const ux = x[b]! - x[a]!
      const uy = y[b]! - y[a]!
      const uz = z[b]! - z[a]!
      const vx = x[c]! - x[a]!
      const vy = y[c]! - y[a]!
      const vz = z[c]! - z[a]!
      let nx = uy * vz - uz * vy
      let ny = uz * vx - ux * vz
      let nz = ux * vy - uy * vx
      const length = Math.hypot(nx, ny, nz)
      if (length > 0) {
        nx /= length
        ny /= length
        nz /= length
      }
      let o = (t - start) * STL_TRIANGLE_BYTES
      for (const value of [nx, ny, nz]) {
        view.setFloat32(o, value, true)
        o += 4
      }
      for (const vertex of [a, b, c]) {
        view.setFloat32(o, x[vertex]!, true)
        view.setFloat32(o + 4, y[vertex]!, true)
        view.setFloat32(o + 8, z[vertex]!, true)
        o += 12
      }
    }
    yield chunk
  }
}

/** CSV of log lines: the union of their keys as columns (first-seen order), ';' separated. */
export function logCsv(lines: readonly Record<string, unknown>[]): string {
  const columns: string[] = []
  for (const line of lines)
    for (const key of Object.keys(line)) if (!columns.includes(key)) columns.push(key)
  const cell = (value: unknown) => {
    if (value === undefined || value === null) return ''
    const text =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value)
    return /[;"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
  }
  const rows = lines.map((line) => columns.map((column) => cell(line[column])).join(';'))
  return [columns.join(';'), ...rows].join('\n') + '\n'
}
