/**
 * What the results scene computes over the drawn particles of the shown output: the particle under
 * the pointer (a click, a hover) with its colour value, and the velocity arrows (at most 5000,
 * 25 px apart) along the vector columns; particles a shown volume clip hides are skipped. Pure over the view's column arrays and the camera.
 */
import { VECTOR_FIELD_ARROWS } from '../../domain/constants.ts'
import type { CameraState } from '../../domain/results.ts'
import type { PickResult } from '../protocol.ts'
import { cameraBasis, metresPerPixel } from './camera.ts'
import type { PlaneEquation } from './clip.ts'
import type { OutputView } from './OutputView.ts'
import { pickPoint, pointerToDevice, type PickTarget } from './picking.ts'
import type { ViewportSize } from './RenderScene.ts'
import { buildArrowSegments, sampleArrowRows } from './vectorField.ts'

/** The drawn points of each visible object (the prefix the last frame drew). */
export function outputPickTargets(
  view: OutputView,
  drawCounts: ReadonlyMap<string, number>,
): PickTarget[] {
  const targets: PickTarget[] = []
  for (const object of view.objects) {
    if (object.points?.visible !== true) continue
    const x = object.columns.get('x')
    const y = object.columns.get('y')
    const z = object.columns.get('z')
    if (x === undefined || y === undefined || z === undefined) continue
    const count = drawCounts.get(object.object.objectId) ?? object.object.particleCount
    targets.push({ objectId: object.object.objectId, x, y, z, count, keep: object.keep })
  }
  return targets
}

/** Where and how to pick. */
export interface OutputPickRequest {
  xPx: number
  yPx: number
  size: ViewportSize
  viewProjection: ArrayLike<number>
  clip: PlaneEquation | null
  /** Columns of the colour binding (their value at the particle is reported). */
  colourColumns: readonly string[] | null
  /** Bounds the work: at most this many points are tested (a prefix is a uniform subset). */
  maxPoints: number
}

/** The drawn particle under the pointer, with the colour attribute's value there. */
export function pickOutputPoint(
  view: OutputView,
  drawCounts: ReadonlyMap<string, number>,
  request: OutputPickRequest,
): PickResult | null {
  const { size } = request
  const [ndcX, ndcY] = pointerToDevice(request.xPx, request.yPx, size.width, size.height)
  let targets = outputPickTargets(view, drawCounts)
  const total = targets.reduce((sum, target) => sum + target.count, 0)
  if (total > request.maxPoints)
    targets = targets.map((target) => ({
      ...target,
      count: Math.ceil((target.count * request.maxPoints) / total),
    }))
  const hit = pickPoint(
    targets,
    request.viewProjection,
    ndcX,
    ndcY,
    size.width / size.height,
    request.clip,
  )
  if (hit === null) return null
  const object = view.objects.find((o) => o.object.objectId === hit.objectId)
  const arrays = request.colourColumns?.map((name) => object?.columns.get(name)) ?? []
  const values: number[] = []
  for (const array of arrays) if (array !== undefined) values.push(array[hit.index] ?? NaN)
  let value: number | null = null
  if (values.length > 0 && values.length === arrays.length)
    value = values.length === 1 ? (values[0] ?? null) : Math.hypot(...values)
  return { objectId: hit.objectId, index: hit.index, position: hit.position, value }
}

/**
 * Arrow segments over the drawn points along the vector columns (at most 5000, 25 px apart, as
 * long as 25 px at the largest magnitude), or null when no drawn object has the columns.
 */
export function buildOutputArrows(
  view: OutputView,
  drawCounts: ReadonlyMap<string, number>,
  columns: readonly [string, string, string],
  camera: CameraState,
  size: ViewportSize,
  viewProjection: ArrayLike<number>,
  clip: PlaneEquation | null,
): Float32Array | null {
  const sources = outputPickTargets(view, drawCounts)
  const vectors = sources.map((source) => {
    const object = view.objects.find((o) => o.object.objectId === source.objectId)
    const arrays = columns.map((name) => object?.columns.get(name))
    return arrays.every((array) => array !== undefined)
      ? (arrays as [Float32Array, Float32Array, Float32Array])
      : null
  })
  const usable = sources.filter((_, index) => vectors[index] !== null)
  const usableVectors = vectors.filter((v) => v !== null)
  if (usable.length === 0) return null
  const samples = sampleArrowRows(usable, viewProjection, size.width, size.height, clip)
  let maxMagnitude = 0
  samples.forEach((rows, s) => {
    const [a, b, c] = usableVectors[s]!
    for (const row of rows) {
      const magnitude = Math.hypot(a[row] as number, b[row] as number, c[row] as number)
      if (Number.isFinite(magnitude)) maxMagnitude = Math.max(maxMagnitude, magnitude)
    }
  })
  const lengthM = VECTOR_FIELD_ARROWS.spacingPx * metresPerPixel(camera, size.height)
  const parts = samples.map((rows, s) =>
    buildArrowSegments(
      usable[s]!,
      usableVectors[s]!,
      rows,
      maxMagnitude,
      lengthM,
      cameraBasis(camera).forward,
    ),
  )
  const segments = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    segments.set(part, offset)
    offset += part.length
  }
  return segments
}
