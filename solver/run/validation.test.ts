/**
 * Coarse versions of the validation cases (validation/cases.ts; the fine ones run in
 * `npm run validate`). Tolerances are loosened for the coarse resolution where the fine case's
 * would not hold; each says which.
 */
import { describe, expect, it } from 'vitest'
import {
  fitSlope,
  interpolateTable,
  runClosedBoxCase,
  runDamBreakCase,
  runHydrostaticCase,
} from '../../validation/cases.ts'
import { computeCrc32, createRaster, drawLine, encodePng } from '../../validation/png.ts'
import { inflateSync } from 'node:zlib'

describe('validation cases (coarse)', () => {
  it('holds a tank at rest within 5 % of ρgh below 2h (10 layers; 2 % at validation resolution) with the surface within one dp', async () => {
    const { metrics, profile } = await runHydrostaticCase({
      dp: 0.025,
      depth: 0.2,
      endTimeS: 0.25,
      pressureTolerance: 0.05,
    })
    expect(profile.length).toBeGreaterThan(4)
    for (const metric of metrics) expect(metric, metric.metric).toMatchObject({ ok: true })
  }, 60_000)

  it('follows Martin & Moyce: front speed over T = 2–3 within 10 % and the front within 5 % after a shift ≤ 0.25', async () => {
    const result = await runDamBreakCase({
      columnWidth: 0.1,
      particlesAcross: 8,
      particlesDeep: 3,
      endT: 3.1,
      speedTolerance: 0.1,
    })
    expect(result.front[0]).toEqual([0, 1])
    for (const metric of result.metrics) expect(metric, metric.metric).toMatchObject({ ok: true })
    // the front only moves forward
    for (let k = 1; k < result.front.length; k++)
      expect(result.front[k]![1]).toBeGreaterThanOrEqual(result.front[k - 1]![1] - 1e-9)
  }, 120_000)

  it('conserves mass and particle count exactly in a closed box, with no particle through a wall', async () => {
    const metrics = await runClosedBoxCase({ dp: 0.025, endTimeS: 0.2 })
    for (const metric of metrics)
      expect(metric, metric.metric).toMatchObject({ ok: true, value: 0 })
  }, 60_000)
})

describe('validation helpers', () => {
  it('interpolates a table linearly and fits the slope of a line', () => {
    const table = [
      [0, 0],
      [1, 2],
      [3, 4],
    ] as const
    expect(interpolateTable(table, 0.5)).toBe(1)
    expect(interpolateTable(table, 2)).toBe(3)
    expect(interpolateTable(table, 9)).toBe(4)
    const line = [0, 0.5, 1, 1.5, 2].map((x) => [x, 3 * x + 1] as const)
    expect(fitSlope(line, 0.4, 2)).toBeCloseTo(3, 12)
  })

  it('writes a PNG whose chunks carry valid CRCs and whose pixels decode back', () => {
    const raster = createRaster(4, 3, [255, 255, 255])
    drawLine(raster, 0, 1, 3, 1, [255, 0, 0])
    const png = encodePng(raster)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const view = new DataView(png.buffer)
    let offset = 8
    const types: string[] = []
    let idat = new Uint8Array()
    while (offset < png.length) {
      const length = view.getUint32(offset)
      const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8))
      types.push(type)
      expect(view.getUint32(offset + 8 + length)).toBe(
        computeCrc32(png.subarray(offset + 4, offset + 8 + length)),
      )
      if (type === 'IDAT') idat = png.slice(offset + 8, offset + 8 + length)
      offset += 12 + length
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND'])
    const rows = inflateSync(idat)
    expect(rows.length).toBe(3 * (1 + 4 * 3))
    // row 1, pixel 2 is red
    expect([...rows.subarray(13 + 1 + 6, 13 + 1 + 9)]).toEqual([255, 0, 0])
    expect(computeCrc32(new TextEncoder().encode('IEND'))).toBe(0xae426082)
  })
})
