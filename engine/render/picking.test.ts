import { Matrix4, PerspectiveCamera } from 'three'
import { describe, expect, it } from 'vitest'
import { clipPlaneEquation } from './clip.ts'
import { pickPoint, pointerToDevice, Throttle, type PickTarget } from './picking.ts'

function viewProjection(): Matrix4 {
  const camera = new PerspectiveCamera(45, 1, 0.1, 100)
  camera.position.set(0, 0, 10)
  camera.lookAt(0, 0, 0)
  camera.updateMatrixWorld()
  return new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
}

function target(points: [number, number, number][], objectId = 'fluid'): PickTarget {
  return {
    objectId,
    x: Float32Array.from(points.map((p) => p[0])),
    y: Float32Array.from(points.map((p) => p[1])),
    z: Float32Array.from(points.map((p) => p[2])),
    count: points.length,
  }
}

describe('point picking', () => {
  const matrix = viewProjection().elements

  it('picks the point under the pointer, the nearest to the camera when several are', () => {
    const hit = pickPoint(
      [
        target([
          [0, 0, 0],
          [0, 0, 2],
          [3, 0, 0],
        ]),
      ],
      matrix,
      0,
      0,
      1,
      null,
    )
    expect(hit?.index).toBe(1)
    expect(hit?.position).toEqual([0, 0, 2])
  })

  it('misses points farther than the 0.02 threshold in device units', () => {
    // At distance 10 with a 45° view, 1 device unit is 10·tan(22.5°) ≈ 4.14 m.
    const metresPerUnit = 10 * Math.tan(Math.PI / 8)
    const near = target([[0.019 * metresPerUnit, 0, 0]])
    const far = target([[0.021 * metresPerUnit, 0, 0]])
    expect(pickPoint([near], matrix, 0, 0, 1, null)).not.toBeNull()
    expect(pickPoint([far], matrix, 0, 0, 1, null)).toBeNull()
  })

  it('skips points the clip removes and points beyond the drawn prefix', () => {
    const points = target([
      [0, 0, 2],
      [0, 0, 0],
    ])
    const clip = clipPlaneEquation({ enabled: true, axis: 'z', flipped: false, offsetM: 1 })
    expect(pickPoint([points], matrix, 0, 0, 1, clip)?.index).toBe(1)
    expect(pickPoint([{ ...points, count: 1 }], matrix, 0, 0, 1, clip)).toBeNull()
  })

  it('names the object the winning point belongs to', () => {
    const hit = pickPoint(
      [target([[0, 0, 0]], 'water'), target([[0, 0, 1]], 'wall')],
      matrix,
      0,
      0,
      1,
      null,
    )
    expect(hit?.objectId).toBe('wall')
  })

  it('converts CSS pixels to device coordinates with y up', () => {
    expect(pointerToDevice(0, 0, 200, 100)).toEqual([-1, 1])
    expect(pointerToDevice(200, 100, 200, 100)).toEqual([1, -1])
    expect(pointerToDevice(100, 50, 200, 100)).toEqual([0, 0])
  })

  it('throttles hover picks to one per interval', () => {
    const throttle = new Throttle(30)
    expect(throttle.tryAcquire(0)).toBe(true)
    expect(throttle.tryAcquire(29)).toBe(false)
    expect(throttle.tryAcquire(30)).toBe(true)
  })
})
