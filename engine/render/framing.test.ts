import { Matrix4, OrthographicCamera, PerspectiveCamera, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { FIELD_OF_VIEW_DEG } from '../../domain/constants.ts'
import { defaultViewportState, type CameraState } from '../../domain/results.ts'
import { cameraBasis, orthographicHalfExtents, type Bounds } from './camera.ts'
import { FRAME_MARGIN, frameBounds, frontRightTopCamera } from './framing.ts'

const ASPECT = 1.6

/** Device coordinates of the bounds' corners as a camera of that state draws them. */
function projectedCorners(camera: CameraState, bounds: Bounds): { x: number; y: number }[] {
  const { halfWidth, halfHeight } = orthographicHalfExtents(camera, ASPECT)
  const three =
    camera.mode === 'orthographic'
      ? new OrthographicCamera(-halfWidth, halfWidth, halfHeight, -halfHeight, 0.001, 1000)
      : new PerspectiveCamera(FIELD_OF_VIEW_DEG, ASPECT, 0.001, 1000)
  three.position.set(...camera.position)
  three.up.set(...camera.up)
  three.lookAt(...camera.target)
  three.updateMatrixWorld()
  three.updateProjectionMatrix()
  const viewProjection = new Matrix4().multiplyMatrices(
    three.projectionMatrix,
    three.matrixWorldInverse,
  )
  const corners: { x: number; y: number }[] = []
  for (let c = 0; c < 8; c++) {
    const p = new Vector3(
      c & 1 ? bounds.max[0] : bounds.min[0],
      c & 2 ? bounds.max[1] : bounds.min[1],
      c & 4 ? bounds.max[2] : bounds.min[2],
    ).applyMatrix4(viewProjection)
    corners.push({ x: p.x, y: p.y })
  }
  return corners
}

// The dam break's tank: long, thin and tall.
const tank: Bounds = { min: [0, 0, 0], max: [1.6, 0.1, 0.7] }
const start = defaultViewportState().camera

describe('framing', () => {
  for (const mode of ['perspective', 'orthographic'] as const)
    it(`frames every corner inside the view, with the margin, and tightly (${mode})`, () => {
      const framed = frameBounds({ ...start, mode }, tank, ASPECT)
      const corners = projectedCorners(framed, tank)
      // How far the corners reach towards the margin, across and up (1: at it).
      const across = Math.max(...corners.map(({ x }) => Math.abs(x))) / (1 - 2 * FRAME_MARGIN.x)
      const up = Math.max(...corners.map(({ y }) => Math.abs(y))) / (1 - 2 * FRAME_MARGIN.y)
      expect(Math.max(across, up)).toBeLessThanOrEqual(1 + 1e-6)
      // Tight: one corner reaches the margin (a sphere fit leaves the box far smaller).
      expect(Math.max(across, up)).toBeGreaterThan(1 - 1e-3)
      expect(framed.target).toEqual([0.8, 0.05, 0.35])
      expect(framed.mode).toBe(mode)
    })

  it('keeps the direction the camera looks in', () => {
    const side: CameraState = { ...start, position: [5, 0, 0], target: [0, 0, 0] }
    const framed = frameBounds(side, tank, ASPECT)
    expect(cameraBasis(framed).forward[0]).toBeCloseTo(-1)
  })

  it('frames a single point from close by, never from inside', () => {
    const framed = frameBounds(start, { min: [1, 2, 3], max: [1, 2, 3] }, ASPECT)
    expect(framed.target).toEqual([1, 2, 3])
    const distance = Math.hypot(...framed.position.map((p, i) => p - framed.target[i]!))
    expect(distance).toBeGreaterThan(0)
    expect(distance).toBeLessThan(0.01)
  })

  it('looks from the front-right-top for a first view, as the results scene does', () => {
    const looking = frontRightTopCamera({ ...start, position: [0, 0, 10], up: [0, 1, 0] })
    const { forward } = cameraBasis(looking)
    // From −y (front), +x (right) and +z (top) towards the target.
    expect(forward[0]).toBeLessThan(0)
    expect(forward[1]).toBeGreaterThan(0)
    expect(forward[2]).toBeLessThan(0)
    expect(cameraBasis(looking).up[2]).toBeGreaterThan(0)
  })
})
