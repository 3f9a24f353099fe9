import {
  BufferAttribute,
  Mesh,
  Points,
  type BufferGeometry,
  type Object3D,
  type ShaderMaterial,
} from 'three'
import { afterEach, describe, expect, it } from 'vitest'
import { computeClipMask } from '../../domain/clipMask.ts'
import { defaultMesh, type Mesh as ClipMesh } from '../../domain/meshes.ts'
import { createFakeServer, unitCube, writeSyntheticOutputs } from '../data/testing.ts'
import type { VolumeClipView } from '../overlayProtocol.ts'
import type { SetupObjectView } from '../setupProtocol.ts'
import type { OutputView } from './OutputView.ts'
import { createSetupHarness, partView, type SetupHarness } from './setup/setupHarness.ts'

const harnesses: SetupHarness[] = []
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose()
})

const OUTPUT_URL = (outputNo: number) => `http://dive.test/outputs/${outputNo}/bundle`

/** The results scene over two synthetic outputs, and meshes for sensors and clips. */
async function start(): Promise<{ harness: SetupHarness; bundleFetches: () => string[] }> {
  const server = createFakeServer(writeSyntheticOutputs(2))
  const served = new Map([
    ['/api/meshes/21/mesh?v=s', { mesh: unitCube() }],
    ['/api/meshes/31/mesh?v=c', { mesh: unitCube() }],
  ])
  const harness = await createSetupHarness(served, { scene: 'results', outputs: server })
  harnesses.push(harness)
  return {
    harness,
    bundleFetches: () => server.calls.map((call) => call.url),
  }
}

function showOutputs(harness: SetupHarness, outputNo = 0): void {
  harness.engine.dispatch({
    type: 'set_outputs',
    simulationId: 5,
    runId: 9,
    outputs: [0, 1].map((n) => ({
      outputNo: n,
      timeS: n * 0.1,
      bundleUrl: OUTPUT_URL(n),
      estimatedBytes: 1,
    })),
  })
  harness.engine.dispatch({ type: 'show_output', outputNo })
}

const pointSensor: SetupObjectView = {
  ...partView('sensor:1', 'unused', [0, 0, 0]),
  kind: 'sensor',
  name: 'Probe',
  geometry: { type: 'point', position: [0.1, 0.2, 0.3] },
  editable: false,
}
const surfaceSensor: SetupObjectView = {
  ...partView('sensor:2', 's', [0, 0, 0]),
  kind: 'sensor',
  name: 'Gauge',
  geometry: { type: 'mesh', url: '/api/meshes/21/mesh?v=s', hash: 's' },
  editable: false,
}

/** A volume clip: an axis-aligned box from `min` to `max`, drawn from the served cube mesh. */
function boxClip(
  min: readonly number[],
  max: readonly number[],
  overrides: Partial<VolumeClipView> = {},
  visible = true,
): VolumeClipView {
  const mesh = defaultMesh('cube', 31)
  if (mesh.kind !== 'cube') throw new Error('A cube mesh is a cube.')
  mesh.center = [0, 1, 2].map((i) => (min[i]! + max[i]!) / 2) as [number, number, number]
  mesh.dimensions = [0, 1, 2].map((i) => max[i]! - min[i]!) as [number, number, number]
  return {
    view: {
      ...partView('volume_clip:3', 'c', [0, 0, 0]),
      kind: 'volume_clip',
      name: 'Downstream',
      geometry: { type: 'mesh', url: '/api/meshes/31/mesh?v=c', hash: 'c' },
      appearance: {
        color: '#12b886',
        opacity: 1,
        wireframe: false,
        translucent: false,
        visible,
      },
      editable: false,
    },
    mesh,
    inverted: false,
    materialId: 0,
    ...overrides,
  }
}

function shownView(harness: SetupHarness): OutputView {
  const view = harness.scene.shown
  if (view === null) throw new Error('No output is shown.')
  return view
}

function fluidOf(view: OutputView) {
  const fluid = view.objects.find((object) => object.object.kind === 'fluid')
  if (fluid?.points == null) throw new Error('The output has no fluid drawn.')
  return {
    fluid,
    points: fluid.points,
    x: fluid.columns.get('x')!,
    y: fluid.columns.get('y')!,
    z: fluid.columns.get('z')!,
  }
}

/** The box over the lower half of the fluid along x (and all of it along y and z). */
function lowerHalf(view: OutputView): { min: number[]; max: number[] } {
  const { x } = fluidOf(view)
  let min = Infinity
  let max = -Infinity
  for (const value of x) {
    min = Math.min(min, value)
    max = Math.max(max, value)
  }
  return { min: [min - 1, -100, -100], max: [(min + max) / 2, 100, 100] }
}

