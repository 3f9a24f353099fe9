import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { POINTS_PER_CHUNK, logCsv, stlChunks, vtuChunks, type VtuInput } from './vtkFiles.ts'
import { parseBinaryStl, parseVtu } from './vtuParser.ts'

function concat(chunks: Iterable<Uint8Array>): Uint8Array {
  const parts = [...chunks]
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    bytes.set(part, offset)
    offset += part.length
  }
  return bytes
}

function particles(count: number): VtuInput {
  const column = (f: (i: number) => number) => Float32Array.from({ length: count }, (_, i) => f(i))
  return {
    x: column((i) => i * 0.01),
    y: column((i) => Math.sin(i)),
    z: column(() => 0.5),
    arrays: [
      { name: 'pressure', components: [column((i) => 1000 + i)] },
      {
        name: 'velocity',
        components: [column((i) => i), column((i) => -i), column((i) => i / 2)],
      },
    ],
    timeS: 0.25,
  }
}

/** VTK's own XML reader (the one ParaView uses), where this machine has its Python module. */
const vtkPython = '/usr/bin/python3'
const hasVtk = spawnSync(vtkPython, ['-c', 'import vtk'], { stdio: 'ignore' }).status === 0

describe('export file formats', () => {
  it('writes a VTU whose points, vertex cells, arrays and time read back, across chunk borders', () => {
    const count = POINTS_PER_CHUNK + 17
    const input = particles(count)
    const vtu = parseVtu(concat(vtuChunks(input)))
    expect(vtu).toMatchObject({
      byteOrder: 'LittleEndian',
      headerType: 'UInt64',
      numberOfPoints: count,
      numberOfCells: count,
      timeS: 0.25,
    })
    for (const i of [0, POINTS_PER_CHUNK - 1, POINTS_PER_CHUNK, count - 1]) {
      expect(vtu.points.values[i * 3]).toBe(input.x[i])
      expect(vtu.points.values[i * 3 + 1]).toBe(input.y[i])
      expect(vtu.pointData.velocity!.values[i * 3 + 1]).toBe(-i)
      expect(vtu.pointData.pressure!.values[i]).toBe(1000 + i)
      expect(vtu.cells.connectivity!.values[i]).toBe(i)
      expect(vtu.cells.offsets!.values[i]).toBe(i + 1)
    }
    expect(vtu.cells.types!.values.every((type) => type === 1)).toBe(true)
  })

  it('writes an empty VTU for an object without particles', () => {
    const vtu = parseVtu(concat(vtuChunks({ ...particles(0), arrays: [] })))
    expect(vtu.numberOfPoints).toBe(0)
    expect(vtu.points.values).toHaveLength(0)
  })

  it('refuses an array whose length is not the point count', () => {
    const input = particles(3)
    expect(() => [
      ...vtuChunks({
        ...input,
        arrays: [{ name: 'pressure', components: [new Float32Array(2)] }],
      }),
    ]).toThrow(/pressure/)
  })

  it('escapes array names in the XML header', () => {
    const input = particles(2)
    const vtu = parseVtu(
      concat(
        vtuChunks({ ...input, arrays: [{ name: 'a"<b>', components: [new Float32Array(2)] }] }),
      ),
    )
    expect(Object.keys(vtu.pointData)).toEqual(['a&#34;&#60;b&#62;'])
  })

  it('writes a binary STL with unit normals from the vertex order', () => {
    const stl = concat(
      stlChunks({
        x: new Float32Array([0, 1, 0]),
        y: new Float32Array([0, 0, 1]),
        z: new Float32Array([0, 0, 0]),
        indices: new Uint32Array([0, 1, 2]),
        title: 'solid tank',
      }),
    )
    expect(new TextDecoder().decode(stl.subarray(0, 5))).not.toBe('solid')
    expect(parseBinaryStl(stl)).toEqual({
      triangleCount: 1,
      vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
    })
    const normal = new DataView(stl.buffer, 84, 12)
    expect([0, 4, 8].map((o) => normal.getFloat32(o, true))).toEqual([0, 0, 1])
  })

  it('writes log lines as ; separated CSV over the union of their keys, quoting where needed', () => {
    expect(
      logCsv([
        { a: 1, b: 'x;y' },
        { b: 'say "hi"', c: { d: 1 } },
      ]),
    ).toBe('a;b;c\n1;"x;y";\n;"say ""hi""";"{""d"":1}"\n')
  })

  it.skipIf(!hasVtk)('writes a VTU and an STL that VTK (ParaView) reads', () => {
    const directory = mkdtempSync(join(tmpdir(), 'dive-vtk-'))
    try {
      const input = particles(1000)
      writeFileSync(join(directory, 'a.vtu'), concat(vtuChunks(input)))
      writeFileSync(
        join(directory, 'a.stl'),
        concat(
          stlChunks({
            x: new Float32Array([0, 1, 0, 0]),
            y: new Float32Array([0, 0, 1, 0]),
            z: new Float32Array([0, 0, 0, 1]),
            indices: new Uint32Array([0, 1, 2, 0, 1, 3]),
            title: 'tank',
          }),
        ),
      )
      const script = `
import vtk, json, sys
r = vtk.vtkXMLUnstructuredGridReader(); r.SetFileName(sys.argv[1] + '/a.vtu'); r.Update()
g = r.GetOutput(); pd = g.GetPointData()
s = vtk.vtkSTLReader(); s.SetFileName(sys.argv[1] + '/a.stl'); s.Update()
print(json.dumps({
  'points': g.GetNumberOfPoints(), 'cells': g.GetNumberOfCells(), 'cellType': g.GetCellType(999),
  'arrays': [pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays())],
  'pressure': pd.GetArray('pressure').GetValue(999), 'velocity': pd.GetArray('velocity').GetTuple3(10),
  'point': g.GetPoint(10), 'time': g.GetFieldData().GetArray('TimeValue').GetValue(0),
  'triangles': s.GetOutput().GetNumberOfCells()}))
`
      const run = spawnSync(vtkPython, ['-c', script, directory], { encoding: 'utf8' })
      expect(run.stderr).toBe('')
      const read = JSON.parse(run.stdout) as Record<string, unknown>
      expect(read).toMatchObject({
        points: 1000,
        cells: 1000,
        cellType: 1,
        arrays: ['pressure', 'velocity'],
        pressure: 1999,
        velocity: [10, -10, 5],
        time: 0.25,
        triangles: 2,
      })
      expect((read.point as number[])[1]).toBeCloseTo(Math.sin(10), 6)
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })
})
