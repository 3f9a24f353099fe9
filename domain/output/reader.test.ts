import {
  Field,
  Float32,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Uint8,
  type DataType,
} from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import {
  OutputFormatError,
  SCHEMA_METADATA_KEYS,
  type OutputFormatErrorCode,
} from '../outputFormat.ts'
import { readBundle, readObjectStream } from './reader.ts'
import { writeObjectStream, type ObjectStreamMeta } from './objectStream.ts'
import { writeBundle } from './writer.ts'

const META: ObjectStreamMeta = {
  simulationId: 1,
  runId: null,
  outputNo: 0,
  timeS: 0.25,
  objectId: 'fluid-0',
  objectKind: 'fluid',
  materialId: 0,
  dataset: 'full',
}

function expectFormatError(run: () => unknown, code: OutputFormatErrorCode): void {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(OutputFormatError)
    expect((error as OutputFormatError).code).toBe(code)
    return
  }
  throw new Error(`expected OutputFormatError ${code}, nothing was thrown`)
}

const KEYS = SCHEMA_METADATA_KEYS
/** Schema metadata of a valid 3-row fluid stream; tests remove or change keys. */
function validMetadata(): Record<string, string> {
  return {
    [KEYS.formatVersion]: '1.0',
    [KEYS.part]: 'particles',
    [KEYS.simulationId]: '1',
    [KEYS.runId]: '',
    [KEYS.outputNo]: '0',
    [KEYS.timeS]: '0.25',
    [KEYS.objectId]: 'fluid-0',
    [KEYS.objectKind]: 'fluid',
    [KEYS.materialId]: '0',
    [KEYS.dataset]: 'full',
    [KEYS.particleCount]: '3',
    [KEYS.fullParticleCount]: '3',
    [KEYS.ordering]: 'as_given',
    [KEYS.streamCount]: '1',
  }
}

interface TestColumn {
  name: string
  type?: DataType
  values?: ArrayLike<number>
  nullBitmap?: Uint8Array
}

/** An Arrow stream built with apache-arrow directly, to produce what our writer never would. */
function arrowStream(
  columns: readonly TestColumn[],
  metadata: Record<string, string> = validMetadata(),
  batches = 1,
): Uint8Array {
  const length = 3
  const fields = columns.map(
    ({ name, type }) => new Field(name, type ?? new Float32(), true, new Map()),
  )
  const children = columns.map(({ type, values, nullBitmap }) => {
    const dataType = type ?? new Float32()
    const ArrayType = dataType.ArrayType as new (length: number) => Float32Array
    const data = new ArrayType(length)
    data.set(values ?? [1, 2, 3])
    return makeData({
      type: dataType as Float32,
      length,
      data,
      nullBitmap,
      nullCount: nullBitmap ? 1 : 0,
    })
  })
  const schema = new Schema(fields, new Map(Object.entries(metadata)))
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length, children }))
  return RecordBatchStreamWriter.writeAll(
    Array.from({ length: batches }, () => batch),
  ).toUint8Array(true)
}

const XYZ: TestColumn[] = [{ name: 'x' }, { name: 'y' }, { name: 'z' }]

describe('readObjectStream on valid input built elsewhere', () => {
  it('reads a stream that apache-arrow wrote from the metadata contract alone', () => {
    const view = readObjectStream(arrowStream([...XYZ, { name: 'pressure' }]))
    expect(view.rowCount).toBe(3)
    expect([...view.columns.pressure!]).toEqual([1, 2, 3])
    expect(view.ranges.pressure).toBeNull()
    expect(view.units.pressure).toBe('Pa')
  })

  it('accepts a newer minor version and unknown Float32 columns (forward compatible)', () => {
    const view = readObjectStream(
      arrowStream([...XYZ, { name: 'vorticity' }], {
        ...validMetadata(),
        [KEYS.formatVersion]: '1.9',
        'dive.some_future_key': 'x',
      }),
    )
    expect(view.meta.formatVersion).toEqual({ major: 1, minor: 9 })
    expect(view.columns.vorticity).toHaveLength(3)
    expect(view.units.vorticity).toBe('')
  })

  it('keeps a column named __proto__ as data', () => {
    const view = readObjectStream(arrowStream([...XYZ, { name: '__proto__' }]))
    expect(Object.keys(view.columns)).toContain('__proto__')
    expect(view.columns.__proto__).toBeInstanceOf(Float32Array)
  })
})

