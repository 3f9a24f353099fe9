/**
 * Test helpers for engine/render (not used by the product): a scene without a GPU that records
 * what the engine asks of it, with the view-projection matrix of a real perspective camera.
 */
import { afterEach } from 'vitest'
import {
  LineBasicMaterial,
  Matrix4,
  OrthographicCamera,
  PerspectiveCamera,
  type Object3D,
} from 'three'
import { FIELD_OF_VIEW_DEG } from '../../domain/constants.ts'
import type { CameraState, ColourRange } from '../../domain/results.ts'
import { clipDistances, orthographicHalfExtents } from './camera.ts'
import type { EngineScene } from './host.ts'
import type { OutputView } from './OutputView.ts'
import type { ViewportSize } from './RenderScene.ts'

/** A scene without a GPU: records what the engine asks of it. */
export class FakeScene implements EngineScene {
  shared = {
    uLut: { value: null },
    uSchemeRow: { value: 0 },
    uSchemeCount: { value: 7 },
    uRange: { value: null },
    uClipPlane: { value: null },
    uClipEnabled: { value: false },
    uPointSizeMaxPx: { value: 15 },
    uPixelsPerMetre: { value: 1 },
    uOrthographic: { value: false },
  }
  renders = 0
  busy = false
  colourMaps: { scheme: string; range: ColourRange | null }[] = []
  shown: OutputView | null = null
  camera: CameraState | null = null
  size: ViewportSize = { width: 400, height: 300, devicePixelRatio: 1 }
  setSize(size: ViewportSize) {
    this.size = size
  }
  setColourMap(scheme: string, range: ColourRange | null) {
    this.colourMaps.push({ scheme, range })
  }
  setClip() {}
  setCamera(camera: CameraState) {
    this.camera = camera
  }
  /** The matrices RenderScene would draw with (both projections, the same depth range). */
  viewProjection(): Matrix4 {
    const state = this.camera!
    const aspect = this.size.width / this.size.height
    const { near, far } = clipDistances(state, 10)
    const { halfWidth, halfHeight } = orthographicHalfExtents(state, aspect)
    const camera =
      state.mode === 'orthographic'
        ? new OrthographicCamera(-halfWidth, halfWidth, halfHeight, -halfHeight, near, far)
        : new PerspectiveCamera(FIELD_OF_VIEW_DEG, aspect, near, far)
    camera.position.set(...state.position)
    camera.up.set(...state.up)
    camera.lookAt(...state.target)
    camera.updateMatrixWorld()
    return new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
  }
  showView(view: OutputView | null) {
    this.shown = view
  }
  setupRoot: Object3D | null = null
  showSetup(root: Object3D | null) {
    this.setupRoot = root
  }
  overlayRoot: Object3D | null = null
  showOverlays(root: Object3D | null) {
    this.overlayRoot = root
  }
  refreshView() {}
  uploaded: OutputView[] = []
  uploadView(view: OutputView) {
    this.uploaded.push(view)
  }
  arrowMaterial() {
    return new LineBasicMaterial()
  }
  axes: { visible: boolean; lengthM: number } = { visible: false, lengthM: 0 }
  setCoordinateSystem(visible: boolean, lengthM: number) {
    this.axes = { visible, lengthM }
  }
  pointSizePx = 15
  setPointSize(sizePx: number) {
    this.pointSizePx = sizePx
  }
  isGpuBusy() {
    return this.busy
  }
  uploadedBytes() {
    return 0
  }
  render() {
    this.renders++
  }
  saveImage() {
    return Promise.resolve(new Blob(['png']))
  }
  dispose() {}
}

/** Why a data worker that is never asked for setup geometry refuses it. */
export const NO_SETUP_GEOMETRY = 'This data worker serves no setup geometry.'

/** The setup calls of the results tests' data workers: they never load setup geometry. */
export abstract class ResultsOnlyDataWorker {
  loadSetupMesh(): Promise<never> {
    return Promise.reject(new Error(NO_SETUP_GEOMETRY))
  }
  loadSetupPointCloud(): Promise<never> {
    return Promise.reject(new Error(NO_SETUP_GEOMETRY))
  }
  loadKeyframeTrack(): Promise<never> {
    return Promise.reject(new Error(NO_SETUP_GEOMETRY))
  }
}

/** The message channels a test file opens: both ports closed after each test. */
export function channelsClosedAfterEach(): MessageChannel[] {
  const channels: MessageChannel[] = []
  afterEach(() => {
    for (const channel of channels.splice(0)) {
      channel.port1.close()
      channel.port2.close()
    }
  })
  return channels
}
