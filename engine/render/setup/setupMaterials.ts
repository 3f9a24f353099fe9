/**
 * Materials of the setup scene over the shaders of setupShaders.ts. The clip plane, the viewport
 * size and the pixel ratio are uniform objects shared by every material of the scene (one update
 * reaches them all, nothing is recompiled).
 */
import {
  AlwaysStencilFunc,
  Color,
  DoubleSide,
  KeepStencilOp,
  NotEqualStencilFunc,
  ReplaceStencilOp,
  ShaderMaterial,
  Vector2,
  Vector4,
  type IUniform,
  type Side,
} from 'three'
import {
  FLAT_FRAGMENT_SHADER,
  LINE_VERTEX_SHADER,
  OUTLINE_FRAGMENT_SHADER,
  OUTLINE_VERTEX_SHADER,
  POINT_FRAGMENT_SHADER,
  POINT_VERTEX_SHADER,
  SURFACE_FRAGMENT_SHADER,
  SURFACE_VERTEX_SHADER,
} from './setupShaders.ts'

/** Uniforms every setup material shares. */
export interface SetupUniforms {
  uClipPlane: IUniform<Vector4>
  uClipEnabled: IUniform<boolean>
  uViewportPx: IUniform<Vector2>
  uPixelRatio: IUniform<number>
}

/** Fresh shared uniforms: no clip, a 1 × 1 viewport. */
export function createSetupUniforms(): SetupUniforms {
  return {
    uClipPlane: { value: new Vector4(0, 0, 0, 0) },
    uClipEnabled: { value: false },
    uViewportPx: { value: new Vector2(1, 1) },
    uPixelRatio: { value: 1 },
  }
}

/**
 * A lit surface (part meshes, sensor / clip / refinement meshes), moved in depth by a polygon
 * offset (setSurfaceOffset) and marking its silhouette in the stencil buffer while it has a rim.
 */
export function createSurfaceMaterial(shared: SetupUniforms, stencilRef: number): ShaderMaterial {
  return new ShaderMaterial({
    vertexShader: SURFACE_VERTEX_SHADER,
    fragmentShader: SURFACE_FRAGMENT_SHADER,
    side: DoubleSide,
    polygonOffset: true,
    polygonOffsetFactor: 0,
    polygonOffsetUnits: 0,
    // Every fragment of the surface, hidden or not, marks the silhouette (while stencilWrite is on).
    stencilRef,
    stencilFunc: AlwaysStencilFunc,
    stencilZFail: ReplaceStencilOp,
    stencilZPass: ReplaceStencilOp,
    uniforms: {
      uClipPlane: shared.uClipPlane,
      uClipEnabled: shared.uClipEnabled,
      uColour: { value: new Color('#8899aa') },
      uOpacity: { value: 1 },
      uTint: { value: new Color('#ffffff') },
      uTintAmount: { value: 0 },
    },
  })
}

/**
 * The selection rim: the surface pushed out on screen, drawn after the surface only where the
 * surface did not mark the stencil buffer with `stencilRef` (outside its silhouette), so it shows
 * around an opaque and a translucent surface alike.
 */
export function createOutlineMaterial(shared: SetupUniforms, stencilRef: number): ShaderMaterial {
  return new ShaderMaterial({
    vertexShader: OUTLINE_VERTEX_SHADER,
    fragmentShader: OUTLINE_FRAGMENT_SHADER,
    side: DoubleSide,
    stencilWrite: true,
    stencilWriteMask: 0,
    stencilRef,
    stencilFunc: NotEqualStencilFunc,
    stencilFail: KeepStencilOp,
    stencilZFail: KeepStencilOp,
    stencilZPass: KeepStencilOp,
    uniforms: {
      uClipPlane: shared.uClipPlane,
      uClipEnabled: shared.uClipEnabled,
      uViewportPx: shared.uViewportPx,
      uWidthPx: { value: 3 },
      uColour: { value: new Color('#ff8c00') },
    },
  })
}

/** Options of a flat (unlit) material. */
export interface FlatOptions {
  colour: string
  opacity?: number
  /** Drawn over everything (handles, mesh-health edges). */
  onTop?: boolean
  /** The clip plane cuts it (default true). */
  clipped?: boolean
  side?: Side
}

/** One flat colour: lines, the gizmo's handles, arrows. */
export function createFlatMaterial(shared: SetupUniforms, options: FlatOptions): ShaderMaterial {
  const opacity = options.opacity ?? 1
  return new ShaderMaterial({
    vertexShader: LINE_VERTEX_SHADER,
    fragmentShader: FLAT_FRAGMENT_SHADER,
    side: options.side ?? DoubleSide,
    // On top: in three's translucent list, so it is drawn after the translucent surfaces too.
    transparent: opacity < 1 || options.onTop === true,
    depthTest: options.onTop !== true,
    depthWrite: options.onTop !== true && opacity >= 1,
    uniforms: {
      uClipPlane: shared.uClipPlane,
      uClipEnabled: shared.uClipEnabled,
      uColour: { value: new Color(options.colour) },
      uOpacity: { value: opacity },
      uClipped: { value: options.clipped ?? true },
    },
  })
}

/** Options of a point-sprite material. */
export interface PointOptions {
  colour: string
  sizePx: number
  ring: boolean
  onTop: boolean
  clipped: boolean
}

/** Point sprites of a fixed size on screen. */
export function createPointMaterial(shared: SetupUniforms, options: PointOptions): ShaderMaterial {
  return new ShaderMaterial({
    vertexShader: POINT_VERTEX_SHADER,
    fragmentShader: POINT_FRAGMENT_SHADER,
    transparent: options.onTop,
    depthTest: !options.onTop,
    depthWrite: !options.onTop,
    uniforms: {
      uClipPlane: shared.uClipPlane,
      uClipEnabled: shared.uClipEnabled,
      uPixelRatio: shared.uPixelRatio,
      uSizePx: { value: options.sizePx },
      uColour: { value: new Color(options.colour) },
      uOpacity: { value: 1 },
      uClipped: { value: options.clipped },
      uRing: { value: options.ring },
    },
  })
}

/** A surface's polygon offset (drawOrder.ts surfaceOffsetSteps): `steps` back (< 0: forward). */
export function setSurfaceOffset(material: ShaderMaterial, steps: number): void {
  material.polygonOffsetFactor = steps
  material.polygonOffsetUnits = steps
}

/** Sets a material's uColour (every setup material has one). */
export function setColour(material: ShaderMaterial, colour: string): void {
  ;(material.uniforms.uColour!.value as Color).set(colour)
}
