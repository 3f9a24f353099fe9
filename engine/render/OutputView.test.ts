import { BufferAttribute } from 'three'
import { describe, expect, it } from 'vitest'
import type { ColumnSlice, RenderableOutput } from '../protocol.ts'
import {
  colourDataRange,
  estimateParticleSpacing,
  magnitudeRange,
  viewColumns,
} from './outputColumns.ts'
import { PARTICLE_WALL_OPACITY } from './outputMaterials.ts'
import { defaultObjectDisplay, OutputView, type SharedUniforms } from './OutputView.ts'
import { COLOUR_MODES, POINT_SHAPES } from './shaders.ts'

const shared = {
  uLut: { value: null },
  uSchemeRow: { value: 0 },
  uSchemeCount: { value: 7 },
  uRange: { value: null },
  uClipPlane: { value: null },
  uClipEnabled: { value: false },
  uPointSizeMaxPx: { value: 15 },
  uPixelsPerMetre: { value: 1 },
  uOrthographic: { value: false },
} satisfies SharedUniforms

function columnsIn(buffer: ArrayBuffer, names: string[], count: number, offset = 0): ColumnSlice[] {
  return names.map((name, c) => {
    const byteOffset = offset + c * count * 4
    const values = new Float32Array(buffer, byteOffset, count)
    values.forEach(
      (_, i) => (values[i] = name === 'x' ? i : name === 'vx' ? 3 : name === 'vy' ? 4 : 0),
    )
    return { name, byteOffset, length: count, range: { min: 0, max: count - 1 }, unit: '' }
  })
}

function output(): RenderableOutput {
  const count = 10
  const fluidBuffer = new ArrayBuffer(count * 4 * 6)
  const meshBuffer = new ArrayBuffer(4 * 4 * 4 + 6 * 4)
  const meshColumns = columnsIn(meshBuffer, ['x', 'y', 'z', 'pressure'], 4)
  new Uint32Array(meshBuffer, 64, 6).set([0, 1, 2, 0, 2, 3])
  return {
    key: { simulationId: 1, runId: 1, outputNo: 0 },
    timeS: 0,
    dataset: 'full',
    objects: [
      {
        objectId: 'water',
        kind: 'fluid',
        name: 'Water',
        dataset: 'full',
        particleCount: count,
        buffer: fluidBuffer,
        columns: columnsIn(fluidBuffer, ['x', 'y', 'z', 'vx', 'vy', 'vz'], count),
        mesh: null,
      },
      {
        objectId: 'tank',
        kind: 'wall_boundary',
        name: 'Tank',
        dataset: 'full',
        particleCount: 0,
        buffer: new ArrayBuffer(0),
        columns: [],
        mesh: {
          buffer: meshBuffer,
          columns: meshColumns,
          indices: { byteOffset: 64, length: 6 },
          triangleCount: 2,
        },
      },
    ],
  }
}

