/**
 * Test harness of the setup scene (not used by the product): a RenderEngine on a FakeScene whose
 * data workers are the real data-worker logic (createDataWorkerApi) over a fake server that answers
 * with bytes made by the domain codecs (DMSH meshes, DPCL point clouds, keyframe JSON) and, when
 * given, synthetic output bundles (the results scene's sensors and clips use it too). Frames and
 * the clock are driven by the test.
 */
import type { Object3D } from 'three'
import type { CameraState } from '../../../domain/results.ts'
import { encodeMeshFile, type TriangleMesh } from '../../../domain/meshFile.ts'
import type { KeyframesResult } from '../../../domain/movements.ts'
import { encodePointCloudFile } from '../../../domain/pointCloudFile.ts'
import { NO_OUTPUT_CACHE } from '../../data/cache.ts'
import { createDataWorkerApi } from '../../data/dataWorker.ts'
import type { ForwardedPointerEvent, RenderSnapshot } from '../../protocol.ts'
import type { SceneKind, SetupEvent, SetupObjectView } from '../../setupProtocol.ts'
import type { FakeServer } from '../../data/testing.ts'
import type { DataWorkerHandle } from '../host.ts'
import { RenderEngine } from '../RenderEngine.ts'
import { FakeScene } from '../testing.ts'
import { projectToScreen } from './setupMath.ts'

/** What the fake server serves, by URL. */
export type ServedResource =
  | { mesh: TriangleMesh }
  | { points: number[] }
  | { keyframes: KeyframesResult }
  | { status: number }

/** A running setup scene. */
export interface SetupHarness {
  engine: RenderEngine
  scene: FakeScene
  events: SetupEvent[]
  snapshots: RenderSnapshot[]
  /** URLs fetched, in order. */
  fetched: string[]
  clock: { now: number }
  served: Map<string, ServedResource>
  /** Lets promises settle and runs the frames asked for (a few rounds). */
  flush(): Promise<void>
  /** Moves the clock and runs a frame. */
  advance(ms: number): Promise<void>
  last(): RenderSnapshot
  setup(): NonNullable<RenderSnapshot['setup']>
  pointer(
    type: ForwardedPointerEvent['type'],
    x: number,
    y: number,
    extra?: Partial<ForwardedPointerEvent>,
  ): void
  /** Where a world point is on screen (CSS pixels). */
  screenOf(point: readonly number[]): { x: number; y: number }
  /** Every object of the setup scene's graph. */
  objects(): Object3D[]
  /** Every object of the results scene's sensors and volume clips. */
  overlayObjects(): Object3D[]
  /** Disposes the engine and closes the data workers' ports. */
  dispose(): void
}

const VIEWPORT = { width: 400, height: 300, devicePixelRatio: 1 }

/** A camera at (0, 0, 10) looking down −z at the origin, y up. */
export const FRONT_CAMERA = {
  position: [0, 0, 10] as [number, number, number],
  target: [0, 0, 0] as [number, number, number],
  up: [0, 1, 0] as [number, number, number],
  mode: 'perspective' as const,
}

/** What else a harness may serve and show. */
export interface HarnessOptions {
  /** The scene shown at first (default: setup). */
  scene?: SceneKind
  /** Output bundles (engine/data/testing.ts createFakeServer): URLs it knows go to it. */
  outputs?: FakeServer
  /** The camera placed at first (default: FRONT_CAMERA); null: none, the setup frames itself. */
  camera?: CameraState | null
}

/**
 * A scene on the front camera (the setup unless `options.scene` says otherwise; `options.camera`
 * another camera, or none), with setup
 * resources served by URL and, with `options.outputs`, output bundles.
 */
