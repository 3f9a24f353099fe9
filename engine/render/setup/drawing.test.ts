import {
  Color,
  LineSegments,
  Mesh,
  NotEqualStencilFunc,
  Points,
  type BufferGeometry,
  type ShaderMaterial,
} from 'three'
import { afterEach, describe, expect, it } from 'vitest'
import { unitCube } from '../../data/testing.ts'
import type { SetupObjectView } from '../../setupProtocol.ts'
import { cameraBasis, type Bounds } from '../camera.ts'
import { PARTICLES_SHOWN_SURFACE_OPACITY } from './appearance.ts'
import { RENDER_ORDER } from './drawOrder.ts'
import {
  createSetupHarness,
  FRONT_CAMERA,
  partView,
  type ServedResource,
  type SetupHarness,
} from './setupHarness.ts'
import { projectToScreen } from './setupMath.ts'

const harnesses: SetupHarness[] = []
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose()
})

type Surface = Mesh<BufferGeometry, ShaderMaterial>

/** A unit cube served for each id (own coordinates 0 … 1). */
function cubes(...ids: string[]): Map<string, ServedResource> {
  return new Map(ids.map((id) => [`/api/parts/${id}/mesh?v=${id}`, { mesh: unitCube() }]))
}

/** A unit cube part in `colour`, placed at `translation`, scaled by `scale`. */
function cube(
  id: string,
  colour: string,
  translation: [number, number, number],
  overrides: Partial<SetupObjectView['appearance']> = {},
  scale = 1,
): SetupObjectView {
  const view = partView(id, id, translation, {
    appearance: { ...partView(id, id, translation).appearance, color: colour, ...overrides },
  })
  return { ...view, transform: { ...view.transform, scale: [scale, scale, scale] } }
}

async function start(
  objects: SetupObjectView[],
  served: Map<string, ServedResource>,
  camera?: typeof FRONT_CAMERA | null,
): Promise<SetupHarness> {
  const harness = await createSetupHarness(served, { camera })
  harnesses.push(harness)
  harness.engine.dispatch({ type: 'setup_objects', objects, endTimeS: null })
  await harness.flush()
  return harness
}

const hex = (material: ShaderMaterial) =>
  `#${(material.uniforms.uColour!.value as Color).getHexString()}`

/** The surface mesh of the part drawn in `colour`. */
function surfaceOf(harness: SetupHarness, colour: string): Surface {
  const surface = harness
    .objects()
    .find(
      (o): o is Surface =>
        o instanceof Mesh &&
        (o as Surface).material.uniforms.uTintAmount !== undefined &&
        hex((o as Surface).material) === colour,
    )
  if (surface === undefined) throw new Error(`No surface in ${colour}`)
  return surface
}

/** The selection rim drawn with a surface (the mesh sharing its geometry). */
function rimOf(harness: SetupHarness, surface: Surface): Surface {
  return harness
    .objects()
    .find(
      (o): o is Surface =>
        o instanceof Mesh && o !== surface && (o as Surface).geometry === surface.geometry,
    )!
}

