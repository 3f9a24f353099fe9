import { describe, expect, it } from 'vitest'
import {
  BUNDLE_ALIGNMENT,
  BUNDLE_PREAMBLE_BYTES,
  decodeBundleHeader,
  encodeBundleHeader,
  FORMAT_MINOR_VERSION,
  FORMAT_VERSION,
  FORMAT_OBJECT_KINDS,
  OutputFormatError,
  type OutputFormatErrorCode,
} from '../outputFormat.ts'
import { DATASETS } from '../results.ts'
import { readBundle, readObjectStream } from './reader.ts'
import { writeObjectStream } from './objectStream.ts'
import { writeBundle, type BundleEntryInput } from './writer.ts'

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

function particleStream(objectId: string, rows: number): Uint8Array {
  const values = Float32Array.from({ length: rows }, (_, index) => index)
  return writeObjectStream(
    { x: values, y: values, z: values, pressure: values },
    {
      simulationId: 5,
      runId: 1,
      outputNo: 9,
      timeS: 4.5,
      objectId,
      objectKind: 'fluid',
      materialId: 0,
      dataset: 'full',
    },
  )
}

const ENTRIES: BundleEntryInput[] = [
  {
    objectId: 'fluid-0',
    kind: 'fluid',
    dataset: 'full',
    outputNo: 9,
    bytes: particleStream('fluid-0', 1000),
  },
  {
    objectId: 'wände-ü',
    kind: 'fluid',
    dataset: 'fast',
    outputNo: 10,
    bytes: particleStream('wände-ü', 7),
  },
  // Odd lengths: the next payload must still start 8-byte aligned.
  {
    objectId: 'raw',
    kind: 'open_boundary',
    dataset: 'raw',
    outputNo: 0,
    bytes: new Uint8Array([1, 2, 3]),
  },
  {
    objectId: 'x',
    kind: 'volume_clip',
    dataset: 'static',
    outputNo: 4294967295,
    bytes: new Uint8Array(13).fill(9),
  },
]

describe('bundle header codec', () => {
  it('round-trips every kind, dataset and output number with 8-byte aligned offsets', () => {
    const descriptions = FORMAT_OBJECT_KINDS.flatMap((kind, kindIndex) =>
      DATASETS.map((dataset, datasetIndex) => ({
        objectId: `${kind}/${dataset}`.repeat(datasetIndex + 1),
        kind,
        dataset,
        outputNo: kindIndex * 100 + datasetIndex,
        byteLength: 3 + 5 * datasetIndex,
      })),
    )
    const layout = encodeBundleHeader(descriptions)
    const bytes = new Uint8Array(layout.totalByteLength)
    bytes.set(layout.header)
    const header = decodeBundleHeader(bytes)
    expect(header.version).toEqual({ major: FORMAT_VERSION, minor: FORMAT_MINOR_VERSION })
    expect(header.headerByteLength).toBe(layout.header.length)
    expect(header.headerByteLength % BUNDLE_ALIGNMENT).toBe(0)
    expect(header.entries).toEqual(layout.entries)
    expect(header.entries.map(({ byteOffset: _, ...rest }) => rest)).toEqual(descriptions)
    for (const entry of header.entries) expect(entry.byteOffset % BUNDLE_ALIGNMENT).toBe(0)
  })

  it('starts with DIVB, the version, the entry count and the header length', () => {
    const { header } = encodeBundleHeader([
      { objectId: 'a', kind: 'fluid', dataset: 'full', outputNo: 1, byteLength: 8 },
    ])
    const view = new DataView(header.buffer)
    expect(new TextDecoder().decode(header.subarray(0, 4))).toBe('DIVB')
    expect(view.getUint16(4, true)).toBe(FORMAT_VERSION)
    expect(view.getUint16(6, true)).toBe(FORMAT_MINOR_VERSION)
    expect(view.getUint32(8, true)).toBe(1)
    expect(view.getUint32(12, true)).toBe(header.length)
    expect(view.getBigUint64(BUNDLE_PREAMBLE_BYTES, true)).toBe(BigInt(header.length))
  })

  it('decodes an empty bundle', () => {
    const { header, totalByteLength } = encodeBundleHeader([])
    expect(totalByteLength).toBe(BUNDLE_PREAMBLE_BYTES)
    expect(decodeBundleHeader(header).entries).toEqual([])
  })

  it('refuses an object id longer than 65535 bytes', () => {
    expectFormatError(
      () =>
        encodeBundleHeader([
          {
            objectId: 'x'.repeat(70_000),
            kind: 'fluid',
            dataset: 'full',
            outputNo: 0,
            byteLength: 0,
          },
        ]),
      'invalid_input',
    )
  })
})