function expectedInside(view: OutputView, mesh: ClipMesh, inverted: boolean): Uint8Array {
  const { x, y, z } = fluidOf(view)
  const inside = new Uint8Array(x.length)
  computeClipMask(mesh, inverted, x, y, z, inside)
  return inside
}

function maskOf(points: Points<BufferGeometry, ShaderMaterial>) {
  const attribute = points.geometry.getAttribute('mask') as BufferAttribute | undefined
  return {
    masked: points.material.uniforms.uMasked!.value as boolean,
    values: attribute === undefined ? null : (attribute.array as Uint8Array),
  }
}

describe('results scene: sensors and volume clips', () => {
  it('draws point sensors as markers, surface sensors and clips as their placed meshes, clips translucent', async () => {
    const { harness } = await start()
    const hiddenSensor = {
      ...pointSensor,
      id: 'sensor:4',
      appearance: { ...pointSensor.appearance, visible: false },
    }
    harness.engine.dispatch({
      type: 'set_overlays',
      sensors: [pointSensor, surfaceSensor, hiddenSensor],
      clips: [boxClip([0, 0, 0], [1, 1, 1])],
    })
    expect(harness.last().overlays?.loading ?? []).toEqual([])
    await harness.advance(0)
    // The meshes came through the data workers' setup path.
    expect(harness.fetched).toContain('/api/meshes/21/mesh?v=s')
    expect(harness.fetched).toContain('/api/meshes/31/mesh?v=c')
    expect(harness.snapshots.some((s) => s.overlays?.loading.includes('sensor:2'))).toBe(true)
    expect(harness.last().overlays).toEqual({ loading: [], failed: [] })
    const objects = harness.overlayObjects()
    const markers = objects.filter(
      (o): o is Points<BufferGeometry, ShaderMaterial> =>
        o instanceof Points &&
        (o as Points<BufferGeometry, ShaderMaterial>).geometry.getAttribute('position').count === 1,
    )
    const drawn = <T extends Object3D>(list: T[]) => list.filter((o) => isShown(o))
    expect(drawn(markers)).toHaveLength(1)
    expect([...drawn(markers)[0]!.geometry.getAttribute('position').array]).toEqual([
      expect.closeTo(0.1),
      expect.closeTo(0.2),
      expect.closeTo(0.3),
    ])
    const surfaces = drawn(objects).filter(
      (o): o is Mesh<BufferGeometry, ShaderMaterial> =>
        o instanceof Mesh &&
        (o as Mesh<BufferGeometry, ShaderMaterial>).material.uniforms.uTintAmount !== undefined,
    )
    expect(surfaces.map((s) => s.geometry.index!.count / 3)).toEqual([12, 12])
    const [sensorSurface, clipSurface] = surfaces
    expect(sensorSurface!.material.transparent).toBe(false)
    expect(clipSurface!.material.transparent).toBe(true)
    expect(clipSurface!.material.uniforms.uOpacity!.value).toBeLessThanOrEqual(0.35)
  })

  it('shown: a clip keeps only the fluid inside it, with a mask attribute and a uniform', async () => {
    const { harness, bundleFetches } = await start()
    showOutputs(harness)
    await harness.flush()
    const view = shownView(harness)
    const { points } = fluidOf(view)
    expect(maskOf(points).masked).toBe(false)
    const { min, max } = lowerHalf(view)
    const clip = boxClip(min, max)
    const fetchesBefore = bundleFetches().length
    harness.engine.dispatch({ type: 'set_overlays', sensors: [], clips: [clip] })
    await harness.advance(0)
    // The output was in memory before the clip: a data worker computed its mask from the fluid.
    expect(bundleFetches().slice(fetchesBefore)).toEqual([
      expect.stringContaining('objects=fluid-0'),
    ])
    const inside = expectedInside(view, clip.mesh, false)
    const kept = inside.reduce((sum, value) => sum + value, 0)
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(inside.length)
    expect(maskOf(points)).toEqual({ masked: true, values: inside })
    expect(harness.scene.shown).toBe(view)

    // Inverted: the outside, from the same mask (nothing fetched).
    const fetchesMasked = bundleFetches().length
    harness.engine.dispatch({
      type: 'set_overlays',
      sensors: [],
      clips: [{ ...clip, inverted: true }],
    })
    await harness.advance(0)
    expect(maskOf(points)).toEqual({ masked: true, values: expectedInside(view, clip.mesh, true) })

    // Hidden and shown again: the uniform only.
    const attribute = points.geometry.getAttribute('mask')
    harness.engine.dispatch({
      type: 'set_overlays',
      sensors: [],
      clips: [boxClip(min, max, {}, false)],
    })
    await harness.advance(0)
    expect(maskOf(points).masked).toBe(false)
    harness.engine.dispatch({ type: 'set_overlays', sensors: [], clips: [clip] })
    await harness.advance(0)
    expect(maskOf(points)).toEqual({ masked: true, values: inside })
    expect(points.geometry.getAttribute('mask')).toBe(attribute)
    expect(bundleFetches().length).toBe(fetchesMasked)
  })

  it('an output loaded while a clip is shown brings its mask along (one fetch per output)', async () => {
    const { harness, bundleFetches } = await start()
    showOutputs(harness)
    await harness.flush()
    const { min, max } = lowerHalf(shownView(harness))
    const clip = boxClip(min, max)
    harness.engine.dispatch({ type: 'set_overlays', sensors: [], clips: [clip] })
    await harness.flush()
    const fetchesBefore = bundleFetches().length
    harness.engine.dispatch({ type: 'show_output', outputNo: 1 })
    await harness.flush()
    expect(harness.last().shownOutput).toBe(1)
    // Output 1 was prefetched with output 0 (before the clip): its mask was asked for, once.
    const view = shownView(harness)
    expect(view.output.key.outputNo).toBe(1)
    expect(maskOf(fluidOf(view).points)).toEqual({
      masked: true,
      values: expectedInside(view, clip.mesh, false),
    })
    expect(bundleFetches().length - fetchesBefore).toBeLessThanOrEqual(1)

    // A fresh engine with the clip shown first: the load itself carries the mask.
    const second = await start()
    second.harness.engine.dispatch({ type: 'set_overlays', sensors: [], clips: [clip] })
    showOutputs(second.harness)
    await second.harness.flush()
    const secondView = shownView(second.harness)
    expect(maskOf(fluidOf(secondView).points)).toEqual({
      masked: true,
      values: expectedInside(secondView, clip.mesh, false),
    })
    expect(second.bundleFetches().filter((url) => url.includes('/outputs/0/'))).toHaveLength(1)
  })

  it('a click does not pick a particle the clip hides', async () => {
    const { harness } = await start()
    showOutputs(harness)
    await harness.flush()
    const view = shownView(harness)
    const { x, y, z } = fluidOf(view)
    const { min, max } = lowerHalf(view)
    const clip = boxClip(min, max)
    const inside = expectedInside(view, clip.mesh, false)
    // A place on screen where, unclipped, a particle the clip hides is picked.
    let at: { x: number; y: number } | null = null
    for (let row = 0; row < inside.length && at === null; row += 7) {
      if (inside[row] === 1) continue
      const screen = harness.screenOf([x[row]!, y[row]!, z[row]!])
      harness.engine.dispatch({ type: 'pick', x: screen.x, y: screen.y })
      await harness.advance(0)
      const pick = harness.last().pick
      if (pick?.objectId === 'fluid-0' && inside[pick.index] === 0) at = screen
    }
    expect(at).not.toBeNull()
    harness.engine.dispatch({ type: 'set_overlays', sensors: [], clips: [clip] })
    await harness.advance(0)
    harness.engine.dispatch({ type: 'pick', x: at!.x, y: at!.y })
    await harness.advance(0)
    const pick = harness.last().pick
    expect(pick === null || pick.objectId !== 'fluid-0' || inside[pick.index] === 1).toBe(true)
  })

  it('a clip that cannot mask is reported and leaves the fluid whole; another material is left alone', async () => {
    const { harness, bundleFetches } = await start()
    showOutputs(harness)
    await harness.flush()
    const view = shownView(harness)
    const { points } = fluidOf(view)
    const { min, max } = lowerHalf(view)
    const fetchesBefore = bundleFetches().length
    const rectangle = { ...boxClip(min, max), mesh: defaultMesh('rectangle', 31) }
    harness.engine.dispatch({ type: 'set_overlays', sensors: [], clips: [rectangle] })
    await harness.advance(0)
    expect(harness.last().overlays?.failed).toEqual([
      { id: 'volume_clip:3', message: expect.stringContaining('cannot be computed') },
    ])
    expect(maskOf(points).masked).toBe(false)
    harness.engine.dispatch({
      type: 'set_overlays',
      sensors: [],
      clips: [boxClip(min, max, { materialId: 4 })],
    })
    await harness.advance(0)
    expect(harness.last().overlays?.failed).toEqual([])
    expect(maskOf(points).masked).toBe(false)
    expect(bundleFetches().length).toBe(fetchesBefore)
  })
})

/** Visible, and every parent too. */
function isShown(object: Object3D): boolean {
  for (let node: Object3D | null = object; node !== null; node = node.parent)
    if (!node.visible) return false
  return true
}