describe('setup scene drawing', () => {
  it('draws translucent parts after the opaque ones, without depth writes, back to front', async () => {
    const harness = await start(
      [
        cube('part:1', '#2d69b2', [-0.5, -0.5, -0.5]),
        cube('part:2', '#25c189', [2, -0.5, -4], { translucent: true, opacity: 0.3 }),
        cube('part:3', '#d64265', [-3, -0.5, 2], { translucent: true, opacity: 0.3 }),
      ],
      cubes('part:1', 'part:2', 'part:3'),
    )
    const opaque = surfaceOf(harness, '#2d69b2').material
    const far = surfaceOf(harness, '#25c189')
    const near = surfaceOf(harness, '#d64265')
    expect(opaque.transparent).toBe(false)
    expect(opaque.depthWrite).toBe(true)
    for (const surface of [far, near]) {
      expect(surface.material.transparent).toBe(true)
      expect(surface.material.depthWrite).toBe(false)
      expect(surface.material.uniforms.uOpacity!.value).toBe(0.3)
      expect(surface.renderOrder).toBeGreaterThan(RENDER_ORDER.opaqueRim)
    }
    // The camera looks down −z from z = 10: part 2 (z −4 … −3) lies behind part 3 (z 2 … 3).
    expect(far.renderOrder).toBeLessThan(near.renderOrder)
    // Seen from the other side, the order turns round.
    harness.engine.dispatch({
      type: 'set_camera',
      camera: { ...FRONT_CAMERA, position: [0, 0, -10] },
    })
    await harness.flush()
    expect(far.renderOrder).toBeGreaterThan(near.renderOrder)
  })

  it('tells coincident faces apart: of two opaque parts the smaller shows, a translucent wall covers', async () => {
    // A water column standing in the tank's corner: they share the faces x = 0, y = 0, z = 0.
    const tank = cube('part:1', '#444444', [0, 0, 0], {}, 2)
    const water = cube('part:2', '#2d69b2', [0, 0, 0])
    const harness = await start([tank, water], cubes('part:1', 'part:2'))
    const tankSurface = surfaceOf(harness, '#444444').material
    const waterSurface = surfaceOf(harness, '#2d69b2').material
    expect(tankSurface.polygonOffset && waterSurface.polygonOffset).toBe(true)
    expect(tankSurface.polygonOffsetFactor).toBeGreaterThan(waterSurface.polygonOffsetFactor)
    expect(tankSurface.polygonOffsetUnits).toBeGreaterThan(waterSurface.polygonOffsetUnits)
    expect(waterSurface.polygonOffsetFactor).toBeGreaterThanOrEqual(0)
    // A see-through tank is pulled in front of the water on the faces they share.
    harness.engine.dispatch({
      type: 'setup_objects',
      objects: [
        { ...tank, appearance: { ...tank.appearance, translucent: true, opacity: 0.3 } },
        water,
      ],
      endTimeS: null,
    })
    await harness.flush()
    expect(tankSurface.polygonOffsetFactor).toBeLessThan(waterSurface.polygonOffsetFactor)
    expect(tankSurface.polygonOffsetUnits).toBeLessThan(0)
  })

  it('rims a selected translucent part outside its silhouette, after its surface', async () => {
    const harness = await start(
      [cube('part:1', '#2d69b2', [0, 0, 0], { translucent: true, opacity: 0.3 })],
      cubes('part:1'),
    )
    const surface = surfaceOf(harness, '#2d69b2')
    const rim = rimOf(harness, surface)
    expect(surface.material.stencilWrite).toBe(false)
    harness.engine.dispatch({ type: 'setup_selection', ids: ['part:1'] })
    await harness.flush()
    expect(rim.visible).toBe(true)
    // The surface marks its silhouette; the rim draws where it is not marked.
    expect(surface.material.stencilWrite).toBe(true)
    expect(rim.material.stencilFunc).toBe(NotEqualStencilFunc)
    expect(rim.material.stencilRef).toBe(surface.material.stencilRef)
    expect(rim.material.stencilRef).toBeGreaterThan(0)
    expect(rim.material.stencilWriteMask).toBe(0)
    expect(rim.material.transparent).toBe(true)
    expect(rim.renderOrder).toBeGreaterThan(surface.renderOrder)
    // The tint stays: the selected surface is lightened in the highlight colour.
    expect(surface.material.uniforms.uTintAmount!.value).toBeGreaterThan(0)
    harness.engine.dispatch({ type: 'setup_selection', ids: [] })
    await harness.flush()
    expect(rim.visible).toBe(false)
    expect(surface.material.stencilWrite).toBe(false)
  })

  it('draws the sharp edges of a translucent part, and none of an opaque one', async () => {
    const part = cube('part:1', '#2d69b2', [0, 0, 0], { translucent: true, opacity: 0.3 })
    const harness = await start([part], cubes('part:1'))
    const edges = () =>
      harness
        .objects()
        .filter(
          (o): o is LineSegments<BufferGeometry, ShaderMaterial> =>
            o instanceof LineSegments && o.visible,
        )
    // The cube's twelve edges, each from both faces that meet there.
    expect(edges()).toHaveLength(1)
    expect(edges()[0]!.geometry.getAttribute('position').count).toBe(48)
    expect(edges()[0]!.material.uniforms.uOpacity!.value).toBeGreaterThan(0.3)
    harness.engine.dispatch({
      type: 'setup_objects',
      objects: [{ ...part, appearance: { ...part.appearance, translucent: false } }],
      endTimeS: null,
    })
    await harness.flush()
    expect(edges()).toHaveLength(0)
  })

  it("fades a fluid's surface while its particles show, so they are not hidden inside it", async () => {
    const fluid = cube('part:1', '#2d69b2', [0, 0, 0])
    const served = cubes('part:1')
    served.set('/pc/1', { points: [0.5, 0.5, 0.5, 0.25, 0.25, 0.25] })
    const withCloud = (visible: boolean): SetupObjectView => ({
      ...fluid,
      pointcloud: { url: '/pc/1', hash: 'pc1', count: 2, visible, role: 'fluid' },
    })
    const harness = await start([withCloud(false)], served)
    const surface = surfaceOf(harness, '#2d69b2').material
    expect(surface.uniforms.uOpacity!.value).toBe(1)
    harness.engine.dispatch({ type: 'setup_objects', objects: [withCloud(true)], endTimeS: null })
    await harness.flush()
    expect(surface.uniforms.uOpacity!.value).toBe(PARTICLES_SHOWN_SURFACE_OPACITY)
    expect(surface.transparent).toBe(true)
    expect(surface.depthWrite).toBe(false)
    const cloud = harness.objects().find((o) => o instanceof Points && o.visible) as Points<
      BufferGeometry,
      ShaderMaterial
    >
    expect(cloud.material.transparent).toBe(false)
    expect(harness.last().pointsDrawn).toBe(2)
  })

  it('keeps what is drawn over everything after the translucent surfaces', async () => {
    const sensor: SetupObjectView = {
      ...partView('sensor:1', 'x', [0, 0, 0]),
      kind: 'sensor',
      geometry: { type: 'point', position: [0.5, 0.5, 0.5] },
    }
    const harness = await start(
      [cube('part:1', '#2d69b2', [0, 0, 0], { translucent: true, opacity: 0.3 }), sensor],
      cubes('part:1'),
    )
    const surface = surfaceOf(harness, '#2d69b2')
    const marker = harness
      .objects()
      .find((o): o is Points<BufferGeometry, ShaderMaterial> => o instanceof Points && o.visible)!
    // Both in three's translucent list: the marker after the surface.
    expect(marker.material.transparent).toBe(true)
    expect(marker.renderOrder).toBeGreaterThan(surface.renderOrder)
  })
})

