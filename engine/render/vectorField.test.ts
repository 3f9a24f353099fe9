import { Matrix4, OrthographicCamera } from 'three'
import { describe, expect, it } from 'vitest'
import {
  ARROW_FLOATS,
  buildArrowSegments,
  sampleArrowRows,
  type ArrowSource,
} from './vectorField.ts'

// An orthographic camera over [-1, 1]² so world x, y map linearly to a 1000 × 1000 px screen.
function viewProjection(): Matrix4 {
  const camera = new OrthographicCamera(-1, 1, 1, -1, 0.1, 10)
  camera.position.set(0, 0, 5)
  camera.lookAt(0, 0, 0)
  camera.updateMatrixWorld()
  return new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
}

function grid(n: number): ArrowSource {
  const x = new Float32Array(n * n)
  const y = new Float32Array(n * n)
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      x[i * n + j] = -1 + (2 * (i + 0.5)) / n
      y[i * n + j] = -1 + (2 * (j + 0.5)) / n
    }
  return { x, y, z: new Float32Array(n * n), count: n * n }
}

describe('vector-field arrow sampling', () => {
  const matrix = viewProjection().elements

  it('takes at most one sample per 25-px cell', () => {
    const [rows] = sampleArrowRows([grid(200)], matrix, 1000, 1000, null)
    expect(rows).toHaveLength(40 * 40)
  })

  it('never takes more than 5000 samples', () => {
    const [rows] = sampleArrowRows([grid(400)], matrix, 4000, 4000, null)
    expect(rows).toHaveLength(5000)
  })

  it('shares the sample limit across objects', () => {
    const samples = sampleArrowRows([grid(400), grid(400)], matrix, 4000, 4000, null, 25, 300)
    expect(samples[0]).toHaveLength(300)
    expect(samples[1]).toHaveLength(0)
  })

  it('skips points outside the view and clipped points', () => {
    const source: ArrowSource = {
      x: Float32Array.from([5, 0.5, -0.5]),
      y: Float32Array.from([0, 0, 0]),
      z: Float32Array.from([0, 0, 0]),
      count: 3,
    }
    const [rows] = sampleArrowRows([source], matrix, 1000, 1000, [-1, 0, 0, 0])
    expect(rows).toEqual([2])
  })

  it('scales the longest arrow to the given length and zeroes non-finite vectors', () => {
    const source: ArrowSource = {
      x: Float32Array.from([0, 1]),
      y: Float32Array.from([0, 0]),
      z: Float32Array.from([0, 0]),
      count: 2,
    }
    const vectors = [
      Float32Array.from([2, NaN]),
      Float32Array.from([0, 0]),
      Float32Array.from([0, 0]),
    ] as const
    const segments = buildArrowSegments(source, vectors, [0, 1], 2, 0.1, [0, 0, -1])
    expect(segments).toHaveLength(2 * ARROW_FLOATS)
    const round = (values: Float32Array) => Array.from(values).map((v) => +v.toFixed(6) + 0)
    // Shaft from the particle to the tip, one tenth of a metre along x.
    expect(round(segments.subarray(0, 6))).toEqual([0, 0, 0, 0.1, 0, 0])
    // Head strokes from the tip back 30 % and out ±15 % across, in the plane facing the camera.
    expect(round(segments.subarray(6, 12))).toEqual([0.1, 0, 0, 0.07, 0.015, 0])
    expect(round(segments.subarray(12, 18))).toEqual([0.1, 0, 0, 0.07, -0.015, 0])
    // NaN: a zero-length arrow at the particle.
    expect(round(segments.subarray(18, 24))).toEqual([1, 0, 0, 1, 0, 0])
  })
})