export async function createSetupHarness(
  served: Map<string, ServedResource>,
  options: HarnessOptions = {},
): Promise<SetupHarness> {
  const scene = new FakeScene()
  const frames: (() => void)[] = []
  const clock = { now: 1000 }
  const events: SetupEvent[] = []
  const snapshots: RenderSnapshot[] = []
  const fetched: string[] = []
  let pendingWorkers = 0
  const fetch = ((url: string, init?: RequestInit) => {
    fetched.push(url)
    if (options.outputs !== undefined && url.startsWith('http://dive.test/'))
      return options.outputs.fetch(url, init)
    const resource = served.get(url)
    if (resource === undefined || 'status' in resource)
      return Promise.resolve(new Response(null, { status: resource?.status ?? 404 }))
    if ('keyframes' in resource) return Promise.resolve(Response.json(resource.keyframes))
    const bytes =
      'mesh' in resource ? encodeMeshFile(resource.mesh) : encodePointCloudFile(resource.points)
    return Promise.resolve(
      new Response(bytes.slice().buffer, {
        headers: { 'content-length': String(bytes.byteLength) },
      }),
    )
  }) as unknown as typeof globalThis.fetch
  const workers: DataWorkerHandle[] = []
  const channels: MessageChannel[] = []
  const engine = new RenderEngine({
    createScene: () => scene,
    scheduleFrame: (callback) => frames.push(callback),
    scheduleTimeout: () => undefined,
    nowMs: () => clock.now,
    wrapDataWorker: () => workers[workers.length - 1]!,
  })
  await engine.init({} as OffscreenCanvas, VIEWPORT, {
    onSnapshot: (snapshot) => snapshots.push(snapshot),
    requestDataWorker: () => {
      pendingWorkers++
    },
    onSetupEvent: (event) => events.push(event),
  })
  if (options.camera !== null)
    engine.dispatch({ type: 'set_camera', camera: options.camera ?? FRONT_CAMERA })
  engine.dispatch({ type: 'set_scene', scene: options.scene ?? 'setup' })
  const harness: SetupHarness = {
    engine,
    scene,
    events,
    snapshots,
    fetched,
    clock,
    served,
    async flush() {
      for (let round = 0; round < 6; round++) {
        while (pendingWorkers > 0) {
          pendingWorkers--
          // The real data-worker logic, called directly (Comlink is the shell's business).
          const api = createDataWorkerApi({ fetch, cache: NO_OUTPUT_CACHE })
          workers.push({
            load: (request) => api.load(request),
            cancel: (requestId) => api.cancel(requestId),
            setAccessToken: (token) => api.setAccessToken(token),
            loadSetupMesh: (request) => api.loadSetupMesh(request),
            loadSetupPointCloud: (request) => api.loadSetupPointCloud(request),
            loadKeyframeTrack: (request) => api.loadKeyframeTrack(request),
            computeClipMasks: (request) => api.computeClipMasks(request),
          })
          const channel = new MessageChannel()
          channels.push(channel)
          // Outputs come over the port, as from a real data worker.
          api.connectRenderPort(channel.port2)
          engine.adoptDataWorker(channel.port1)
        }
        await new Promise((resolve) => setTimeout(resolve, 5))
        for (const frame of frames.splice(0)) frame()
      }
    },
    async advance(ms) {
      clock.now += ms
      for (const frame of frames.splice(0)) frame()
      await harness.flush()
    },
    last: () => snapshots[snapshots.length - 1]!,
    setup: () => harness.last().setup!,
    pointer(type, x, y, extra = {}) {
      engine.forwardPointer({
        type,
        pointerId: 1,
        button: 0,
        buttons: type === 'pointermove' ? 1 : 0,
        x,
        y,
        deltaY: 0,
        shiftKey: false,
        ctrlKey: false,
        altKey: false,
        metaKey: false,
        ...extra,
      })
    },
    screenOf(point) {
      const screen = projectToScreen(scene.viewProjection().elements, VIEWPORT, point)!
      return { x: screen.x, y: screen.y }
    },
    objects() {
      const all: Object3D[] = []
      scene.setupRoot?.traverse((object) => all.push(object))
      return all
    },
    overlayObjects() {
      const all: Object3D[] = []
      scene.overlayRoot?.traverse((object) => all.push(object))
      return all
    },
    dispose() {
      engine.dispose()
      for (const channel of channels) {
        channel.port1.close()
        channel.port2.close()
      }
    },
  }
  await harness.flush()
  return harness
}

/** A part view over a served mesh (own coordinates), placed by `translation`. */
export function partView(
  id: string,
  hash: string,
  translation: [number, number, number],
  overrides: Partial<SetupObjectView> = {},
): SetupObjectView {
  return {
    id,
    kind: 'part',
    name: `Part ${id}`,
    geometry: { type: 'mesh', url: `/api/parts/${id}/mesh?v=${hash}`, hash },
    transform: { translation, rotationDeg: [0, 0, 0], scale: [1, 1, 1] },
    appearance: {
      color: '#4c6ef5',
      opacity: 1,
      wireframe: false,
      translucent: false,
      visible: true,
    },
    seedPoint: null,
    pointcloud: null,
    arrow: null,
    keyframes: null,
    selectable: true,
    editable: true,
    warning: false,
    ...overrides,
  }
}
