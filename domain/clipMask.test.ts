import { describe, expect, it } from 'vitest'
import { ClipMaskError, computeClipMask } from './clipMask.ts'
import { defaultMesh, type Mesh } from './meshes.ts'

function points(list: [number, number, number][]) {
  return {
    x: Float32Array.from(list.map((p) => p[0])),
    y: Float32Array.from(list.map((p) => p[1])),
    z: Float32Array.from(list.map((p) => p[2])),
  }
}

function maskOf(mesh: Mesh, list: [number, number, number][], inverted = false): number[] {
  const { x, y, z } = points(list)
  const out = new Uint8Array(list.length)
  const count = computeClipMask(mesh, inverted, x, y, z, out)
  expect(count).toBe(out.reduce((sum, v) => sum + v, 0))
  return [...out]
}

describe('computeClipMask', () => {
  it('keeps the particles inside a cube placed by center and translation, and the others when inverted', () => {
    const cube: Mesh = {
      ...(defaultMesh('cube') as Extract<Mesh, { kind: 'cube' }>),
      dimensions: [2, 1, 1],
      center: [1, 0, 0],
      translation: [0, 0, 1],
    }
    const list: [number, number, number][] = [
      [1, 0, 1],
      [1.9, 0.4, 1.4],
      [2.1, 0, 1],
      [1, 0, 0],
    ]
    expect(maskOf(cube, list)).toEqual([1, 1, 0, 0])
    expect(maskOf(cube, list, true)).toEqual([0, 0, 1, 1])
  })

  it('rotates and scales the shape like a three.js object (XYZ Euler angles in degrees)', () => {
    const cube: Mesh = {
      ...(defaultMesh('cube') as Extract<Mesh, { kind: 'cube' }>),
      dimensions: [4, 1, 1],
      rotation: [0, 0, 90],
    }
    // Turned a quarter about z, the long edge runs along y.
    expect(
      maskOf(cube, [
        [0, 1.9, 0],
        [1.9, 0, 0],
      ]),
    ).toEqual([1, 0])
    const scaled: Mesh = { ...cube, rotation: [0, 0, 0], scale: [1, 3, 1] }
    expect(
      maskOf(scaled, [
        [0, 1.4, 0],
        [0, 1.6, 0],
      ]),
    ).toEqual([1, 0])
  })

  it('tests a sphere by its radius and a cylinder along its axis', () => {
    const sphere: Mesh = {
      ...(defaultMesh('sphere') as Extract<Mesh, { kind: 'sphere' }>),
      radius: 1,
    }
    expect(
      maskOf(sphere, [
        [0.7, 0.7, 0],
        [0.8, 0.8, 0],
      ]),
    ).toEqual([1, 0])
    const cylinder: Mesh = {
      ...(defaultMesh('cylinder') as Extract<Mesh, { kind: 'cylinder' }>),
      radius: 0.5,
      height: 2,
      axis: [1, 0, 0],
    }
    expect(
      maskOf(cylinder, [
        [0.9, 0.4, 0],
        [1.1, 0, 0],
        [0, 0.3, 0.35],
        [0, 0.4, 0.4],
      ]),
    ).toEqual([1, 0, 1, 0])
  })

  it('clips to the half-space on the normal side of a plane, beyond its offset', () => {
    const plane: Mesh = {
      ...(defaultMesh('plane') as Extract<Mesh, { kind: 'plane' }>),
      normal: [0, 0, 2],
      height: 0.5,
    }
    expect(
      maskOf(plane, [
        [5, 5, 0.6],
        [0, 0, 0.4],
        [-9, 3, 10],
      ]),
    ).toEqual([1, 0, 1])
    expect(
      maskOf({ ...plane, flipNormals: true }, [
        [0, 0, 0.6],
        [0, 0, 0.4],
      ]),
    ).toEqual([0, 1])
  })

  it('returns 0 inside for a clip that holds no particle', () => {
    const sphere: Mesh = {
      ...(defaultMesh('sphere') as Extract<Mesh, { kind: 'sphere' }>),
      center: [9, 9, 9],
    }
    expect(
      maskOf(sphere, [
        [0, 0, 0],
        [1, 1, 1],
      ]),
    ).toEqual([0, 0])
  })

  it('refuses kinds it cannot compute and degenerate sizes with a clear error', () => {
    const { x, y, z } = points([[0, 0, 0]])
    const out = new Uint8Array(1)
    expect(() => computeClipMask(defaultMesh('complex'), false, x, y, z, out)).toThrow(
      new ClipMaskError(
        'A volume clip of kind complex cannot be computed; use cube, sphere, cylinder, plane.',
      ),
    )
    const flat: Mesh = {
      ...(defaultMesh('sphere') as Extract<Mesh, { kind: 'sphere' }>),
      radius: 0,
    }
    expect(() => computeClipMask(flat, false, x, y, z, out)).toThrow(/radius must be a positive/)
    const zeroScale: Mesh = { ...defaultMesh('cube'), scale: [1, 0, 1] }
    expect(() => computeClipMask(zeroScale, false, x, y, z, out)).toThrow(/scale must not be zero/)
  })
})
