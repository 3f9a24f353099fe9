import { describe, expect, it } from 'vitest'
import { defaultComponent, type Part } from '../../../../../domain/parts.ts'
import type { Sensor } from '../../../../../domain/meshes.ts'
import { IDENTITY_TRANSFORM, hashOfUrl } from '../../../../components/viewport/objectViews.ts'
import {
  freshPointcloudParts,
  keyframesUrl,
  setupObjectViews,
  type SetupSceneInput,
} from './setupObjects.ts'
import {
  makeMesh,
  makeMovement,
  makePart,
  makePointSensor,
  makeVolumeClip,
} from './setupTestKit.tsx'

const INPUT: SetupSceneInput = {
  parts: [],
  movements: [],
  sensors: [],
  volumeClips: [],
  calcDomain: undefined,
  endTimeS: 2,
  editable: true,
  freshPointclouds: new Set(),
}

const viewOf = (part: Part, input: Partial<SetupSceneInput> = {}) => {
  const view = setupObjectViews({ ...INPUT, parts: [part], ...input })[0]
  if (!view) throw new Error('no view')
  return view
}

const meshed = (patch: Partial<Part> = {}) =>
  makePart(12, 'Tank', 'rigid', {
    meshUrl: '/api/parts/12/mesh?v=abc',
    meshHash: 'abc',
    ...patch,
  })