describe('readObjectStream errors', () => {
  const valid = writeObjectStream(
    {
      x: new Float32Array([1, 2, 3]),
      y: new Float32Array(3),
      z: new Float32Array(3),
      pressure: new Float32Array(3),
    },
    META,
    {
      mesh: {
        columns: { x: new Float32Array(3), y: new Float32Array(3), z: new Float32Array(3) },
        indices: new Uint32Array([0, 1, 2]),
      },
    },
  )

  it('reports truncated bytes as truncated', () => {
    expectFormatError(() => readObjectStream(new Uint8Array(0)), 'truncated')
    expectFormatError(() => readObjectStream(valid.subarray(0, 12)), 'truncated')
    expectFormatError(() => readObjectStream(valid.subarray(0, 400)), 'truncated')
    expectFormatError(() => readObjectStream(valid.subarray(0, valid.length - 8)), 'truncated')
  })

  it('reports a wall whose mesh streams are cut off as truncated', () => {
    const primaryLength = readPrimaryLength(valid)
    expectFormatError(() => readObjectStream(valid.subarray(0, primaryLength)), 'truncated')
  })

  it('reports bytes that are not Arrow framing as corrupt', () => {
    const broken = valid.slice()
    broken[0] = 0
    expectFormatError(() => readObjectStream(broken), 'corrupt')
    expectFormatError(
      () => readObjectStream(new TextEncoder().encode('hello world, no arrow')),
      'corrupt',
    )
  })

  it('reports more than one record batch as corrupt', () => {
    expectFormatError(() => readObjectStream(arrowStream(XYZ, validMetadata(), 2)), 'corrupt')
  })

  it('reports bytes after the last stream as corrupt', () => {
    const padded = new Uint8Array(valid.length + 8)
    padded.set(valid)
    padded.fill(7, valid.length)
    expectFormatError(() => readObjectStream(padded), 'corrupt')
  })

  it('reports a mesh index past the last vertex as corrupt', () => {
    const view = readObjectStream(valid)
    const broken = valid.slice()
    const offset = view.mesh!.indices.byteOffset - valid.byteOffset
    new DataView(broken.buffer).setUint32(offset + 4, 3, true)
    expectFormatError(() => readObjectStream(broken), 'corrupt')
  })

  it('reports a particle count that disagrees with the rows as corrupt', () => {
    const metadata = { ...validMetadata(), [KEYS.particleCount]: '4' }
    expectFormatError(() => readObjectStream(arrowStream(XYZ, metadata)), 'corrupt')
  })

  it('refuses a newer major format version', () => {
    const metadata = { ...validMetadata(), [KEYS.formatVersion]: '2.0' }
    expectFormatError(() => readObjectStream(arrowStream(XYZ, metadata)), 'unsupported_version')
  })

  it('checks the version before the columns, whose layout a newer major may change', () => {
    const metadata = { ...validMetadata(), [KEYS.formatVersion]: '3.1' }
    expectFormatError(
      () => readObjectStream(arrowStream([{ name: 'a', type: new Float64() }], metadata)),
      'unsupported_version',
    )
  })

  it.each([
    ['no format version', KEYS.formatVersion, undefined],
    ['a malformed format version', KEYS.formatVersion, 'one'],
    ['no object id', KEYS.objectId, undefined],
    ['an unknown object kind', KEYS.objectKind, 'sensor'],
    ['an unknown dataset', KEYS.dataset, 'medium'],
    ['a non-numeric output number', KEYS.outputNo, '1e3'],
    ['a non-finite time', KEYS.timeS, 'NaN'],
    ['no part', KEYS.part, undefined],
  ])('reports %s as invalid_metadata', (_, key, value) => {
    const metadata = validMetadata()
    if (value === undefined) delete metadata[key]
    else metadata[key] = value
    expectFormatError(() => readObjectStream(arrowStream(XYZ, metadata)), 'invalid_metadata')
  })

  it('reports a missing position column as missing_column', () => {
    expectFormatError(
      () => readObjectStream(arrowStream([{ name: 'x' }, { name: 'y' }])),
      'missing_column',
    )
  })

  it('reports a mask without its inside column as missing_column', () => {
    const metadata = {
      ...validMetadata(),
      [KEYS.part]: 'mask',
      [KEYS.objectKind]: 'volume_clip',
      [KEYS.targetObjectId]: 'fluid-0',
    }
    expectFormatError(
      () => readObjectStream(arrowStream([{ name: 'outside', type: new Uint8() }], metadata)),
      'missing_column',
    )
  })

  it.each([
    ['a Float64 position', [{ name: 'x', type: new Float64() }, { name: 'y' }, { name: 'z' }]],
    ['an Int32 quantity', [...XYZ, { name: 'pressure', type: new Int32() }]],
    ['a column with nulls', [...XYZ, { name: 'pressure', nullBitmap: new Uint8Array([0b101]) }]],
  ])('reports %s as wrong_column_type', (_, columns) => {
    expectFormatError(() => readObjectStream(arrowStream(columns)), 'wrong_column_type')
  })

  it('reports a Float32 mask column as wrong_column_type', () => {
    const metadata = {
      ...validMetadata(),
      [KEYS.part]: 'mask',
      [KEYS.objectKind]: 'volume_clip',
      [KEYS.targetObjectId]: 'fluid-0',
    }
    expectFormatError(
      () => readObjectStream(arrowStream([{ name: 'inside' }], metadata)),
      'wrong_column_type',
    )
  })
})

