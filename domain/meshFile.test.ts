import { describe, expect, it } from 'vitest'
import { decodeMeshFile, encodeMeshFile, MeshFileError, type TriangleMesh } from './meshFile.ts'

/** Two triangles of a unit square in the xy-plane, scaled by `size`. */
function buildSquare(size: [number, number, number]): TriangleMesh {
  const [x, y, z] = size
  return {
    positions: new Float32Array([0, 0, 0, x, 0, 0, x, y, z, 0, y, z]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
  }
}

describe('mesh file', () => {
  it('round-trips positions and indices exactly', () => {
    const box = buildSquare([1, 2, 3])
    const decoded = decodeMeshFile(encodeMeshFile(box))
    expect(decoded.positions).toEqual(box.positions)
    expect(decoded.indices).toEqual(box.indices)
  })

  it('reads a mesh from an unaligned slice of a larger buffer', () => {
    const bytes = encodeMeshFile(buildSquare([1, 1, 1]))
    const padded = new Uint8Array(bytes.length + 3)
    padded.set(bytes, 3)
    expect(decodeMeshFile(padded.subarray(3)).indices.length).toBe(6)
  })

  it('refuses a wrong magic, a wrong version, a wrong size and an index past the end', () => {
    const bytes = encodeMeshFile(buildSquare([1, 1, 1]))
    const wrongMagic = bytes.slice()
    wrongMagic[0] = 0
    expect(() => decodeMeshFile(wrongMagic)).toThrow(MeshFileError)
    const wrongVersion = bytes.slice()
    wrongVersion[4] = 9
    expect(() => decodeMeshFile(wrongVersion)).toThrow('version 9')
    expect(() => decodeMeshFile(bytes.subarray(0, bytes.length - 4))).toThrow(MeshFileError)
    const badIndex = bytes.slice()
    new DataView(badIndex.buffer).setUint32(badIndex.length - 4, 99, true)
    expect(() => decodeMeshFile(badIndex)).toThrow('missing vertex')
  })
})
