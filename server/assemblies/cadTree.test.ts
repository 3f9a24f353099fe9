import { describe, expect, it } from 'vitest'
import {
  boxOfLeaves,
  buildImportTree,
  leafMeshIndices,
  linearDeflectionOf,
  mergeMeshes,
  resolveLeaves,
  type OcctMesh,
  type OcctResult,
} from './cadTree.ts'

function mesh(name: string, positions: number[], index: number[]): OcctMesh {
  return { name, attributes: { position: { array: positions } }, index: { array: index } }
}

/** Two triangles of a unit square in z = 0, split into two occt meshes sharing an edge. */
const half1 = mesh('a', [0, 0, 0, 1, 0, 0, 1, 1, 0], [0, 1, 2])
const half2 = mesh('b', [0, 0, 0, 1, 1, 0, 0, 1, 0], [0, 1, 2])

const result: OcctResult = {
  success: true,
  meshes: [half1, half2, mesh('', [2, 2, 2, 3, 3, 3, 4, 4, 4], [0, 1, 2])],
  root: {
    name: '',
    meshes: [],
    children: [
      {
        name: 'top',
        meshes: [],
        children: [
          { name: 'bracket', meshes: [0, 1], children: [] },
          { name: ' ', meshes: [2], children: [] },
          { name: 'empty product', meshes: [], children: [] },
        ],
      },
    ],
  },
}

describe('CAD import tree', () => {
  it('names nodes by product, opens a product of several meshes into one child per mesh', () => {
    const { tree, facts } = buildImportTree(result)
    expect(tree).toEqual([
      {
        entryId: '0',
        labelName: 'top',
        children: [
          {
            entryId: '0:0',
            labelName: 'bracket',
            children: [
              { entryId: '0:0:0', labelName: 'a', children: [] },
              { entryId: '0:0:1', labelName: 'b', children: [] },
            ],
          },
          { entryId: '0:1', labelName: 'Unnamed', children: [] },
          { entryId: '0:2', labelName: 'empty product', children: [] },
        ],
      },
    ])
    expect(facts['0:0:0']).toEqual({ triangles: 1, min: [0, 0, 0], max: [1, 1, 0] })
    expect(facts['0:2']).toEqual({ triangles: 0, min: null, max: null })
    expect([...leafMeshIndices(result)]).toEqual([
      ['0:0:0', 0],
      ['0:0:1', 1],
      ['0:1', 2],
    ])
    expect(resolveLeaves(tree, ['0:0', '0:0:1', 'nope'])).toEqual({
      leaves: ['0:0:0', '0:0:1'],
      unknown: ['nope'],
    })
    expect(boxOfLeaves(facts, ['0:0:0', '0:0:1', '0:2'])).toEqual({
      min: [0, 0, 0],
      max: [1, 1, 0],
    })
  })

  it('welds shared vertices and drops triangles without area', () => {
    const { mesh: merged, degenerateTriangles } = mergeMeshes([
      half1,
      half2,
      mesh('line', [0, 0, 0, 1, 0, 0, 2, 0, 0], [0, 1, 2]),
    ])
    expect(merged.positions.length / 3).toBe(5)
    expect([...merged.indices]).toEqual([0, 1, 2, 0, 2, 3])
    expect(degenerateTriangles).toBe(1)
  })

  it('scales the linear deflection with the part box and the factor, snapped down to a power of √2', () => {
    const box = {
      min: [0, 0, 0] as [number, number, number],
      max: [0.3, 0.3, 0.3] as [number, number, number],
    }
    const exact = 0.3 * 0.001
    const deflection = linearDeflectionOf(box, 1)
    expect(deflection).toBeLessThanOrEqual(exact)
    expect(deflection).toBeGreaterThan(exact / Math.SQRT2)
    expect(Math.log2(deflection) * 2).toBeCloseTo(Math.round(Math.log2(deflection) * 2), 9)
    expect(linearDeflectionOf(box, 10)).toBeGreaterThan(deflection * 5)
    // Boxes of about the same size share a deflection, so one read of the file serves both.
    const near = { min: box.min, max: [0.31, 0.3, 0.29] as [number, number, number] }
    expect(linearDeflectionOf(near, 1)).toBe(deflection)
    expect(linearDeflectionOf({ min: [0, 0, 0], max: [0, 0, 0] }, 1)).toBeGreaterThan(0)
  })
})