describe('writeBundle → readBundle', () => {
  const bundle = writeBundle(ENTRIES)
  const entries = readBundle(bundle)

  it('gives every entry back with its bytes', () => {
    expect(
      entries.map(({ objectId, kind, dataset, outputNo }) => ({
        objectId,
        kind,
        dataset,
        outputNo,
      })),
    ).toEqual(
      ENTRIES.map(({ objectId, kind, dataset, outputNo }) => ({
        objectId,
        kind,
        dataset,
        outputNo,
      })),
    )
    entries.forEach((entry, index) => {
      const written = ENTRIES[index]!.bytes
      expect(entry.bytes.length).toBe(written.length)
      expect(entry.bytes.every((byte, offset) => byte === written[offset])).toBe(true)
    })
  })

  it('places every payload at an 8-byte aligned offset, zero-padded in between', () => {
    let previousEnd = 0
    for (const entry of entries) {
      expect(entry.byteOffset % 8).toBe(0)
      expect(
        bundle
          .subarray(previousEnd || entry.byteOffset, entry.byteOffset)
          .every((byte) => byte === 0),
      ).toBe(true)
      previousEnd = entry.byteOffset + entry.byteLength
    }
    expect(bundle.length).toBe(previousEnd)
  })

  it('returns entry bytes and their columns as views into the bundle, not copies', () => {
    expect(entries[0]!.bytes.buffer).toBe(bundle.buffer)
    const fluid = readObjectStream(entries[0]!.bytes)
    expect(fluid.columns.pressure!.buffer).toBe(bundle.buffer)
    expect(fluid.columns.pressure!.byteOffset % 4).toBe(0)
    expect(fluid.meta.objectId).toBe('fluid-0')
    expect(readObjectStream(entries[1]!.bytes).meta.objectId).toBe('wände-ü')
  })

  it('reads a bundle that is not 8-byte aligned in its buffer (copying it once)', () => {
    const shifted = new Uint8Array(bundle.length + 3)
    shifted.set(bundle, 3)
    const read = readBundle(shifted.subarray(3))
    expect(read[0]!.bytes.byteOffset % 8).toBe(0)
    expect(readObjectStream(read[0]!.bytes).rowCount).toBe(1000)
  })
})

describe('readBundle errors', () => {
  const bundle = writeBundle(ENTRIES)
  const patched = (patch: (view: DataView, bytes: Uint8Array) => void): Uint8Array => {
    const copy = bundle.slice()
    patch(new DataView(copy.buffer), copy)
    return copy
  }
  const firstEntry = BUNDLE_PREAMBLE_BYTES

  it('refuses bytes without the DIVB magic as bad_magic', () => {
    expectFormatError(() => readBundle(patched((_, bytes) => bytes.set([88], 0))), 'bad_magic')
    expectFormatError(() => readBundle(particleStream('a', 2)), 'bad_magic')
  })

  it('refuses a newer major version as unsupported_version, accepts a newer minor', () => {
    expectFormatError(
      () => readBundle(patched((view) => view.setUint16(4, FORMAT_VERSION + 1, true))),
      'unsupported_version',
    )
    expect(readBundle(patched((view) => view.setUint16(6, 99, true)))).toHaveLength(ENTRIES.length)
  })

  it('reports a bundle cut inside its header or a payload as truncated', () => {
    expectFormatError(() => readBundle(bundle.subarray(0, 2)), 'truncated')
    expectFormatError(() => readBundle(bundle.subarray(0, 10)), 'truncated')
    expectFormatError(() => readBundle(bundle.subarray(0, 40)), 'truncated')
    expectFormatError(() => readBundle(bundle.subarray(0, bundle.length - 1)), 'truncated')
  })

  it.each([
    ['a misaligned payload offset', (view: DataView) => view.setBigUint64(firstEntry, 12n, true)],
    [
      'a payload offset inside the header',
      (view: DataView) => view.setBigUint64(firstEntry, 8n, true),
    ],
    ['an unknown kind code', (view: DataView) => view.setUint8(firstEntry + 20, 9)],
    ['an unknown dataset code', (view: DataView) => view.setUint8(firstEntry + 21, 0)],
    ['more entries than the header holds', (view: DataView) => view.setUint32(8, 1000, true)],
    [
      'a header length that is not a multiple of 8',
      (view: DataView) => view.setUint32(12, 20, true),
    ],
    [
      'an object id running past the header',
      (view: DataView) => view.setUint16(firstEntry + 22, 60_000, true),
    ],
    [
      'an object id that is not UTF-8',
      (_: DataView, bytes: Uint8Array) => bytes.set([0xff], firstEntry + 24),
    ],
  ])('reports %s as corrupt', (_, patch) => {
    expectFormatError(() => readBundle(patched(patch)), 'corrupt')
  })
})
