/*
 * Test support: an independent reader of the files a user export writes (VTK XML UnstructuredGrid
 * with raw appended or inline base64/ascii data, and binary STL), so tests check the bytes against
 * the Arrow outputs the way ParaView would read them. Pure TypeScript: the e2e tests use it too.
 */

/** One DataArray as read: its attributes and values (Float32/Float64/Int64/UInt8 → numbers). */
export interface ParsedDataArray {
  name: string
  type: string
  components: number
  values: Float64Array
}

/** A parsed VTU file. */
export interface ParsedVtu {
  byteOrder: string
  headerType: string
  numberOfPoints: number
  numberOfCells: number
  timeS: number | null
  points: ParsedDataArray
  pointData: Record<string, ParsedDataArray>
  cells: Record<string, ParsedDataArray>
}

const TYPE_BYTES: Record<string, number> = {
  Float32: 4,
  Float64: 8,
  Int64: 8,
  UInt64: 8,
  Int32: 4,
  UInt32: 4,
  UInt8: 1,
  Int8: 1,
}

function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {}
  for (const match of tag.matchAll(/([\w:]+)="([^"]*)"/g)) attributes[match[1]!] = match[2]!
  return attributes
}

function readValue(view: DataView, type: string, offset: number): number {
  switch (type) {
    case 'Float32':
      return view.getFloat32(offset, true)
    case 'Float64':
      return view.getFloat64(offset, true)
    case 'Int64':
      return Number(view.getBigInt64(offset, true))
    case 'UInt64':
      return Number(view.getBigUint64(offset, true))
    case 'Int32':
      return view.getInt32(offset, true)
    case 'UInt32':
      return view.getUint32(offset, true)
    case 'UInt8':
      return view.getUint8(offset)
    case 'Int8':
      return view.getInt8(offset)
    default:
      throw new Error(`Unknown DataArray type ${type}`)
  }
}

function decodeValues(bytes: Uint8Array, type: string): Float64Array {
  const size = TYPE_BYTES[type]
  if (!size) throw new Error(`Unknown DataArray type ${type}`)
  if (bytes.length % size !== 0) throw new Error(`${bytes.length} bytes are not whole ${type}s`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const values = new Float64Array(bytes.length / size)
  for (let i = 0; i < values.length; i++) values[i] = readValue(view, type, i * size)
  return values
}

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text.replace(/\s+/g, ''))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Parses a VTU file; throws with a reason when it is not one this parser understands. */
export function parseVtu(file: Uint8Array): ParsedVtu {
  const latin = new TextDecoder('latin1').decode(file)
  const appendedStart = latin.indexOf('<AppendedData')
  const xml = appendedStart >= 0 ? latin.slice(0, appendedStart) : latin
  const root = /<VTKFile([^>]*)>/.exec(xml)
  if (!root) throw new Error('No <VTKFile> element')
  const rootAttributes = attributesOf(root[1]!)
  if (rootAttributes.type !== 'UnstructuredGrid') throw new Error('Not an UnstructuredGrid')
  const headerType = rootAttributes.header_type ?? 'UInt32'
  const headerBytes = TYPE_BYTES[headerType] ?? 4
  const piece = /<Piece([^>]*)>/.exec(xml)
  if (!piece) throw new Error('No <Piece> element')
  const pieceAttributes = attributesOf(piece[1]!)

  let appended: Uint8Array | null = null
  if (appendedStart >= 0) {
    const marker = latin.indexOf('_', appendedStart)
    appended = file.subarray(marker + 1)
  }
  const readAppended = (offset: number, type: string): Float64Array => {
    if (!appended) throw new Error('An appended DataArray without <AppendedData>')
    const view = new DataView(appended.buffer, appended.byteOffset, appended.byteLength)
    const length =
      headerBytes === 8 ? Number(view.getBigUint64(offset, true)) : view.getUint32(offset, true)
    const start = offset + headerBytes
    if (start + length > appended.length) throw new Error('Appended data is truncated')
    return decodeValues(appended.subarray(start, start + length), type)
  }

  const arrays: { section: string; array: ParsedDataArray }[] = []
  let section = ''
  const tokens =
    /<(\/?)(FieldData|PointData|Points|Cells|CellData)\b[^>]*>|<DataArray([^>]*?)(\/>|>([^<]*)<\/DataArray>)/g
  for (const token of xml.matchAll(tokens)) {
    if (token[2]) {
      section = token[1] ? '' : token[2]
      continue
    }
    const attributes = attributesOf(token[3]!)
    const type = attributes.type ?? ''
    let values: Float64Array
    if (attributes.format === 'appended') values = readAppended(Number(attributes.offset), type)
    else if (attributes.format === 'binary') {
      const bytes = base64Bytes(token[5] ?? '')
      const view = new DataView(bytes.buffer)
      const length =
        headerBytes === 8 ? Number(view.getBigUint64(0, true)) : view.getUint32(0, true)
      values = decodeValues(bytes.subarray(headerBytes, headerBytes + length), type)
    } else
      values = Float64Array.from((token[5] ?? '').trim().split(/\s+/).filter(Boolean).map(Number))
    arrays.push({
      section,
      array: {
        name: attributes.Name ?? '',
        type,
        components: Number(attributes.NumberOfComponents ?? 1),
        values,
      },
    })
  }
  const inSection = (name: string) =>
    Object.fromEntries(
      arrays.filter((a) => a.section === name).map((a) => [a.array.name, a.array] as const),
    )
  const points = arrays.find((a) => a.section === 'Points')?.array
  if (!points) throw new Error('No Points')
  const time = inSection('FieldData').TimeValue?.values[0]
  return {
    byteOrder: rootAttributes.byte_order ?? '',
    headerType,
    numberOfPoints: Number(pieceAttributes.NumberOfPoints),
    numberOfCells: Number(pieceAttributes.NumberOfCells),
    timeS: time ?? null,
    points,
    pointData: inSection('PointData'),
    cells: inSection('Cells'),
  }
}

/** A parsed binary STL: triangle count and the vertices, 9 values per triangle. */
export interface ParsedStl {
  triangleCount: number
  vertices: Float32Array
}

/** Parses a binary STL; throws when the size does not match the triangle count. */
export function parseBinaryStl(file: Uint8Array): ParsedStl {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const triangleCount = view.getUint32(80, true)
  if (file.length !== 84 + triangleCount * 50)
    throw new Error(`STL of ${file.length} bytes cannot hold ${triangleCount} triangles`)
  const vertices = new Float32Array(triangleCount * 9)
  for (let t = 0; t < triangleCount; t++)
    for (let k = 0; k < 9; k++)
      vertices[t * 9 + k] = view.getFloat32(84 + t * 50 + 12 + k * 4, true)
  return { triangleCount, vertices }
}
