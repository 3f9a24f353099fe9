import { describe, expect, it } from 'vitest'
import { buildBoxMesh, transformMesh, type TriangleMesh } from '../geometry/mesh.ts'
import { INSIDE_VOTES, computeInsideVotes, estimateThickness } from './inside.ts'
import { subGridOfBox } from './lattice.ts'

const unitBox = transformMesh(buildBoxMesh([1, 1, 1]), {
  translation: [0.5, 0.5, 0.5],
  rotation: [0, 0, 0],
  scale: [1, 1, 1],
  flipNormals: false,
})

function countInside(mesh: TriangleMesh, dp: number): number {
  const grid = subGridOfBox({ min: [-0.5, -0.5, -0.5], max: [1.5, 1.5, 1.5] }, dp)
  return computeInsideVotes(mesh, grid).filter((v) => v >= INSIDE_VOTES).length
}

function dropTriangles(mesh: TriangleMesh, triangles: number[]): TriangleMesh {
  const indices = [...mesh.indices].filter((_, i) => !triangles.includes(Math.floor(i / 3)))
  return { positions: mesh.positions, indices: Uint32Array.from(indices) }
}

describe('inside test', () => {
  it('gives a closed box all six votes inside and none outside', () => {
    const grid = subGridOfBox({ min: [-0.5, -0.5, -0.5], max: [1.5, 1.5, 1.5] }, 0.1)
    const votes = computeInsideVotes(unitBox, grid)
    expect(new Set(votes)).toEqual(new Set([0, 6]))
    expect(votes.filter((v) => v === 6).length).toBe(1000)
  })

  it('counts sites on shared edges and vertices once (columns through vertices)', () => {
    // dp 0.2 puts column lines at 0.1, 0.3 …; a box from 0.1 to 0.9 has its edges on them
    const box = transformMesh(buildBoxMesh([0.8, 0.8, 0.8]), {
      translation: [0.5, 0.5, 0.5],
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
      flipNormals: false,
    })
    const grid = subGridOfBox({ min: [-0.5, -0.5, -0.5], max: [1.5, 1.5, 1.5] }, 0.2)
    const votes = computeInsideVotes(box, grid)
    const coordinate = (index: number) => (index + grid.i0 + 0.5) * 0.2
    const strictlyInside = (c: number) => c > 0.15 && c < 0.85
    const strictlyOutside = (c: number) => c < 0.05 || c > 0.95
    let checked = 0
    votes.forEach((v, s) => {
      const c = [
        s % grid.nx,
        Math.floor(s / grid.nx) % grid.ny,
        Math.floor(s / (grid.nx * grid.ny)),
      ]
      const xyz = c.map(coordinate)
      if (xyz.every(strictlyInside)) {
        expect(v).toBe(6)
        checked++
      }
      if (xyz.some(strictlyOutside)) expect(v).toBe(0)
    })
    expect(checked).toBe(27)
  })

  it('fills a box with a missing triangle or a missing face like the closed box', () => {
    expect(countInside(dropTriangles(unitBox, [2]), 0.1)).toBe(1000)
    expect(countInside(dropTriangles(unitBox, [2, 3]), 0.1)).toBe(1000)
  })

  it('counts the overlap of two overlapping shells as inside', () => {
    const second = transformMesh(unitBox, {
      translation: [0.5, 0, 0],
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
      flipNormals: false,
    })
    const both: TriangleMesh = {
      positions: Float32Array.from([...unitBox.positions, ...second.positions]),
      indices: Uint32Array.from([...unitBox.indices, ...[...second.indices].map((i) => i + 8)]),
    }
    expect(countInside(both, 0.1)).toBe(1500)
  })

  it('estimates the thickness of a plate along its thin axis', () => {
    const plate = buildBoxMesh([1, 1, 0.05])
    const grid = subGridOfBox({ min: [-0.6, -0.6, -0.6], max: [0.6, 0.6, 0.6] }, 0.01)
    expect(estimateThickness(plate, grid)).toBeCloseTo(0.05, 6)
  })
})