/** Byte length of the first Arrow stream of an object: up to its end-of-stream marker. */
function readPrimaryLength(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let position = 8; position + 8 <= bytes.length; position += 8) {
    if (view.getUint32(position, true) === 0xffffffff && view.getInt32(position + 4, true) === 0) {
      return position + 8
    }
  }
  throw new Error('no end-of-stream marker')
}

describe('reading damaged bytes (fuzz)', () => {
  const particles = Float32Array.from({ length: 64 }, (_, index) => index)
  const wall = writeObjectStream(
    { x: particles, y: particles, z: particles, pressure: particles },
    { ...META, objectId: 'wall-1', objectKind: 'wall_boundary', materialId: null },
    {
      mesh: {
        columns: { x: particles, y: particles, z: particles, pressure: particles },
        indices: Uint32Array.from({ length: 30 }, (_, index) => index),
      },
    },
  )
  const fluid = writeObjectStream({ x: particles, y: particles, z: particles }, META)
  const mask = writeObjectStream(
    { inside: new Uint8Array(64).fill(1) },
    { ...META, objectId: 'clip', objectKind: 'volume_clip', targetObjectId: 'fluid-0' },
  )
  const bundle = writeBundle([
    { objectId: 'wall-1', kind: 'wall_boundary', dataset: 'full', outputNo: 0, bytes: wall },
    { objectId: 'fluid-0', kind: 'fluid', dataset: 'full', outputNo: 0, bytes: fluid },
    { objectId: 'clip', kind: 'volume_clip', dataset: 'fast', outputNo: 0, bytes: mask },
  ])

  /** Seeded, so a failure reproduces. */
  let state = 12345
  const random = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return state / 2 ** 32
  }

  function readEverything(bytes: Uint8Array): void {
    for (const entry of readBundle(bytes)) readObjectStream(entry.bytes)
  }

  function expectReadOrFormatError(read: () => void): 'ok' | OutputFormatErrorCode {
    try {
      read()
      return 'ok'
    } catch (error) {
      if (!(error instanceof OutputFormatError)) throw error
      return error.code
    }
  }

  it('turns every truncation into OutputFormatError or a valid result', () => {
    const outcomes = new Set<string>()
    for (const source of [wall, fluid, mask]) {
      for (let length = 0; length < source.length; length += 1 + Math.floor(random() * 16)) {
        outcomes.add(expectReadOrFormatError(() => readObjectStream(source.subarray(0, length))))
      }
    }
    for (let trial = 0; trial < 300; trial++) {
      const length = Math.floor(random() * bundle.length)
      outcomes.add(expectReadOrFormatError(() => readEverything(bundle.subarray(0, length))))
    }
    expect(outcomes.has('truncated')).toBe(true)
    expect(outcomes.has('ok')).toBe(false)
  })

  it('turns random byte flips into OutputFormatError or a valid result, never a crash or hang', () => {
    const outcomes = new Set<string>()
    const startedMs = Date.now()
    for (let trial = 0; trial < 3000; trial++) {
      const source = [wall, fluid, mask, bundle][trial % 4]!
      const damaged = source.slice()
      const flips = 1 + Math.floor(random() * 4)
      for (let flip = 0; flip < flips; flip++) {
        // Mostly in the metadata, where a flip changes structure rather than values.
        const limit = random() < 0.8 ? Math.min(damaged.length, 1200) : damaged.length
        const position = Math.floor(random() * limit)
        damaged[position] = damaged[position]! ^ (1 << Math.floor(random() * 8))
      }
      const read =
        source === bundle ? () => readEverything(damaged) : () => void readObjectStream(damaged)
      outcomes.add(expectReadOrFormatError(read))
    }
    expect(Date.now() - startedMs).toBeLessThan(5000)
    expect(outcomes.has('ok')).toBe(true)
    expect(outcomes.has('corrupt')).toBe(true)
  })
})
