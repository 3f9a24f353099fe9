import { Color, LineSegments, Mesh, type BufferGeometry, type ShaderMaterial } from 'three'
import { afterEach, describe, expect, it } from 'vitest'
import { DOUBLE_CLICK_WINDOW_MS } from '../../../domain/constants.ts'
import { KEYFRAME_WARNING_THRESHOLD } from '../../../domain/movements.ts'
import { unitCube } from '../../data/testing.ts'
import { SETUP_SCENE_MESSAGES, type SetupObjectView } from '../../setupProtocol.ts'
import { HIGHLIGHT_COLOURS } from './objects.ts'
import {
  createSetupHarness,
  partView,
  type ServedResource,
  type SetupHarness,
} from './setupHarness.ts'
import { SETUP_COLOURS } from './SetupNode.ts'

const harnesses: SetupHarness[] = []
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose()
})

/** Two cubes side by side (part:1 centred on the origin, part:2 on x = 3), and a point sensor. */
function servedScene(): Map<string, ServedResource> {
  return new Map<string, ServedResource>([
    ['/api/parts/part:1/mesh?v=a', { mesh: unitCube() }],
    ['/api/parts/part:2/mesh?v=b', { mesh: unitCube() }],
    ['/api/parts/part:2/mesh?v=c', { mesh: unitCube() }],
  ])
}

const centred = partView('part:1', 'a', [-0.5, -0.5, -0.5], { seedPoint: [0.2, 0.3, 0] })
const beside = partView('part:2', 'b', [2.5, -0.5, -0.5])
const sensor: SetupObjectView = {
  ...partView('sensor:3', 'unused', [0, 0, 0]),
  kind: 'sensor',
  name: 'Probe',
  geometry: { type: 'point', position: [0, 1.5, 0] },
  editable: false,
}

async function start(
  objects: SetupObjectView[] = [centred, beside, sensor],
  served = servedScene(),
  endTimeS: number | null = 10,
): Promise<SetupHarness> {
  const harness = await createSetupHarness(served)
  harnesses.push(harness)
  harness.engine.dispatch({ type: 'setup_objects', objects, endTimeS })
  return harness
}

/** A click at (x, y): press, release, then the double-click window passes. */
async function click(harness: SetupHarness, x: number, y: number, shiftKey = false) {
  harness.pointer('pointerdown', x, y, { shiftKey })
  harness.pointer('pointerup', x, y, { shiftKey })
  await harness.advance(DOUBLE_CLICK_WINDOW_MS + 1)
}

function colourOf(material: ShaderMaterial): string {
  return `#${(material.uniforms.uColour!.value as Color).getHexString()}`
}

