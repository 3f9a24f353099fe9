import { Matrix4, PerspectiveCamera, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { FIELD_OF_VIEW_DEG } from '../../domain/constants.ts'
import type { CameraState } from '../../domain/results.ts'
import {
  axisGizmoOrientation,
  easeInOut,
  interpolateCamera,
  cameraDistance,
  fitCamera,
  metresPerPixel,
  orbitCamera,
  orientCamera,
  orthographicHalfExtents,
  panCamera,
  switchCameraMode,
  viewCubeOrientations,
  zoomCamera,
  zoomCameraTowards,
  CAMERA_DISTANCE_LIMITS,
  ORBIT_RADIANS_PER_PX,
  subtractVectors,
  dotVectors,
} from './camera.ts'

const camera: CameraState = {
  position: [10, 0, 0],
  target: [0, 0, 0],
  up: [0, 0, 1],
  mode: 'perspective',
}

function close(a: readonly number[], b: readonly number[], digits = 9) {
  a.forEach((value, i) => expect(value).toBeCloseTo(b[i] as number, digits))
}

describe('camera modes', () => {
  it('keeps position, up and target when switching to orthographic and back', () => {
    const ortho = switchCameraMode(camera, 'orthographic')
    expect(ortho.mode).toBe('orthographic')
    expect(ortho.position).toEqual(camera.position)
    expect(ortho.target).toEqual(camera.target)
    expect(ortho.up).toEqual(camera.up)
    const back = switchCameraMode(ortho, 'perspective')
    expect(back).toEqual(camera)
  })

  it('sizes the orthographic view like the perspective view at the target', () => {
    const { halfHeight, halfWidth } = orthographicHalfExtents(camera, 2)
    expect(halfHeight).toBeCloseTo(10 * Math.tan((FIELD_OF_VIEW_DEG * Math.PI) / 360))
    expect(halfWidth).toBeCloseTo(2 * halfHeight)
    expect(metresPerPixel(camera, 500)).toBeCloseTo((2 * halfHeight) / 500)
  })
})

describe('orbit, pan and zoom', () => {
  it('orbits about the up axis for a horizontal drag, keeping distance, target and up', () => {
    const quarterPx = Math.PI / 2 / ORBIT_RADIANS_PER_PX
    const turned = orbitCamera(camera, -quarterPx, 0)
    close(turned.position, [0, 10, 0])
    expect(turned.target).toEqual(camera.target)
    expect(turned.up).toEqual(camera.up)
  })

  it('tilts for a vertical drag but never past the pole', () => {
    const tilted = orbitCamera(camera, 0, 100)
    expect(tilted.position[2]).toBeGreaterThan(0)
    expect(cameraDistance(tilted)).toBeCloseTo(10)
    const over = orbitCamera(camera, 0, 100_000)
    expect(over.position[2]).toBeLessThan(10)
    expect(over.position[2]).toBeGreaterThan(9.99)
    expect(Math.hypot(over.position[0], over.position[1])).toBeGreaterThan(0)
  })

  it('pans position and target together so the picture follows the pointer', () => {
    const panned = panCamera(camera, 100, 0, 500)
    const shift = subtractVectors(panned.target, camera.target)
    expect(subtractVectors(panned.position, camera.position)).toEqual(shift)
    // Looking along -x with z up, screen right is +y: dragging right moves the scene right, the camera left.
    expect(shift[1]).toBeLessThan(0)
    expect(Math.hypot(...shift)).toBeCloseTo(100 * metresPerPixel(camera, 500))
  })

  it('zooms towards the target and stays within the distance limits', () => {
    expect(cameraDistance(zoomCamera(camera, 0.5))).toBeCloseTo(5)
    expect(cameraDistance(zoomCamera(camera, 1e-12))).toBeCloseTo(CAMERA_DISTANCE_LIMITS.minM)
    expect(zoomCamera(camera, NaN)).toBe(camera)
    expect(zoomCamera(camera, 2).target).toEqual(camera.target)
  })
})

describe('zoom towards the pointer', () => {
  function project(state: CameraState, point: Vector3, aspect: number): [number, number] {
    const three = new PerspectiveCamera(FIELD_OF_VIEW_DEG, aspect, 0.01, 100)
    three.position.set(...state.position)
    three.up.set(...state.up)
    three.lookAt(...state.target)
    three.updateMatrixWorld()
    const matrix = new Matrix4().multiplyMatrices(three.projectionMatrix, three.matrixWorldInverse)
    const projected = point.clone().applyMatrix4(matrix)
    return [projected.x, projected.y]
  }

  it('keeps the point under the pointer where it is on screen', () => {
    const aspect = 1.5
    // The point on the target plane under device position (0.6, -0.4).
    const halfHeight = 10 * Math.tan((FIELD_OF_VIEW_DEG * Math.PI) / 360)
    // Looking along -x with z up: screen right is +y, screen up is +z.
    const point = new Vector3(0, 0.6 * halfHeight * aspect, -0.4 * halfHeight)
    const before = project(camera, point, aspect)
    expect(before[0]).toBeCloseTo(0.6)
    expect(before[1]).toBeCloseTo(-0.4)
    const zoomed = zoomCameraTowards(camera, 0.5, 0.6, -0.4, aspect)
    expect(cameraDistance(zoomed)).toBeCloseTo(5)
    const after = project(zoomed, point, aspect)
    expect(after[0]).toBeCloseTo(0.6)
    expect(after[1]).toBeCloseTo(-0.4)
  })

  it('zooms straight in at the centre of the view', () => {
    const zoomed = zoomCameraTowards(camera, 0.5, 0, 0, 1)
    expect(zoomed.target).toEqual(camera.target)
    close(zoomed.position, zoomCamera(camera, 0.5).position)
  })
})

describe('view orientations', () => {
  it('looks along the given direction from the same distance, with the given up', () => {
    const top = orientCamera(camera, [0, 0, -1], [0, 1, 0])
    close(top.position, [0, 0, 10])
    close(top.up, [0, 1, 0])
    expect(top.target).toEqual(camera.target)
  })

  it('replaces an up parallel to the direction by a perpendicular one', () => {
    const view = orientCamera(camera, [0, 0, -1], [0, 0, 1])
    expect(Math.abs(dotVectors(view.up, [0, 0, 1]))).toBeLessThan(1e-9)
    expect(Math.hypot(...view.up)).toBeCloseTo(1)
  })

  it('offers 26 view-cube orientations with unit directions and ups perpendicular to them', () => {
    const views = viewCubeOrientations()
    expect(views).toHaveLength(26)
    expect(new Set(views.map((view) => view.name)).size).toBe(26)
    const top = views.find((view) => view.name === 'top')
    expect(top?.direction).toEqual([-0, -0, -1])
    for (const view of views) {
      expect(Math.hypot(...view.direction)).toBeCloseTo(1)
      const oriented = orientCamera(camera, view.direction, view.up)
      expect(Math.abs(dotVectors(oriented.up, view.direction))).toBeLessThan(1e-9)
    }
  })

  it('puts the camera on the clicked gizmo axis', () => {
    const x = axisGizmoOrientation('x', true)
    close(orientCamera(camera, x.direction, x.up).position, [10, 0, 0])
    const minusY = axisGizmoOrientation('y', false)
    close(orientCamera(camera, minusY.direction, minusY.up).position, [0, -10, 0])
  })

  it('fits bounds by centring the target and backing off until they fit', () => {
    const fitted = fitCamera(camera, { min: [0, 0, 0], max: [2, 2, 2] }, 1.5)
    close(fitted.target, [1, 1, 1])
    const radius = Math.sqrt(3)
    const halfFov = (FIELD_OF_VIEW_DEG * Math.PI) / 360
    expect(cameraDistance(fitted)).toBeCloseTo(radius / Math.sin(halfFov))
  })
})

describe('camera keyframe interpolation', () => {
  const from: CameraState = {
    position: [2, 0, 0],
    target: [0, 0, 0],
    up: [0, 0, 1],
    mode: 'perspective',
  }

  it('starts at the first camera, ends at the second and keeps the distance on the way', () => {
    const to: CameraState = { ...from, position: [0, 2, 0] }
    expect(interpolateCamera(from, to, 0)).toEqual(from)
    expect(interpolateCamera(from, to, 1)).toEqual(to)
    const middle = interpolateCamera(from, to, 0.5)
    expect(Math.hypot(...middle.position)).toBeCloseTo(2, 9)
    expect(middle.position[0]).toBeCloseTo(Math.SQRT2, 9)
    expect(middle.position[1]).toBeCloseTo(Math.SQRT2, 9)
  })

  it('turns half a circle without passing through the target, with a normalized up', () => {
    const to: CameraState = { ...from, position: [-2, 0, 0] }
    for (const t of [0.25, 0.5, 0.75]) {
      const camera = interpolateCamera(from, to, t)
      expect(Math.hypot(...camera.position)).toBeCloseTo(2, 9)
      expect(Math.hypot(...camera.up)).toBeCloseTo(1, 9)
    }
  })

  it('eases in and out between 0 and 1', () => {
    expect(easeInOut(-1)).toBe(0)
    expect(easeInOut(0.5)).toBe(0.5)
    expect(easeInOut(2)).toBe(1)
    expect(easeInOut(0.1)).toBeLessThan(0.1)
  })
})