/** Device coordinates of every corner of the bounds as the harness's scene draws them. */
function reachOnScreen(harness: SetupHarness, bounds: Bounds): number {
  const size = { width: 400, height: 300 }
  let reach = 0
  for (let c = 0; c < 8; c++) {
    const point = [0, 1, 2].map((k) => ((c >> k) & 1 ? bounds.max[k]! : bounds.min[k]!))
    const screen = projectToScreen(harness.scene.viewProjection().elements, size, point)!
    reach = Math.max(
      reach,
      Math.abs((screen.x / size.width) * 2 - 1),
      Math.abs((screen.y / size.height) * 2 - 1),
    )
  }
  return reach
}

describe('setup scene framing', () => {
  it('frames the first view from the front-right-top, and objects that appear until the camera moves', async () => {
    const harness = await start(
      [cube('part:1', '#2d69b2', [0, 0, 0])],
      cubes('part:1', 'part:2', 'part:3'),
      null,
    )
    const first = harness.last().camera
    const { forward } = cameraBasis(first)
    expect(forward[0]).toBeLessThan(0)
    expect(forward[1]).toBeGreaterThan(0)
    expect(forward[2]).toBeLessThan(0)
    expect(first.target).toEqual([0.5, 0.5, 0.5])
    const reach = reachOnScreen(harness, { min: [0, 0, 0], max: [1, 1, 1] })
    expect(reach).toBeLessThan(1)
    expect(reach).toBeGreaterThan(0.7)
    // A part added while the camera is where the framing put it: both are framed.
    const second = cube('part:2', '#25c189', [4, 0, 0])
    harness.engine.dispatch({
      type: 'setup_objects',
      objects: [cube('part:1', '#2d69b2', [0, 0, 0]), second],
      endTimeS: null,
    })
    await harness.flush()
    expect(harness.last().camera.target).toEqual([2.5, 0.5, 0.5])
    expect(reachOnScreen(harness, { min: [0, 0, 0], max: [5, 1, 1] })).toBeLessThan(1)
    // Once the person orbits, a new part leaves the camera where it is.
    harness.pointer('pointerdown', 200, 150)
    harness.pointer('pointermove', 260, 150)
    harness.pointer('pointerup', 260, 150)
    await harness.advance(1000)
    const orbited = harness.last().camera
    harness.engine.dispatch({
      type: 'setup_objects',
      objects: [
        cube('part:1', '#2d69b2', [0, 0, 0]),
        second,
        cube('part:3', '#d64265', [-6, 0, 0]),
      ],
      endTimeS: null,
    })
    await harness.flush()
    expect(harness.last().camera).toEqual(orbited)
    // Fit view frames everything from the direction the person chose.
    harness.engine.dispatch({ type: 'fit_view' })
    await harness.flush()
    const fitted = harness.last().camera
    expect(fitted.target).toEqual([-0.5, 0.5, 0.5])
    expect(cameraBasis(fitted).forward[0]).toBeCloseTo(cameraBasis(orbited).forward[0])
  })
})
