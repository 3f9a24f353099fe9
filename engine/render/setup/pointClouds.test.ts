import { Color, Points, type BufferGeometry, type ShaderMaterial } from 'three'
import { afterEach, describe, expect, it } from 'vitest'
import {
  INTERACTION_SUBSET_POINTS,
  INTERACTION_SUBSET_THRESHOLD,
} from '../../../domain/constants.ts'
import type { SetupObjectView } from '../../setupProtocol.ts'
import {
  createSetupHarness,
  partView,
  type ServedResource,
  type SetupHarness,
} from './setupHarness.ts'
import { lightenColour, SETUP_SIZES_PX, WALL_PARTICLE_LIGHTEN } from './SetupNode.ts'

const harnesses: SetupHarness[] = []
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose()
})

/** `count` points spread over the unit cube, in lattice order (as a discretization writes them). */
function lattice(count: number, offsetX = 0): number[] {
  const side = Math.ceil(Math.cbrt(count))
  const points: number[] = []
  for (let i = 0; i < count; i++) {
    const a = i % side
    const b = Math.floor(i / side) % side
    const c = Math.floor(i / (side * side))
    points.push(offsetX + a / side, b / side, c / side)
  }
  return points
}

/** A part without a mesh whose discretized point cloud is served at /pc/{id}. */
function cloudPart(
  id: string,
  count: number,
  overrides: Partial<SetupObjectView> & { role?: 'fluid' | 'wall' } = {},
): SetupObjectView {
  const { role, ...rest } = overrides
  return {
    ...partView(id, id, [0, 0, 0]),
    geometry: { type: 'none' },
    pointcloud: { url: `/pc/${id}`, hash: id, count, visible: true, ...(role ? { role } : {}) },
    ...rest,
  }
}

async function start(
  objects: SetupObjectView[],
  clouds: Record<string, number[]>,
): Promise<SetupHarness> {
  const served = new Map<string, ServedResource>(
    Object.entries(clouds).map(([id, points]) => [`/pc/${id}`, { points }]),
  )
  const harness = await createSetupHarness(served)
  harnesses.push(harness)
  harness.engine.dispatch({ type: 'setup_objects', objects, endTimeS: null })
  await harness.flush()
  return harness
}

function cloudsOf(harness: SetupHarness): Points<BufferGeometry, ShaderMaterial>[] {
  return harness
    .objects()
    .filter(
      (o): o is Points<BufferGeometry, ShaderMaterial> =>
        o instanceof Points &&
        (o as Points<BufferGeometry, ShaderMaterial>).geometry.getAttribute('position').count > 1,
    )
}

function hexOf(material: ShaderMaterial): string {
  return `#${(material.uniforms.uColour!.value as Color).getHexString()}`
}

describe('setup point clouds', () => {
  it('draws 100,000 of 1,000,000 or more visible points while the camera moves, then all', async () => {
    const counts = { 'part:1': 700_000, 'part:2': 400_000 }
    expect(counts['part:1'] + counts['part:2']).toBeGreaterThanOrEqual(INTERACTION_SUBSET_THRESHOLD)
    const harness = await start(
      [cloudPart('part:1', counts['part:1']), cloudPart('part:2', counts['part:2'])],
      { 'part:1': lattice(counts['part:1']), 'part:2': lattice(counts['part:2'], 2) },
    )
    expect(harness.last().pointsDrawn).toBe(1_100_000)
    const clouds = cloudsOf(harness)
    const sizesAtRest = clouds.map((cloud) => cloud.material.uniforms.uSizePx!.value as number)
    // An orbit: press, drag.
    harness.pointer('pointerdown', 200, 150)
    harness.pointer('pointermove', 240, 150)
    await harness.advance(16)
    expect(harness.last().pointsDrawn).toBe(INTERACTION_SUBSET_POINTS)
    const drawn = clouds.map((cloud) => cloud.geometry.drawRange.count)
    // Shared in proportion to the clouds' sizes.
    expect(drawn[0]! / drawn[1]!).toBeCloseTo(7 / 4, 1)
    // Drawn bigger so the subset still looks filled.
    clouds.forEach((cloud, i) =>
      expect(cloud.material.uniforms.uSizePx!.value).toBeGreaterThan(sizesAtRest[i]!),
    )
    harness.pointer('pointerup', 240, 150)
    await harness.advance(1000)
    expect(harness.last().pointsDrawn).toBe(1_100_000)
    expect(clouds.map((cloud) => cloud.material.uniforms.uSizePx!.value as number)).toEqual(
      sizesAtRest,
    )
  })

  it('draws every point of a smaller cloud while the camera moves', async () => {
    const harness = await start([cloudPart('part:1', 50_000)], { 'part:1': lattice(50_000) })
    harness.pointer('pointerdown', 200, 150)
    harness.pointer('pointermove', 240, 150)
    await harness.advance(16)
    expect(harness.last().pointsDrawn).toBe(50_000)
  })

  it("draws a fluid's particles in its colour, a wall's smaller and lighter, a translucent part's translucent", async () => {
    const colour = '#e03131'
    const appearance = (translucent: boolean) => ({
      color: colour,
      opacity: 1,
      wireframe: false,
      translucent,
      visible: true,
    })
    const harness = await start(
      [
        cloudPart('part:1', 1000, { appearance: appearance(false), role: 'fluid' }),
        cloudPart('part:2', 1000, { appearance: appearance(false), role: 'wall' }),
        cloudPart('part:3', 1000, { appearance: appearance(true), role: 'wall' }),
      ],
      { 'part:1': lattice(1000), 'part:2': lattice(1000, 2), 'part:3': lattice(1000, 4) },
    )
    const [fluid, wall, translucentWall] = cloudsOf(harness).map((cloud) => cloud.material)
    expect(hexOf(fluid!)).toBe(colour)
    expect(fluid!.uniforms.uSizePx!.value).toBe(SETUP_SIZES_PX.particle)
    expect(fluid!.transparent).toBe(false)
    expect(hexOf(wall!)).toBe(lightenColour(colour, WALL_PARTICLE_LIGHTEN))
    expect(hexOf(wall!)).not.toBe(colour)
    expect(wall!.uniforms.uSizePx!.value).toBeLessThan(SETUP_SIZES_PX.particle)
    expect(wall!.transparent).toBe(false)
    expect(translucentWall!.transparent).toBe(true)
    expect(translucentWall!.depthWrite).toBe(false)
    expect(translucentWall!.uniforms.uOpacity!.value).toBeLessThan(1)
  })
})
