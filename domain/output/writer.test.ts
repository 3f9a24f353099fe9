import { tableFromIPC } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import {
  fastParticleCount,
  FORMAT_MINOR_VERSION,
  FORMAT_VERSION,
  OutputFormatError,
  SPH_PARTICLE_COLUMNS,
  type OutputFormatErrorCode,
} from '../outputFormat.ts'
import { readObjectStream } from './reader.ts'
import { computeFiniteRange, writeObjectStream, type ObjectStreamMeta } from './objectStream.ts'
import { writeOutput, type OutputInput } from './writer.ts'

const META: ObjectStreamMeta = {
  simulationId: 42,
  runId: 7,
  outputNo: 12,
  timeS: 0.6000000000000001,
  objectId: 'fluid-0 water ø',
  objectKind: 'fluid',
  materialId: 3,
  dataset: 'full',
}

/** Columns whose values identify their row: mass = row index, others derived from it. */
function makeColumns(rows: number): Record<string, Float32Array> {
  const column = (value: (row: number) => number): Float32Array =>
    Float32Array.from({ length: rows }, (_, row) => value(row))
  return {
    x: column((row) => (row * 7919) % 1000),
    y: column((row) => (row * 104_729) % 977),
    z: column((row) => (row * 31) % 211),
    vx: column((row) => row * 0.5),
    vy: column((row) => -row),
    vz: column((row) => row % 3),
    pressure: column((row) => 1000 + row),
    density: column((row) => 998 + (row % 5)),
    mass: column((row) => row),
    temperature: column((row) => 290 + (row % 10)),
    shear_stress_x: column((row) => row / 4),
  }
}

