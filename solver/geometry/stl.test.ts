import { describe, expect, it } from 'vitest'
import { buildBoxMesh, checkMeshHealth, computeMeshVolume } from './mesh.ts'
import { encodeAsciiStl, encodeBinaryStl, parseStl, StlError } from './stl.ts'

const box = buildBoxMesh([2, 4, 6])

function errorOf(run: () => unknown): StlError {
  try {
    run()
  } catch (error) {
    if (error instanceof StlError) return error
    throw error
  }
  throw new Error('expected an StlError')
}

describe('parseStl', () => {
  it('reads a binary STL and welds its 36 corners into 8 vertices', () => {
    const mesh = parseStl(encodeBinaryStl(box), 'm')
    expect(mesh.positions.length).toBe(8 * 3)
    expect(mesh.indices.length).toBe(12 * 3)
    expect(checkMeshHealth(mesh).watertight).toBe(true)
    expect(computeMeshVolume(mesh)).toBeCloseTo(48, 4)
  })

  it('reads a binary STL whose header starts with "solid"', () => {
    const mesh = parseStl(encodeBinaryStl(box, 'solid exported by a CAD tool'), 'm')
    expect(mesh.indices.length).toBe(36)
  })

  it('reads an ASCII STL', () => {
    const mesh = parseStl(new TextEncoder().encode(encodeAsciiStl(box)), 'm')
    expect(mesh.positions.length).toBe(24)
    expect(computeMeshVolume(mesh)).toBeCloseTo(48, 4)
  })

  it('reads ASCII coordinates in every decimal notation exactly as Number() does', () => {
    const numbers = ['1', '-2.5', '+0.125', '1e-3', '-4.5E+2', '.5', '3.', '0.1', '123456.789012']
    const text = `solid t\nfacet normal 0 0 0\nouter loop\nvertex ${numbers.slice(0, 3).join(' ')}\nvertex ${numbers.slice(3, 6).join(' ')}\nvertex ${numbers.slice(6, 9).join(' ')}\nendloop\nendfacet\nendsolid t`
    const mesh = parseStl(new TextEncoder().encode(text), 'm')
    expect([...mesh.positions]).toEqual([...Float32Array.from(numbers.map(Number))])
  })

  it('converts millimetres and inches to metres', () => {
    const bytes = encodeBinaryStl(box)
    expect(computeMeshVolume(parseStl(bytes, 'mm'))).toBeCloseTo(48e-9, 12)
    expect(computeMeshVolume(parseStl(bytes, 'in'))).toBeCloseTo(48 * 0.0254 ** 3, 8)
  })

  it('refuses an empty file', () => {
    expect(errorOf(() => parseStl(new Uint8Array(0), 'm')).code).toBe('empty')
  })

  it('refuses a binary STL with no triangles', () => {
    const bytes = new Uint8Array(84)
    expect(errorOf(() => parseStl(bytes, 'm')).message).toBe('The STL file contains no triangles.')
  })

  it('reads a binary STL whose header count was left at 0 from its size', () => {
    const bytes = encodeBinaryStl(box)
    new DataView(bytes.buffer).setUint32(80, 0, true)
    expect(parseStl(bytes, 'm').indices.length).toBe(36)
  })

  it('refuses a truncated binary STL with the counts in the message', () => {
    const bytes = encodeBinaryStl(box).subarray(0, 84 + 50 * 10 + 7)
    const error = errorOf(() => parseStl(bytes, 'm'))
    expect(error.code).toBe('truncated')
    expect(error.message).toContain('12 triangles but only 10')
  })

  it('refuses a truncated ASCII STL', () => {
    const text = encodeAsciiStl(box)
    const cut = new TextEncoder().encode(text.slice(0, text.indexOf('endloop') - 3))
    expect(errorOf(() => parseStl(cut, 'm')).code).toBe('truncated')
  })

  it('refuses NaN and infinite coordinates', () => {
    const bytes = encodeBinaryStl(box)
    new DataView(bytes.buffer).setFloat32(84 + 50 * 3 + 12 + 4, Number.NaN, true)
    expect(errorOf(() => parseStl(bytes, 'm')).code).toBe('invalid_number')
    const text = encodeAsciiStl(box).replace('vertex -1', 'vertex inf')
    const error = errorOf(() => parseStl(new TextEncoder().encode(text), 'm'))
    expect(error.code).toBe('invalid_number')
    expect(error.message).toContain('invalid coordinate')
  })

  it('refuses a file that is not an STL', () => {
    const png = Uint8Array.from([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...new Array(200).fill(7),
    ])
    expect(errorOf(() => parseStl(png, 'm')).code).toBe('not_stl')
    expect(errorOf(() => parseStl(new TextEncoder().encode('hello'), 'm')).code).toBe('not_stl')
  })

  it('drops triangles that collapse after welding', () => {
    const degenerate = {
      positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 0, 0]),
      indices: Uint32Array.from([0, 1, 2]),
    }
    const bytes = new Uint8Array([...encodeBinaryStl(box)])
    const both = new Uint8Array(bytes.length + 50)
    both.set(bytes)
    both.set(encodeBinaryStl(degenerate).subarray(84), bytes.length)
    new DataView(both.buffer).setUint32(80, 13, true)
    expect(parseStl(both, 'm').indices.length).toBe(36)
  })
})