describe('setup scene', () => {
  it("says 'Initializing...' until every mesh is in, then 'Successfully initialized.'", async () => {
    const harness = await createSetupHarness(servedScene())
    harnesses.push(harness)
    expect(harness.setup().message).toBe(SETUP_SCENE_MESSAGES.initializing)
    harness.engine.dispatch({ type: 'setup_objects', objects: [centred, beside], endTimeS: 1 })
    // Until the data workers answer, both meshes are loading.
    await harness.advance(0)
    const settled = harness.setup()
    expect(settled.initialized).toBe(true)
    expect(settled.message).toBe(SETUP_SCENE_MESSAGES.initialized)
    expect(settled.loading).toEqual([])
    expect(harness.snapshots.some((s) => s.setup?.loading.length === 2)).toBe(true)
    expect(
      harness.snapshots.some((s) => s.setup?.message === SETUP_SCENE_MESSAGES.initializing),
    ).toBe(true)
    expect(harness.last().scene).toBe('setup')
    expect(harness.last().trianglesDrawn).toBe(24)
  })

  it('counts a mesh that failed as settled and reports why', async () => {
    const broken = partView('part:9', 'x', [0, 0, 0])
    const harness = await start([centred, broken])
    await harness.flush()
    expect(harness.setup().initialized).toBe(true)
    expect(harness.setup().failed).toEqual([
      { id: 'part:9', message: 'The mesh was not found on the server.' },
    ])
  })

  it('fetches a mesh once: a new look refetches nothing, a new hash refetches', async () => {
    const harness = await start()
    await harness.flush()
    const fetches = harness.fetched.length
    expect(fetches).toBe(2)
    const recoloured = {
      ...beside,
      appearance: { ...beside.appearance, color: '#ff0000', translucent: true },
      transform: { ...beside.transform, translation: [4, 0, 0] as [number, number, number] },
    }
    harness.engine.dispatch({ type: 'setup_objects', objects: [centred, recoloured], endTimeS: 10 })
    await harness.flush()
    expect(harness.fetched.length).toBe(fetches)
    const rehashed = partView('part:2', 'c', [2.5, -0.5, -0.5])
    harness.engine.dispatch({ type: 'setup_objects', objects: [centred, rehashed], endTimeS: 10 })
    await harness.flush()
    expect(harness.fetched.slice(fetches)).toEqual(['/api/parts/part:2/mesh?v=c'])
  })

  it('tells a click from a double click by the 300 ms window', async () => {
    const harness = await start()
    await harness.flush()
    const centre = harness.screenOf([0, 0, 0.5])
    await click(harness, centre.x, centre.y)
    expect(harness.events).toEqual([{ type: 'click', id: 'part:1', additive: false }])
    // Shift adds; empty space clears.
    const right = harness.screenOf([3, 0, 0.5])
    await click(harness, right.x, right.y, true)
    await click(harness, 5, 5)
    expect(harness.events.slice(1)).toEqual([
      { type: 'click', id: 'part:2', additive: true },
      { type: 'click', id: null, additive: false },
    ])
    // Two clicks within the window: one double click, no single click.
    harness.events.length = 0
    harness.pointer('pointerdown', centre.x, centre.y)
    harness.pointer('pointerup', centre.x, centre.y)
    await harness.advance(120)
    harness.pointer('pointerdown', centre.x, centre.y)
    harness.pointer('pointerup', centre.x, centre.y)
    await harness.advance(DOUBLE_CLICK_WINDOW_MS + 1)
    expect(harness.events).toEqual([{ type: 'double_click', id: 'part:1' }])
  })

  it('picks the point sensor marker over the part behind it', async () => {
    const harness = await start()
    await harness.flush()
    const marker = harness.screenOf([0, 1.5, 0])
    await click(harness, marker.x + 4, marker.y)
    expect(harness.events.at(-1)).toEqual({ type: 'click', id: 'sensor:3', additive: false })
  })

  it('picks through what the clip plane cuts away', async () => {
    const behind = partView('part:2', 'b', [-0.5, -0.5, -4])
    const harness = await start([centred, behind])
    await harness.flush()
    harness.engine.dispatch({
      type: 'set_clip',
      clip: { enabled: true, axis: 'z', flipped: false, offsetM: -1 },
    })
    const centre = harness.screenOf([0, 0, 0])
    await click(harness, centre.x, centre.y)
    expect(harness.events.at(-1)).toEqual({ type: 'click', id: 'part:2', additive: false })
  })

  it('reports the hovered object at most every 30 ms and highlights it', async () => {
    const harness = await start()
    await harness.flush()
    const centre = harness.screenOf([0, 0, 0.5])
    harness.pointer('pointermove', centre.x, centre.y, { buttons: 0 })
    await harness.advance(1)
    expect(harness.setup().hovered).toBe('part:1')
    // 5 ms later the pointer is on the other cube: within the 30 ms throttle nothing changes yet.
    const right = harness.screenOf([3, 0, 0.5])
    harness.pointer('pointermove', right.x, right.y, { buttons: 0 })
    await harness.advance(5)
    expect(harness.setup().hovered).toBe('part:1')
    await harness.advance(30)
    expect(harness.setup().hovered).toBe('part:2')
    harness.pointer('pointerleave', right.x, right.y)
    await harness.advance(1)
    expect(harness.setup().hovered).toBeNull()
  })

  it('highlights the selection with a tint and an outline in a colour that stands out', async () => {
    const orange = partView('part:1', 'a', [-0.5, -0.5, -0.5], {
      appearance: { ...centred.appearance, color: '#ff8800' },
    })
    const harness = await start([orange])
    await harness.flush()
    harness.engine.dispatch({ type: 'setup_selection', ids: ['part:1'] })
    await harness.flush()
    const meshes = harness
      .objects()
      .filter((o): o is Mesh<never, ShaderMaterial> => o instanceof Mesh)
    const surface = meshes.find((m) => m.material.uniforms.uTintAmount !== undefined)!
    const outline = meshes.find((m) => m.material.uniforms.uWidthPx !== undefined)!
    expect(surface.material.uniforms.uTintAmount!.value).toBeGreaterThan(0)
    expect(outline.visible).toBe(true)
    // The part is orange: the selection is drawn in the alternative (blue), not orange on orange.
    expect(colourOf(outline.material)).toBe(HIGHLIGHT_COLOURS.selected.alternative)
    harness.engine.dispatch({ type: 'setup_selection', ids: [] })
    await harness.flush()
    expect(outline.visible).toBe(false)
    // A part with potential issues keeps a rim in the warning colour.
    harness.engine.dispatch({
      type: 'setup_objects',
      objects: [{ ...orange, warning: true }],
      endTimeS: 1,
    })
    await harness.flush()
    expect(outline.visible).toBe(true)
    expect(colourOf(outline.material)).toBe(SETUP_COLOURS.warning)
  })

  it('drags the translate handle: the part moves at once, the camera stays, release saves', async () => {
    const harness = await start()
    await harness.flush()
    harness.engine.dispatch({ type: 'setup_selection', ids: ['part:1'] })
    harness.engine.dispatch({ type: 'setup_tool', tool: 'translate' })
    await harness.flush()
    const camera = harness.last().camera
    // The x handle runs 90 px to the right of the pivot (the cube's centre, on the origin).
    const pivot = harness.screenOf([0, 0, 0])
    harness.pointer('pointerdown', pivot.x + 50, pivot.y)
    harness.pointer('pointermove', pivot.x + 80, pivot.y)
    await harness.advance(16)
    expect(harness.setup().dragging).toBe(true)
    expect(harness.last().camera).toEqual(camera)
    expect(harness.last().bounds!.min[0]).toBeGreaterThan(-0.5)
    harness.pointer('pointerup', pivot.x + 80, pivot.y)
    await harness.advance(16)
    const event = harness.events.at(-1)!
    if (event.type !== 'transform') throw new Error(`expected a transform, got ${event.type}`)
    const metresPerPixel = (2 * 10 * Math.tan(Math.PI / 8)) / 300
    expect(event.id).toBe('part:1')
    expect(event.translation[0]).toBeCloseTo(-0.5 + 30 * metresPerPixel, 2)
    expect(event.translation.slice(1)).toEqual([-0.5, -0.5])
    expect(event.rotationDeg).toEqual([0, 0, 0])
    expect(harness.setup().dragging).toBe(false)
    // No click came out of the drag.
    expect(harness.events.filter((e) => e.type === 'click')).toEqual([])
  })

  it('drags a rotate ring: a quarter turn about z through the part centre', async () => {
    const harness = await start()
    await harness.flush()
    harness.engine.dispatch({ type: 'setup_selection', ids: ['part:1'] })
    harness.engine.dispatch({ type: 'setup_tool', tool: 'rotate' })
    await harness.flush()
    const pivot = harness.screenOf([0, 0, 0])
    const r = 90 / Math.SQRT2
    harness.pointer('pointerdown', pivot.x + r, pivot.y - r)
    harness.pointer('pointermove', pivot.x - r, pivot.y - r)
    harness.pointer('pointerup', pivot.x - r, pivot.y - r)
    await harness.advance(16)
    const event = harness.events.at(-1)!
    if (event.type !== 'transform') throw new Error(`expected a transform, got ${event.type}`)
    expect(event.rotationDeg[2]).toBeCloseTo(90, 0)
    // The cube turned about its centre: its corner (-0.5, -0.5) went to (0.5, -0.5).
    expect(event.translation[0]).toBeCloseTo(0.5, 1)
    expect(event.translation[1]).toBeCloseTo(-0.5, 1)
  })

  it('drags the seed point of the selected part in the view plane', async () => {
    const harness = await start()
    await harness.flush()
    harness.engine.dispatch({ type: 'setup_selection', ids: ['part:1'] })
    await harness.flush()
    const seed = harness.screenOf([0.2, 0.3, 0])
    harness.pointer('pointerdown', seed.x, seed.y)
    harness.pointer('pointermove', seed.x + 20, seed.y)
    harness.pointer('pointerup', seed.x + 20, seed.y)
    await harness.advance(16)
    const event = harness.events.at(-1)!
    if (event.type !== 'seed_point') throw new Error(`expected a seed point, got ${event.type}`)
    expect(event.position[0]).toBeCloseTo(0.2 + (20 * 2 * 10 * Math.tan(Math.PI / 8)) / 300, 3)
    expect(event.position[1]).toBeCloseTo(0.3, 6)
    expect(event.position[2]).toBeCloseTo(0, 6)
  })

  it('plays the movement timeline and moves the part, looping or stopping at the end', async () => {
    const served = servedScene()
    served.set('/api/parts/part:2/movements/keyframes', {
      keyframes: {
        keyframes: [
          { time: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
          { time: 2, position: [2, 0, 0], rotation: [0, 0, 0, 1] },
        ],
        warning: null,
      },
    })
    const moving = {
      ...beside,
      keyframes: { url: '/api/parts/part:2/movements/keyframes', hash: 'k' },
    }
    const harness = await start([moving], served, 2)
    await harness.flush()
    harness.engine.dispatch({ type: 'setup_play', speed: 1, loop: false })
    await harness.advance(1000)
    expect(harness.setup().timeS).toBeCloseTo(1, 1)
    expect(harness.setup().playing).toBe(true)
    expect(harness.last().bounds!.min[0]).toBeCloseTo(2.5 + harness.setup().timeS, 1)
    await harness.advance(5000)
    expect(harness.setup()).toMatchObject({ timeS: 2, playing: false, loop: false })
    expect(harness.last().bounds!.min[0]).toBeCloseTo(4.5)
    harness.engine.dispatch({ type: 'setup_play', speed: 2, loop: true })
    await harness.advance(1500)
    expect(harness.setup().timeS).toBeCloseTo(1, 1)
    expect(harness.setup()).toMatchObject({ playing: true, speed: 2, loop: true })
    harness.engine.dispatch({ type: 'setup_pause' })
    harness.engine.dispatch({ type: 'setup_seek', timeS: 0.5 })
    await harness.advance(16)
    expect(harness.setup()).toMatchObject({ timeS: 0.5, playing: false })
    expect(harness.last().bounds!.min[0]).toBeCloseTo(3)
  })

  it('warns about parts with 5000 keyframes or more', async () => {
    const served = servedScene()
    const keyframes = Array.from({ length: KEYFRAME_WARNING_THRESHOLD }, (_, i) => ({
      time: i / 1000,
      position: [0, 0, 0] as [number, number, number],
      rotation: [0, 0, 0, 1] as [number, number, number, number],
    }))
    served.set('/k', { keyframes: { keyframes, warning: 'many' } })
    const harness = await start([{ ...beside, keyframes: { url: '/k', hash: '1' } }], served, 5)
    await harness.flush()
    expect(harness.setup().keyframeWarnings).toEqual(['Part part:2'])
  })

  it('draws discretized point clouds and counts them', async () => {
    const served = servedScene()
    served.set('/pc', { points: [0, 0, 0, 1, 1, 1, 2, 2, 2] })
    const withCloud = { ...centred, pointcloud: { url: '/pc', hash: 'p', count: 3, visible: true } }
    const harness = await start([withCloud], served)
    await harness.flush()
    expect(harness.setup().pointcloudCounts).toEqual({ 'part:1': 3 })
    expect(harness.last().pointsDrawn).toBe(3)
    // The cloud reaches past the cube: the setup's bounds hold it.
    expect(harness.last().bounds!.max).toEqual([2, 2, 2])
  })

  it('shows holes and non-manifold edges in mesh-health mode only', async () => {
    const served = servedScene()
    const cube = unitCube()
    served.set('/api/parts/part:1/mesh?v=a', {
      mesh: { positions: cube.positions, indices: cube.indices.slice(3) },
    })
    const harness = await start([centred], served)
    await harness.flush()
    const holes = () =>
      harness
        .objects()
        .filter(
          (o): o is LineSegments<BufferGeometry, ShaderMaterial> =>
            o instanceof LineSegments &&
            colourOf(o.material as ShaderMaterial) === SETUP_COLOURS.holes,
        )
    expect(holes().some((line) => line.visible)).toBe(false)
    harness.engine.dispatch({ type: 'setup_mesh_health', enabled: true })
    await harness.flush()
    const shown = holes().filter((line) => line.visible)
    expect(shown).toHaveLength(1)
    expect(shown[0]!.geometry.getAttribute('position').count).toBe(6)
  })

  it('switches scenes, keeps the setup, and frames the setup on fit view', async () => {
    const harness = await start()
    await harness.flush()
    const root = harness.scene.setupRoot
    expect(root).not.toBeNull()
    harness.engine.dispatch({ type: 'set_scene', scene: 'results' })
    await harness.flush()
    expect(harness.scene.setupRoot).toBeNull()
    expect(harness.last().scene).toBe('results')
    harness.engine.dispatch({ type: 'set_scene', scene: 'setup' })
    harness.engine.dispatch({ type: 'fit_view' })
    await harness.flush()
    expect(harness.scene.setupRoot).toBe(root)
    // Both cubes and the sensor: x from −0.5 to 3.5, centred at 1.5.
    expect(harness.last().camera.target[0]).toBeCloseTo(1.5)
    expect(harness.last().bounds).toEqual({ min: [-0.5, -0.5, -0.5], max: [3.5, 1.5, 0.5] })
    // A double click in the explorer frames one object, over the keyframe animation.
    harness.engine.dispatch({ type: 'setup_focus', id: 'part:2' })
    await harness.advance(100)
    expect(harness.last().cameraAnimating).toBe(true)
    await harness.advance(700)
    expect(harness.last().camera.target).toEqual([3, 0, 0])
    expect(harness.last().cameraAnimating).toBe(false)
  })
})