/** Bitwise equality of two Float32 columns (NaN-safe, and much faster than toEqual on 100k rows). */
function expectSameFloats(
  actual: Float32Array | undefined,
  expected: Float32Array,
  name = '',
): void {
  expect(actual, name).toBeInstanceOf(Float32Array)
  expect(actual!.length, name).toBe(expected.length)
  const actualBits = new Uint32Array(actual!.buffer, actual!.byteOffset, actual!.length)
  const expectedBits = new Uint32Array(expected.buffer, expected.byteOffset, expected.length)
  const firstDifference = actualBits.findIndex((bits, row) => bits !== expectedBits[row])
  expect(firstDifference, `${name}: first differing row`).toBe(-1)
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

describe('writeObjectStream → readObjectStream', () => {
  const rows = 5000
  const columns = makeColumns(rows)
  const bytes = writeObjectStream(columns, META, { order: 'as_given' })
  const view = readObjectStream(bytes)

  it('round-trips every column value', () => {
    expect(Object.keys(view.columns).sort()).toEqual(Object.keys(columns).sort())
    for (const [name, values] of Object.entries(columns)) {
      expectSameFloats(view.columns[name], values, name)
    }
  })

  it('puts position first and the quantity table order after it', () => {
    expect(Object.keys(view.columns)).toEqual([
      'x',
      'y',
      'z',
      'vx',
      'vy',
      'vz',
      'pressure',
      'density',
      'mass',
      'temperature',
      'shear_stress_x',
    ])
  })

  it('round-trips every metadata field', () => {
    expect(view.meta).toEqual({
      formatVersion: { major: FORMAT_VERSION, minor: FORMAT_MINOR_VERSION },
      simulationId: 42,
      runId: 7,
      outputNo: 12,
      timeS: 0.6000000000000001,
      objectId: 'fluid-0 water ø',
      objectKind: 'fluid',
      materialId: 3,
      dataset: 'full',
      particleCount: rows,
      fullParticleCount: rows,
      ordering: 'as_given',
      streamCount: 1,
      targetObjectId: null,
    })
    expect(view.rowCount).toBe(rows)
    expect(view.mask).toBeNull()
    expect(view.mesh).toBeNull()
  })

  it('writes null ids as empty and reads them back as null', () => {
    const read = readObjectStream(
      writeObjectStream(columns, { ...META, runId: null, materialId: null }),
    )
    expect(read.meta.runId).toBeNull()
    expect(read.meta.materialId).toBeNull()
  })

  it('returns columns that are views over the input bytes, not copies', () => {
    for (const values of Object.values(view.columns)) expect(values.buffer).toBe(bytes.buffer)
  })

  it('reads input that is not 8-byte aligned in its buffer (copying once)', () => {
    const shifted = new Uint8Array(bytes.length + 4)
    shifted.set(bytes, 4)
    const read = readObjectStream(shifted.subarray(4))
    expectSameFloats(read.columns.pressure, columns.pressure!)
  })

  it('stores the finite min, max and unit of each column in the field metadata', () => {
    expect(view.ranges.pressure).toEqual({ min: 1000, max: 1000 + rows - 1 })
    expect(view.ranges.vy).toEqual({ min: -(rows - 1), max: 0 })
    expect(view.units).toMatchObject({
      x: 'm',
      vx: 'm/s',
      pressure: 'Pa',
      density: 'kg/m³',
      mass: 'kg',
      temperature: 'K',
      shear_stress_x: 'N/m²',
    })
  })

  it('is a standard Arrow stream that apache-arrow reads with the same metadata', () => {
    const table = tableFromIPC(bytes)
    expect(table.numRows).toBe(rows)
    expect(table.batches).toHaveLength(1)
    expect(table.schema.metadata.get('dive.object_id')).toBe('fluid-0 water ø')
    expect(table.schema.metadata.get('dive.format_version')).toBe('1.0')
    const pressure = table.schema.fields.find((field) => field.name === 'pressure')!
    expect(pressure.metadata.get('dive.unit')).toBe('Pa')
    expect(Number(pressure.metadata.get('dive.max'))).toBe(1000 + rows - 1)
    expectSameFloats(table.getChild('mass')!.toArray() as Float32Array, columns.mass!)
  })

  it('stores rows in stratified order by default, permuting every column together', () => {
    const stratified = readObjectStream(writeObjectStream(columns, META))
    expect(stratified.meta.ordering).toBe('stratified')
    const mass = stratified.columns.mass!
    expect(mass.some((value, row) => value !== row)).toBe(true)
    const mismatches = SPH_PARTICLE_COLUMNS.filter((name) =>
      stratified.columns[name]!.some((value, row) => value !== columns[name]![mass[row]!]),
    )
    expect(mismatches).toEqual([])
    expectSameFloats(Float32Array.from(mass).sort(), columns.mass!)
  })

  it('round-trips a wall with a triangle mesh and per-vertex pressure', () => {
    const mesh = {
      columns: {
        x: new Float32Array([0, 1, 0, 1]),
        y: new Float32Array([0, 0, 1, 1]),
        z: new Float32Array(4),
        pressure: new Float32Array([10, 20, NaN, 40]),
      },
      indices: new Uint32Array([0, 1, 2, 1, 3, 2]),
    }
    const wallBytes = writeObjectStream(
      { x: columns.x!, y: columns.y!, z: columns.z!, pressure: columns.pressure! },
      { ...META, objectId: 'wall-1', objectKind: 'wall_boundary', materialId: null },
      { mesh },
    )
    const wall = readObjectStream(wallBytes)
    expect(wall.meta.streamCount).toBe(3)
    expect(wall.mesh).not.toBeNull()
    expect(wall.mesh!.vertexCount).toBe(4)
    expect(wall.mesh!.triangleCount).toBe(2)
    expect(wall.mesh!.indices).toEqual(mesh.indices)
    expect(wall.mesh!.indices.buffer).toBe(wallBytes.buffer)
    expect(wall.mesh!.columns.pressure).toEqual(mesh.columns.pressure)
    expect(wall.mesh!.columns.pressure!.buffer).toBe(wallBytes.buffer)
    expect(wall.mesh!.ranges.pressure).toEqual({ min: 10, max: 40 })
    expect(wall.mesh!.units.pressure).toBe('Pa')
    expect(wall.rowCount).toBe(rows)
  })

  it('writes and reads an object with no particles', () => {
    const empty = { x: new Float32Array(0), y: new Float32Array(0), z: new Float32Array(0) }
    const read = readObjectStream(writeObjectStream(empty, META))
    expect(read.rowCount).toBe(0)
    expect(read.columns.x).toHaveLength(0)
    expect(read.ranges.x).toBeNull()
  })
})

describe('computeFiniteRange', () => {
  it('ignores NaN and ±Infinity', () => {
    const values = new Float32Array([NaN, -Infinity, 3, -2, Infinity, 7, NaN])
    expect(computeFiniteRange(values)).toEqual({ min: -2, max: 7 })
  })

  it('has no range for an all-NaN, all-infinite or empty column', () => {
    expect(computeFiniteRange(new Float32Array([NaN, NaN]))).toBeNull()
    expect(computeFiniteRange(new Float32Array([Infinity, -Infinity]))).toBeNull()
    expect(computeFiniteRange(new Float32Array(0))).toBeNull()
  })

  it('reaches the reader: NaN/±Infinity ignored, all-NaN column without a range', () => {
    const x = new Float32Array([0, 1, 2, 3])
    const read = readObjectStream(
      writeObjectStream(
        {
          x,
          y: x,
          z: x,
          pressure: new Float32Array([NaN, 5, -Infinity, -1]),
          density: new Float32Array(4).fill(NaN),
        },
        META,
      ),
    )
    expect(read.ranges.pressure).toEqual({ min: -1, max: 5 })
    expect(read.ranges.density).toBeNull()
    expect(read.columns.density!.every(Number.isNaN)).toBe(true)
  })
})

describe('writeOutput', () => {
  const particles = 130_000
  const fluidColumns = makeColumns(particles)
  const threshold = 500
  const inside = Uint8Array.from(fluidColumns.x!, (x) => (x >= threshold ? 1 : 0))
  const input: OutputInput = {
    simulationId: 1,
    runId: 2,
    outputNo: 3,
    timeS: 1.5,
    objects: [
      { kind: 'fluid', objectId: 'fluid-0', materialId: 0, columns: fluidColumns },
      {
        kind: 'volume_clip',
        objectId: 'clip-1@fluid-0',
        targetObjectId: 'fluid-0',
        materialId: 0,
        inside,
      },
      {
        kind: 'wall_boundary',
        objectId: 'wall-1',
        columns: { x: new Float32Array(10), y: new Float32Array(10), z: new Float32Array(10) },
        mesh: {
          columns: { x: new Float32Array(3), y: new Float32Array(3), z: new Float32Array(3) },
          indices: new Uint32Array([0, 1, 2]),
        },
      },
    ],
  }
  const written = writeOutput(input)

  it('writes every object in the full and the fast dataset', () => {
    expect([...written.full.keys()]).toEqual(['fluid-0', 'wall-1', 'clip-1@fluid-0'])
    expect([...written.fast.keys()]).toEqual(['fluid-0', 'wall-1', 'clip-1@fluid-0'])
    expect(written.full.get('wall-1')).toMatchObject({
      kind: 'wall_boundary',
      dataset: 'full',
      outputNo: 3,
      particleCount: 10,
      triangleCount: 1,
    })
  })

  it('makes the fast dataset the first min(count, max(100k, 10 %)) rows of the full one', () => {
    const full = readObjectStream(written.full.get('fluid-0')!.bytes)
    const fast = readObjectStream(written.fast.get('fluid-0')!.bytes)
    expect(fast.rowCount).toBe(fastParticleCount(particles))
    expect(fast.rowCount).toBe(100_000)
    expect(fast.meta).toMatchObject({
      dataset: 'fast',
      particleCount: 100_000,
      fullParticleCount: particles,
      ordering: 'stratified',
    })
    for (const name of Object.keys(fluidColumns)) {
      expectSameFloats(fast.columns[name], full.columns[name]!.subarray(0, 100_000), name)
    }
  })

  it('keeps each mask aligned with its fluid in both datasets', () => {
    for (const dataset of ['full', 'fast'] as const) {
      const fluid = readObjectStream(written[dataset].get('fluid-0')!.bytes)
      const clip = readObjectStream(written[dataset].get('clip-1@fluid-0')!.bytes)
      expect(clip.meta).toMatchObject({
        objectKind: 'volume_clip',
        targetObjectId: 'fluid-0',
        materialId: 0,
        dataset,
      })
      expect(clip.mask).toHaveLength(fluid.rowCount)
      const x = fluid.columns.x!
      expect(clip.mask!.every((flag, row) => flag === (x[row]! >= threshold ? 1 : 0))).toBe(true)
    }
  })

  it('keeps the mesh in both datasets', () => {
    expect(readObjectStream(written.fast.get('wall-1')!.bytes).mesh!.triangleCount).toBe(1)
  })

  it('refuses a mask whose target is not in the output, or has the wrong length', () => {
    const clip = input.objects[1]!
    expectFormatError(() => writeOutput({ ...input, objects: [clip] }), 'invalid_input')
    expectFormatError(
      () =>
        writeOutput({
          ...input,
          objects: [input.objects[0]!, { ...clip, inside: new Uint8Array(3) } as typeof clip],
        }),
      'invalid_input',
    )
  })

  it('refuses two objects with the same id', () => {
    expectFormatError(
      () => writeOutput({ ...input, objects: [input.objects[2]!, input.objects[2]!] }),
      'invalid_input',
    )
  })
})

describe('writeObjectStream input checks', () => {
  const x = new Float32Array([1, 2])
  it.each([
    ['an unknown column', { x, y: x, z: x, colour: x }],
    ['a missing position column', { x, y: x }],
    ['columns of different lengths', { x, y: x, z: new Float32Array(3) }],
    ['a column that is not Float32', { x, y: x, z: x, pressure: new Uint8Array(2) }],
  ])('refuses %s', (_, columns) => {
    expectFormatError(() => writeObjectStream(columns, META), 'invalid_input')
  })

  it('refuses a mesh index past the last vertex and an incomplete triangle', () => {
    const mesh = { columns: { x, y: x, z: x }, indices: new Uint32Array([0, 1, 2]) }
    expectFormatError(() => writeObjectStream({ x, y: x, z: x }, META, { mesh }), 'invalid_input')
    const short = { columns: { x, y: x, z: x }, indices: new Uint32Array([0, 1]) }
    expectFormatError(
      () => writeObjectStream({ x, y: x, z: x }, META, { mesh: short }),
      'invalid_input',
    )
  })

  it('refuses a mask without a target, with extra columns, or to be reordered', () => {
    const maskMeta = { ...META, objectKind: 'volume_clip' as const, targetObjectId: 'fluid-0' }
    const inside = new Uint8Array([1, 0])
    expectFormatError(
      () => writeObjectStream({ inside }, { ...maskMeta, targetObjectId: null }),
      'invalid_input',
    )
    expectFormatError(() => writeObjectStream({ inside, x }, maskMeta), 'invalid_input')
    expectFormatError(
      () => writeObjectStream({ inside }, maskMeta, { order: 'stratify' }),
      'invalid_input',
    )
  })

  it('refuses metadata that cannot be written faithfully', () => {
    const columns = { x, y: x, z: x }
    expectFormatError(() => writeObjectStream(columns, { ...META, outputNo: -1 }), 'invalid_input')
    expectFormatError(() => writeObjectStream(columns, { ...META, timeS: NaN }), 'invalid_input')
    expectFormatError(() => writeObjectStream(columns, { ...META, objectId: '' }), 'invalid_input')
    expectFormatError(
      () => writeObjectStream(columns, { ...META, simulationId: 1.5 }),
      'invalid_input',
    )
  })
})