describe('setup scene objects', () => {
  it('draws a part from its mesh URL and hash, placed by its shape', () => {
    const part = meshed()
    part.shape.translation = [1, 2, null]
    part.shape.rotation = [0, 90, 0]
    part.shape.scale = [2, null, 1]
    const view = viewOf(part)
    expect(view).toMatchObject({
      id: 'part:12',
      kind: 'part',
      name: 'Tank',
      geometry: { type: 'mesh', url: '/api/parts/12/mesh?v=abc', hash: 'abc' },
      transform: { translation: [1, 2, 0], rotationDeg: [0, 90, 0], scale: [2, 1, 1] },
      selectable: true,
      editable: true,
      warning: false,
      arrow: null,
      keyframes: null,
      pointcloud: null,
    })
  })

  it('draws nothing for a part without a mesh', () => {
    expect(viewOf(makePart(3, 'Empty', 'rigid')).geometry).toEqual({ type: 'none' })
  })

  it("takes the part's appearance, opacity 1 when unset", () => {
    const part = meshed()
    part.appearance = {
      ...part.appearance,
      color: '#123456',
      opacity: null,
      wireframe: true,
      visibility: false,
    }
    expect(viewOf(part).appearance).toEqual({
      color: '#123456',
      opacity: 1,
      wireframe: true,
      translucent: false,
      visible: false,
    })
  })

  it('has a seed point only once every component is set', () => {
    expect(viewOf(meshed({ seedPoint: [0.1, 0.2, 0.3] })).seedPoint).toEqual([0.1, 0.2, 0.3])
    expect(viewOf(meshed({ seedPoint: [0.1, null, 0.3] })).seedPoint).toBeNull()
  })

  it("shows the point cloud with its switch on, or a fluid's right after a discretization", () => {
    const cloud = { pointcloudUrl: '/api/parts/12/pointcloud?v=pc1', pointcloudCount: 4000 }
    const water = meshed({ ...cloud, component: defaultComponent('filling') })
    expect(viewOf(water).pointcloud).toEqual({
      url: '/api/parts/12/pointcloud?v=pc1',
      hash: 'pc1',
      count: 4000,
      role: 'fluid',
      visible: false,
    })
    expect(viewOf(water, { freshPointclouds: new Set([12]) }).pointcloud?.visible).toBe(true)
    // A wall's layers would bury the fluid: they show only when asked for.
    const tank = meshed(cloud)
    expect(viewOf(tank, { freshPointclouds: new Set([12]) }).pointcloud).toMatchObject({
      role: 'wall',
      visible: false,
    })
    tank.appearance = { ...tank.appearance, showPointcloud: true }
    expect(viewOf(tank).pointcloud?.visible).toBe(true)
  })

  it("points an open boundary's arrow from its centre along its normal, in its direction", () => {
    const outlet = makePart(4, 'Outlet', 'openboundary', {
      component: {
        ...defaultComponent('openboundary'),
        ioDirection: 'outflow',
      } as Part['component'],
    })
    if (outlet.shape.info) outlet.shape.info.normal = [0, 0, 1]
    expect(viewOf(outlet).arrow).toEqual({
      origin: [0, 0, 0],
      normal: [0, 0, 1],
      direction: 'outflow',
    })
    const noNormal = makePart(5, 'Inlet', 'openboundary')
    expect(viewOf(noNormal).arrow).toBeNull()
  })

  it("fetches a moving part's keyframes with a hash of its movements and the end time", () => {
    const movements = [makeMovement(3, 12)]
    const keyframes = viewOf(meshed(), { movements })
    expect(keyframes.keyframes?.url).toBe(keyframesUrl(12))
    expect(keyframesUrl(12)).toBe('/api/parts/12/movements/keyframes')
    const hash = keyframes.keyframes?.hash
    expect(viewOf(meshed(), { movements, endTimeS: 3 }).keyframes?.hash).not.toBe(hash)
    expect(
      viewOf(meshed(), { movements: [{ ...makeMovement(3, 12), vel: 2 }] }).keyframes?.hash,
    ).not.toBe(hash)
    expect(viewOf(meshed(), { movements }).keyframes?.hash).toBe(hash)
    // Another part's movement does not move it; a leader's movement does.
    expect(viewOf(meshed(), { movements: [makeMovement(7, 99)] }).keyframes).toBeNull()
    expect(
      viewOf(meshed(), { movements: [makeMovement(7, 99), makeMovement(3, 12, [7])] }).keyframes,
    ).not.toBeNull()
  })

  it('lets only an editable setup move parts, and never a point cloud part', () => {
    expect(viewOf(meshed(), { editable: false }).editable).toBe(false)
    const cloud = meshed()
    cloud.shape = {
      type: 'pointcloud',
      translation: [0, 0, 0],
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
      flipNormals: false,
      refSimulationId: 1,
      refSimulationOutput: 2,
      splittingRatio: 1,
      info: null,
    }
    expect(viewOf(cloud).editable).toBe(false)
  })

  it('outlines a part with potential issues or discretization messages', () => {
    expect(viewOf(meshed({ hasWarnings: true })).warning).toBe(true)
    expect(
      viewOf(meshed(), {
        discretizationMessages: new Map([[12, [{ description: 'No particles.' }]]]),
      }).warning,
    ).toBe(true)
  })

  it('draws a point sensor as a marker and a surface sensor from its placed mesh', () => {
    const point = makePointSensor(3, 'Probe')
    const surface: Sensor = {
      id: 4,
      name: 'Plane',
      kind: 'surface',
      appearance: { visibility: false },
      outputs: [],
      mesh: makeMesh(40, '/api/meshes/40/mesh?v=h40'),
    }
    const [p, s] = setupObjectViews({ ...INPUT, sensors: [point, surface] })
    expect(p).toMatchObject({
      id: 'sensor:3',
      kind: 'sensor',
      geometry: { type: 'point', position: [0.1, 0.2, 0.3] },
      transform: IDENTITY_TRANSFORM,
      editable: false,
    })
    expect(s).toMatchObject({
      id: 'sensor:4',
      geometry: { type: 'mesh', url: '/api/meshes/40/mesh?v=h40', hash: 'h40' },
      appearance: { visible: false },
    })
  })

  it('draws a volume clip from its placed mesh with its appearance', () => {
    const clip = makeVolumeClip(5, 'Box', makeMesh(50, '/api/meshes/50/mesh?v=h50'))
    const [view] = setupObjectViews({ ...INPUT, volumeClips: [clip] })
    expect(view).toMatchObject({
      id: 'volume_clip:5',
      kind: 'volume_clip',
      geometry: { type: 'mesh', hash: 'h50' },
      appearance: { color: clip.appearance.color, visible: true },
    })
    const unbuilt = makeVolumeClip(6, 'Nothing', makeMesh(60, null))
    expect(setupObjectViews({ ...INPUT, volumeClips: [unbuilt] })[0]?.geometry).toEqual({
      type: 'none',
    })
  })

  it('draws the deletion boundary as a box while it is active and complete', () => {
    const domain = { active: true, min: [-1, -1, 0] as const, max: [1, 1, 2] as const, issues: [] }
    const views = setupObjectViews({
      ...INPUT,
      calcDomain: { ...domain, min: [...domain.min], max: [...domain.max] },
    })
    expect(views).toEqual([
      expect.objectContaining({
        id: 'calc_domain',
        kind: 'calc_domain',
        name: 'Deletion Boundary',
        geometry: { type: 'box', min: [-1, -1, 0], max: [1, 1, 2] },
      }),
    ])
    expect(
      setupObjectViews({
        ...INPUT,
        calcDomain: { ...domain, active: false, min: [-1, -1, 0], max: [1, 1, 2] },
      }),
    ).toEqual([])
    expect(
      setupObjectViews({ ...INPUT, calcDomain: { ...domain, min: [-1, null, 0], max: [1, 1, 2] } }),
    ).toEqual([])
  })

  it('lists parts, then sensors, clips and the domain', () => {
    const views = setupObjectViews({
      ...INPUT,
      parts: [meshed()],
      sensors: [makePointSensor(3, 'Probe')],
      volumeClips: [makeVolumeClip(5, 'Box')],
      calcDomain: { active: true, min: [0, 0, 0], max: [1, 1, 1], issues: [] },
    })
    expect(views.map((v) => v.id)).toEqual(['part:12', 'sensor:3', 'volume_clip:5', 'calc_domain'])
  })
})

describe('point clouds after a discretization', () => {
  it('shows the parts of the finished discretization until their switch changes', () => {
    const a = makePart(1, 'A', 'filling')
    const b = makePart(2, 'B', 'rigid')
    const atFinish = new Map([
      [1, false],
      [2, false],
    ])
    expect([...freshPointcloudParts([a, b], atFinish)]).toEqual([1, 2])
    b.appearance = { ...b.appearance, showPointcloud: true }
    expect([...freshPointcloudParts([a, b], atFinish)]).toEqual([1])
    expect([...freshPointcloudParts([a, makePart(3, 'C', 'rigid')], new Map())]).toEqual([])
  })

  it('reads the content hash of a download URL', () => {
    expect(hashOfUrl('/api/parts/1/mesh?v=5bfba32d')).toBe('5bfba32d')
    expect(hashOfUrl('/api/parts/1/mesh')).toBe('/api/parts/1/mesh')
  })
})
