/**
 * The GPU side of the render worker: a three.js WebGLRenderer on the OffscreenCanvas, the scene,
 * both cameras, the colour lookup texture and the uniforms every material shares. Frames are never
 * queued: after each draw a fence is inserted, and `isGpuBusy()` tells the loop to skip a frame
 * while the previous one is still being executed (SwiftShader runs ≈1 µs per point per frame).
 */
import {
  BufferGeometry,
  Color,
  DataTexture,
  Float32BufferAttribute,
  LineSegments,
  LineBasicMaterial,
  Matrix4,
  NearestFilter,
  type Object3D,
  OrthographicCamera,
  PerspectiveCamera,
  RGBAFormat,
  Scene,
  Vector2,
  Vector4,
  WebGLRenderer,
} from 'three'
import {
  COLOUR_SCHEMES,
  DEFAULT_POINT_SIZE_PX,
  FIELD_OF_VIEW_DEG,
  type ColourScheme,
} from '../../domain/constants.ts'
import type { CameraState, ColourRange } from '../../domain/results.ts'
import { clipDistances, orthographicHalfExtents, viewHeightAtTargetM } from './camera.ts'
import type { PlaneEquation } from './clip.ts'
import { buildColourLut, LUT_WIDTH, schemeRow } from './colourLut.ts'
import { OutputView, type SharedUniforms } from './OutputView.ts'
import { UploadCounter } from './uploads.ts'

/** Viewport size in CSS pixels and the device pixel ratio. */
export interface ViewportSize {
  width: number
  height: number
  devicePixelRatio: number
}

/** A size from the UI made usable: non-positive or non-finite values become 1. */
export function sanitizeViewportSize(size: ViewportSize): ViewportSize {
  const positive = (value: number, fallback: number) =>
    Number.isFinite(value) && value > 0 ? value : fallback
  return {
    width: positive(size.width, 1),
    height: positive(size.height, 1),
    devicePixelRatio: positive(size.devicePixelRatio, 1),
  }
}

/** Point sizes the engine accepts, CSS pixels. */
export const POINT_SIZE_LIMITS_PX = { min: 1, max: 64 } as const

/** A point size within POINT_SIZE_LIMITS_PX (not a number: the default, 15 px). */
export function clampPointSize(sizePx: number): number {
  const size = Number.isFinite(sizePx) ? sizePx : DEFAULT_POINT_SIZE_PX
  return Math.min(POINT_SIZE_LIMITS_PX.max, Math.max(POINT_SIZE_LIMITS_PX.min, size))
}

/** Background of the viewport. */
const BACKGROUND = new Color('#f4f6f9')

/** Axis colours of the coordinate system: x red, y green, z blue (the axis gizmo's too). */
export const AXIS_COLOURS = { x: '#d64545', y: '#2f9e44', z: '#2f6fdb' } as const

/** Unit axes from the origin (x, y, z), coloured per axis; scaled to the scene when shown. */
function createAxes(): LineSegments<BufferGeometry, LineBasicMaterial> {
  const geometry = new BufferGeometry()
  geometry.setAttribute(
    'position',
    new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], 3),
  )
  const colours = [AXIS_COLOURS.x, AXIS_COLOURS.y, AXIS_COLOURS.z].flatMap((hex) => {
    const colour = new Color(hex)
    return [colour.r, colour.g, colour.b, colour.r, colour.g, colour.b]
  })
  geometry.setAttribute('color', new Float32BufferAttribute(colours, 3))
  // Drawn over everything (the origin often lies inside the fluid or a wall), last: with the
  // translucent objects (three draws those after the opaque ones), at the highest renderOrder.
  const axes = new LineSegments(
    geometry,
    new LineBasicMaterial({
      vertexColors: true,
      depthTest: false,
      depthWrite: false,
      transparent: true,
    }),
  )
  axes.renderOrder = 1000
  axes.frustumCulled = false
  axes.visible = false
  return axes
}

/** three.js scene, cameras and renderer over one OffscreenCanvas. */
export class RenderScene {
  readonly shared: SharedUniforms
  #canvas: OffscreenCanvas
  #renderer: WebGLRenderer
  #gl: WebGL2RenderingContext
  #scene = new Scene()
  #perspective = new PerspectiveCamera(FIELD_OF_VIEW_DEG, 1, 0.01, 1000)
  #orthographic = new OrthographicCamera(-1, 1, 1, -1, 0.01, 1000)
  #lut: DataTexture
  #size: ViewportSize
  #fence: WebGLSync | null = null
  #shownView: OutputView | null = null
  /** The setup scene's objects, drawn instead of the shown view while set. */
  #setupRoot: Object3D | null = null
  /** The results scene's sensors and volume clips, drawn with the shown view. */
  #overlayRoot: Object3D | null = null
  // Arrows draw over the particles: sampled points often lie inside the fluid.
  #arrowMaterial = new LineBasicMaterial({ color: '#1d2733', depthTest: false })
  #mode: CameraState['mode'] = 'perspective'
  #uploads = new UploadCounter()
  #axes = createAxes()
  #pointSizePx: number = DEFAULT_POINT_SIZE_PX