describe('output view', () => {
  it('views columns in the transferred buffer without copying them', () => {
    const data = output()
    const view = new OutputView(data, shared)
    const water = view.objects[0]!
    const px = water.points!.geometry.getAttribute('px') as BufferAttribute
    expect(px.array.buffer).toBe(data.objects[0]!.buffer)
    expect(px.itemSize).toBe(1)
    expect(view.objects[1]!.mesh!.geometry.index!.count).toBe(6)
  })

  it('skips column slices that lie outside the buffer or are misaligned', () => {
    const buffer = new ArrayBuffer(16)
    const views = viewColumns(buffer, [
      { name: 'a', byteOffset: 0, length: 4, range: null, unit: '' },
      { name: 'b', byteOffset: 8, length: 4, range: null, unit: '' },
      { name: 'c', byteOffset: 2, length: 1, range: null, unit: '' },
    ])
    expect([...views.keys()]).toEqual(['a'])
  })

  it('colours objects that have the columns and leaves the others their base colour', () => {
    const view = new OutputView(output(), shared)
    expect(view.bindColour(['pressure'])).toBe(true)
    expect(view.objects[0]!.points!.material.uniforms.uColourMode!.value).toBe(COLOUR_MODES.none)
    expect(view.objects[1]!.mesh!.material.uniforms.uColourMode!.value).toBe(COLOUR_MODES.scalar)
    expect(view.bindColour(['vx', 'vy', 'vz'])).toBe(true)
    expect(view.objects[0]!.points!.material.uniforms.uColourMode!.value).toBe(
      COLOUR_MODES.magnitude,
    )
    expect(view.bindColour(['temperature'])).toBe(false)
    expect(colourDataRange(view, ['vx', 'vy', 'vz'])).toEqual({ min: 5, max: 5 })
  })

  it('applies shapes and hides particles of hidden materials and of walls drawn as meshes', () => {
    const view = new OutputView(output(), shared)
    view.applyDisplay((id) =>
      id === 'water'
        ? { ...defaultObjectDisplay(), materialMode: 'particles_outlined_circles' }
        : defaultObjectDisplay(),
    )
    const points = view.objects[0]!.points!
    expect(points.visible).toBe(true)
    expect(points.material.uniforms.uShape!.value).toBe(POINT_SHAPES.outlinedCircles)
    view.applyDisplay((id) =>
      id === 'water'
        ? { ...defaultObjectDisplay(), materialMode: 'hidden' }
        : defaultObjectDisplay(),
    )
    expect(points.visible).toBe(false)
  })

  it('hides the particles of a wall without a mesh when its part is hidden', () => {
    const data = output()
    const water = data.objects[0]!
    data.objects.push({ ...water, objectId: 'rim', kind: 'wall_boundary', name: 'Rim' })
    const view = new OutputView(data, shared)
    const rim = view.objects[2]!.points!
    view.applyDisplay(() => defaultObjectDisplay())
    expect(rim.visible).toBe(true)
    view.applyDisplay((id) =>
      id === 'rim' ? { ...defaultObjectDisplay(), partVisible: false } : defaultObjectDisplay(),
    )
    expect(rim.visible).toBe(false)
    expect(view.objects[0]!.points!.visible).toBe(true)
  })

  it('draws a wall without a mesh faintly in translucent and wireframe views, so the fluid inside shows', () => {
    const data = output()
    const water = data.objects[0]!
    data.objects.push({ ...water, objectId: 'rim', kind: 'wall_boundary', name: 'Rim' })
    const view = new OutputView(data, shared)
    const rim = view.objects[2]!.points!
    const fluid = view.objects[0]!.points!
    const withRim = (partMode: 'surface' | 'wireframe' | 'translucent') =>
      view.applyDisplay((id) =>
        id === 'rim' ? { ...defaultObjectDisplay(), partMode } : defaultObjectDisplay(),
      )
    withRim('translucent')
    expect(rim.material.uniforms.uOpacity!.value).toBe(PARTICLE_WALL_OPACITY.translucent)
    expect(rim.material.transparent).toBe(true)
    expect(rim.material.depthWrite).toBe(false)
    expect(rim.renderOrder).toBeGreaterThan(fluid.renderOrder)
    withRim('wireframe')
    expect(rim.material.uniforms.uShape!.value).toBe(POINT_SHAPES.outlinedCircles)
    expect(rim.material.uniforms.uOpacity!.value).toBe(PARTICLE_WALL_OPACITY.wireframe)
    withRim('surface')
    expect(rim.material.uniforms.uOpacity!.value).toBe(1)
    expect(rim.material.transparent).toBe(false)
    expect(rim.material.depthWrite).toBe(true)
    expect(fluid.material.uniforms.uOpacity!.value).toBe(1)
  })

  it('draws a wireframe as the mesh edges over the same position buffers, and translucent without depth writes', () => {
    const view = new OutputView(output(), shared)
    const tank = view.objects[1]!
    const added = view.applyDisplay((id) =>
      id === 'tank' ? { ...defaultObjectDisplay(), partMode: 'wireframe' } : defaultObjectDisplay(),
    )
    expect(added).toBe(true)
    expect(tank.mesh!.visible).toBe(false)
    expect(tank.wireframe!.visible).toBe(true)
    expect(Array.from(tank.wireframe!.geometry.index!.array)).toEqual([
      0, 1, 1, 2, 2, 0, 0, 2, 2, 3, 3, 0,
    ])
    expect(tank.wireframe!.geometry.getAttribute('px')).toBe(tank.mesh!.geometry.getAttribute('px'))
    expect(view.sceneObjects()).toContain(tank.wireframe)
    view.applyDisplay((id) =>
      id === 'tank'
        ? { ...defaultObjectDisplay(), partMode: 'translucent' }
        : defaultObjectDisplay(),
    )
    expect(tank.mesh!.visible).toBe(true)
    expect(tank.wireframe!.visible).toBe(false)
    expect(tank.mesh!.material.transparent).toBe(true)
    expect(tank.mesh!.material.depthWrite).toBe(false)
  })

  it('sets draw ranges and enlarges points drawn from a fraction', () => {
    const view = new OutputView(output(), shared)
    view.setDrawCounts(new Map([['water', 5]]), 1)
    const points = view.objects[0]!.points!
    expect(points.geometry.drawRange.count).toBe(5)
    expect(points.material.uniforms.uPointScale!.value).toBeCloseTo(Math.cbrt(2))
    expect(view.objects[1]!.mesh!.geometry.drawRange.count).toBe(3)
  })

  it('frees every geometry on dispose', () => {
    const view = new OutputView(output(), shared)
    view.applyDisplay(() => ({ ...defaultObjectDisplay(), partMode: 'wireframe' }))
    const disposed: string[] = []
    view.objects[0]!.points!.geometry.addEventListener('dispose', () => disposed.push('points'))
    view.objects[1]!.mesh!.geometry.addEventListener('dispose', () => disposed.push('mesh'))
    view.objects[1]!.wireframe!.geometry.addEventListener('dispose', () => disposed.push('wire'))
    view.dispose()
    expect(disposed.sort()).toEqual(['mesh', 'points', 'wire'])
  })

  it('estimates the particle spacing from bounds and count, in 3D and in flat data', () => {
    expect(estimateParticleSpacing({ min: [0, 0, 0], max: [1, 1, 1] }, 1000)).toBeCloseTo(0.1)
    expect(estimateParticleSpacing({ min: [0, 0, 0], max: [1, 1, 0] }, 100)).toBeCloseTo(0.1)
    expect(estimateParticleSpacing(null, 10)).toBe(0.01)
  })

  it('computes magnitude ranges ignoring NaN and infinite vectors', () => {
    const a = Float32Array.from([3, NaN, Infinity, 0])
    const b = Float32Array.from([4, 1, 0, 0])
    const c = Float32Array.from([0, 1, 0, 0])
    expect(magnitudeRange([a, b, c], 4)).toEqual({ min: 0, max: 5 })
    expect(magnitudeRange([a, b, c], 0)).toBeNull()
  })
})
