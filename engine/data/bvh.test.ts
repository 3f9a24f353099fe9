import { describe, expect, it } from 'vitest'
import { buildBvh, raycastBvh, readBvh, type RaycastStats, type Ray } from './bvh.ts'

/** A flat grid of n × n quads (2n² triangles) in the z = 0 plane over [0, 1]². */
function grid(n: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array((n + 1) * (n + 1) * 3)
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) positions.set([i / n, j / n, 0], (j * (n + 1) + i) * 3)
  const indices = new Uint32Array(n * n * 6)
  let k = 0
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i
      indices.set([a, a + 1, a + n + 2, a, a + n + 2, a + n + 1], k)
      k += 6
    }
  return { positions, indices }
}

/** Brute force: the nearest hit over every triangle. */
function bruteForce(positions: Float32Array, indices: Uint32Array, ray: Ray): number | null {
  const one = buildBvh(positions, indices.slice(0, 0))
  expect(one.indices.length).toBe(0)
  let best: number | null = null
  for (let t = 0; t < indices.length / 3; t++) {
    const single = indices.slice(t * 3, t * 3 + 3)
    const built = buildBvh(positions, single)
    const hit = raycastBvh(readBvh(built.buffer), positions, built.indices, ray)
    if (hit !== null && (best === null || hit.t < best)) best = hit.t
  }
  return best
}

describe('triangle BVH', () => {
  it('keeps every triangle, reordered into leaves', () => {
    const { positions, indices } = grid(20)
    const built = buildBvh(positions, indices)
    const key = (array: Uint32Array) => {
      const triangles: string[] = []
      for (let t = 0; t < array.length / 3; t++)
        triangles.push([...array.slice(t * 3, t * 3 + 3)].join(','))
      return triangles.sort()
    }
    expect(key(built.indices)).toEqual(key(indices))
    const view = readBvh(built.buffer)
    expect(view.triangleCount).toBe(800)
    expect(view.nodeCount).toBeGreaterThan(1)
  })

  it('finds the nearest hit like a brute-force search, from either side', () => {
    // Two parallel grids at z = 0 and z = 0.5: the nearer one must win from both sides.
    const a = grid(6)
    const positions = new Float32Array(a.positions.length * 2)
    positions.set(a.positions)
    for (let i = 0; i < a.positions.length; i += 3)
      positions.set([a.positions[i]!, a.positions[i + 1]!, 0.5], a.positions.length + i)
    const offset = a.positions.length / 3
    const indices = new Uint32Array(a.indices.length * 2)
    indices.set(a.indices)
    indices.set(
      a.indices.map((index) => index + offset),
      a.indices.length,
    )
    const built = buildBvh(positions, indices)
    const view = readBvh(built.buffer)
    for (const ray of [
      { origin: [0.3, 0.7, 2], direction: [0, 0, -1] },
      { origin: [0.3, 0.7, -2], direction: [0, 0, 1] },
      { origin: [-1, -1, 3], direction: [1.2, 1.4, -3] },
      { origin: [2, 2, 2], direction: [1, 1, 1] },
    ] satisfies Ray[]) {
      const hit = raycastBvh(view, positions, built.indices, ray)
      const expected = bruteForce(positions, indices, ray)
      if (expected === null) expect(hit).toBeNull()
      else expect(hit?.t).toBeCloseTo(expected, 6)
    }
    const top = raycastBvh(view, positions, built.indices, {
      origin: [0.3, 0.7, 2],
      direction: [0, 0, -1],
    })
    expect(top?.point[2]).toBeCloseTo(0.5)
  })

  it('skips hits the filter refuses (a clip plane) and takes the next one behind', () => {
    const { positions, indices } = grid(4)
    const layered = new Float32Array([
      ...positions,
      ...positions.map((v, i) => (i % 3 === 2 ? 1 : v)),
    ])
    const count = positions.length / 3
    const both = new Uint32Array([...indices, ...indices.map((i) => i + count)])
    const built = buildBvh(layered, both)
    const ray: Ray = { origin: [0.5, 0.5, 5], direction: [0, 0, -1] }
    const keepBelow = (_x: number, _y: number, z: number) => z <= 0.5
    const hit = raycastBvh(readBvh(built.buffer), layered, built.indices, ray, keepBelow)
    expect(hit?.point[2]).toBeCloseTo(0)
  })

  it('answers a ray over a million triangles after testing only a few hundred of them', () => {
    const { positions, indices } = grid(708) // 1,002,528 triangles
    const built = buildBvh(positions, indices)
    const stats: RaycastStats = { nodesVisited: 0, trianglesTested: 0 }
    const hit = raycastBvh(
      readBvh(built.buffer),
      positions,
      built.indices,
      { origin: [0.4321, 0.1234, 1], direction: [0.01, 0.02, -1] },
      null,
      stats,
    )
    expect(hit).not.toBeNull()
    expect(hit!.point[0]).toBeCloseTo(0.4421, 4)
    expect(stats.trianglesTested).toBeLessThan(500)
    expect(stats.nodesVisited).toBeLessThan(500)
  })

  it('misses cleanly: a ray past the mesh, and a ray pointing away', () => {
    const { positions, indices } = grid(3)
    const built = buildBvh(positions, indices)
    const view = readBvh(built.buffer)
    expect(
      raycastBvh(view, positions, built.indices, { origin: [2, 2, 1], direction: [0, 0, -1] }),
    ).toBeNull()
    expect(
      raycastBvh(view, positions, built.indices, { origin: [0.5, 0.5, 1], direction: [0, 0, 1] }),
    ).toBeNull()
  })

  it('refuses a buffer that is not a hierarchy', () => {
    expect(() => readBvh(new ArrayBuffer(64))).toThrow('Not a BVH.')
  })
})