  constructor(
    canvas: OffscreenCanvas,
    size: ViewportSize,
    onContextLost: (lost: boolean) => void = () => undefined,
  ) {
    this.#canvas = canvas
    canvas.addEventListener('webglcontextlost', (event) => {
      // Default prevented: the browser may restore the context; three re-uploads on restore.
      event.preventDefault()
      this.#fence = null
      onContextLost(true)
    })
    canvas.addEventListener('webglcontextrestored', () => onContextLost(false))
    this.#size = size
    this.#renderer = new WebGLRenderer({
      canvas,
      antialias: false,
      // The setup scene's selection rims are drawn outside their object's silhouette only.
      stencil: true,
      powerPreference: 'high-performance',
      // Save Image reads the canvas after the frame.
      preserveDrawingBuffer: true,
    })
    this.#gl = this.#renderer.getContext() as WebGL2RenderingContext
    this.#renderer.setClearColor(BACKGROUND, 1)
    this.#lut = new DataTexture(buildColourLut(), LUT_WIDTH, COLOUR_SCHEMES.length, RGBAFormat)
    this.#lut.magFilter = NearestFilter
    this.#lut.minFilter = NearestFilter
    this.#lut.needsUpdate = true
    this.shared = {
      uLut: { value: this.#lut },
      uSchemeRow: { value: schemeRow('rainbow') },
      uSchemeCount: { value: COLOUR_SCHEMES.length },
      uRange: { value: new Vector2(0, 1) },
      uClipPlane: { value: new Vector4(0, 0, 0, 0) },
      uClipEnabled: { value: false },
      uPointSizeMaxPx: { value: DEFAULT_POINT_SIZE_PX },
      uPixelsPerMetre: { value: 1 },
      uOrthographic: { value: false },
    }
    this.setSize(size)
    this.#scene.add(this.#axes)
  }

  setSize(size: ViewportSize): void {
    this.#size = size
    this.#renderer.setPixelRatio(size.devicePixelRatio)
    this.#renderer.setSize(Math.max(1, size.width), Math.max(1, size.height), false)
    this.shared.uPointSizeMaxPx.value = this.#pointSizePx * size.devicePixelRatio
  }

  /** Largest drawn particle size in CSS pixels (a uniform: nothing is uploaded). */
  setPointSize(sizePx: number): void {
    this.#pointSizePx = sizePx
    this.shared.uPointSizeMaxPx.value = sizePx * this.#size.devicePixelRatio
  }

  /** Shows or hides the coordinate-system axes at the origin, each `lengthM` long. */
  setCoordinateSystem(visible: boolean, lengthM: number): void {
    this.#axes.visible = visible
    this.#axes.scale.setScalar(Math.max(lengthM, 1e-6))
  }

  /** Scheme and range are uniforms: nothing is uploaded. */
  setColourMap(scheme: ColourScheme, range: ColourRange | null): void {
    this.shared.uSchemeRow.value = schemeRow(scheme)
    const value = this.shared.uRange.value as Vector2
    value.set(range?.min ?? 0, range?.max ?? 1)
  }

  setClip(plane: PlaneEquation | null): void {
    this.shared.uClipEnabled.value = plane !== null
    if (plane !== null) (this.shared.uClipPlane.value as Vector4).set(...plane)
  }

  /** Points the cameras at a state; `sceneRadiusM` sizes the depth range. */
  setCamera(camera: CameraState, sceneRadiusM: number): void {
    this.#mode = camera.mode
    const aspect = Math.max(1, this.#size.width) / Math.max(1, this.#size.height)
    const { near, far } = clipDistances(camera, sceneRadiusM)
    for (const three of [this.#perspective, this.#orthographic]) {
      three.position.set(...camera.position)
      three.up.set(...camera.up)
      three.lookAt(...camera.target)
      three.near = near
      three.far = far
    }
    this.#perspective.aspect = aspect
    const { halfWidth, halfHeight } = orthographicHalfExtents(camera, aspect)
    Object.assign(this.#orthographic, {
      left: -halfWidth,
      right: halfWidth,
      top: halfHeight,
      bottom: -halfHeight,
    })
    this.#perspective.updateProjectionMatrix()
    this.#orthographic.updateProjectionMatrix()
    this.#perspective.updateMatrixWorld()
    this.#orthographic.updateMatrixWorld()
    const deviceHeight = Math.max(1, this.#size.height) * this.#size.devicePixelRatio
    const orthographic = camera.mode === 'orthographic'
    this.shared.uOrthographic.value = orthographic
    // Perspective: device pixels per metre at distance 1; orthographic: at any distance.
    this.shared.uPixelsPerMetre.value = orthographic
      ? deviceHeight / viewHeightAtTargetM(camera)
      : deviceHeight / (2 * Math.tan((FIELD_OF_VIEW_DEG * Math.PI) / 360))
  }

  /** The active camera's view-projection matrix (column-major elements). */
  viewProjection(): Matrix4 {
    const camera = this.#mode === 'orthographic' ? this.#orthographic : this.#perspective
    return new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
  }

  /** Puts an output's objects in the scene (the previous output's objects leave it, not disposed). */
  showView(view: OutputView | null): void {
    if (this.#shownView === view) return
    this.#shownView = view
    this.#fill()
  }

  /** Re-adds the shown view's objects (after arrows changed). */
  refreshView(): void {
    this.#fill()
  }

  /** Draws the setup scene's objects instead of the shown view (null: the view again). */
  showSetup(root: Object3D | null): void {
    if (this.#setupRoot === root) return
    this.#setupRoot = root
    this.#fill()
  }

  /** Draws the results scene's sensors and volume clips with the shown view (null: none). */
  showOverlays(root: Object3D | null): void {
    if (this.#overlayRoot === root) return
    this.#overlayRoot = root
    this.#fill()
  }

  /**
   * The scene's children: the setup root, or the shown view's objects and the overlays; then the
   * axes.
   */
  #fill(): void {
    this.#scene.clear()
    const view = this.#shownView
    if (this.#setupRoot !== null) this.#scene.add(this.#setupRoot)
    else {
      if (view !== null) for (const object of view.sceneObjects()) this.#scene.add(object)
      if (this.#overlayRoot !== null) this.#scene.add(this.#overlayRoot)
    }
    this.#scene.add(this.#axes)
  }

  /** What the next draw shows (every visible object, nested ones too). */
  #drawnObjects(): Object3D[] {
    const objects: Object3D[] = []
    this.#scene.traverseVisible((object) => objects.push(object))
    return objects
  }

  /**
   * Uploads a view's attributes without drawing: three uploads the geometry of every object it
   * visits, and materials switched off keep it out of the draw list. Nothing is cleared or drawn.
   */
  uploadView(view: OutputView): void {
    const staging = new Scene()
    const objects = view.sceneObjects()
    const materials = new Set(objects.map((object) => object.material).flat())
    const visible = new Map([...materials].map((material) => [material, material.visible]))
    for (const material of materials) material.visible = false
    for (const object of objects) staging.add(object)
    const autoClear = this.#renderer.autoClear
    this.#renderer.autoClear = false
    try {
      const camera = this.#mode === 'orthographic' ? this.#orthographic : this.#perspective
      this.#uploads.countObjects(objects.filter((object) => object.visible))
      this.#renderer.render(staging, camera)
    } finally {
      this.#renderer.autoClear = autoClear
      for (const [material, wasVisible] of visible) material.visible = wasVisible
      staging.clear()
    }
  }

  arrowMaterial(): LineBasicMaterial {
    return this.#arrowMaterial
  }

  /** Bytes of vertex attributes and indices uploaded so far. */
  uploadedBytes(): number {
    return this.#uploads.totalBytes()
  }

  /** True while the previous frame's commands are still executing: skip this frame. */
  isGpuBusy(): boolean {
    const gl = this.#gl
    if (this.#fence === null) return false
    const status = gl.getSyncParameter(this.#fence, gl.SYNC_STATUS) as GLenum
    if (status !== gl.SIGNALED) return true
    gl.deleteSync(this.#fence)
    this.#fence = null
    return false
  }

  /** Draws one frame and fences it. */
  render(): void {
    const camera = this.#mode === 'orthographic' ? this.#orthographic : this.#perspective
    this.#uploads.countObjects(this.#drawnObjects())
    this.#renderer.render(this.#scene, camera)
    const gl = this.#gl
    if (this.#fence !== null) gl.deleteSync(this.#fence)
    this.#fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
    gl.flush()
  }

  /** Draws the current frame and encodes the canvas as a PNG. */
  async saveImage(): Promise<Blob> {
    this.render()
    return this.#canvas.convertToBlob({ type: 'image/png' })
  }

  /** Frees the renderer, the texture and the context. */
  dispose(): void {
    this.#scene.clear()
    this.#axes.geometry.dispose()
    this.#axes.material.dispose()
    this.#lut.dispose()
    this.#arrowMaterial.dispose()
    if (this.#fence !== null) this.#gl.deleteSync(this.#fence)
    this.#renderer.dispose()
    this.#renderer.forceContextLoss()
  }
}
