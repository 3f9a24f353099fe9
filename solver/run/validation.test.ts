/**
 * Coarse versions of the validation cases (validation/; the fine ones run in `npm run validate`).
 * Tolerances are loosened for the coarse resolution where the fine case's would not hold; each
 * says which.
 */
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  boreDepth,
  crossing,
  fitSlope,
  interpolateTable,
  MARTIN_MOYCE_FIGURE,
  MARTIN_MOYCE_TABLE,
  runClosedBoxCase,
  runHydrostaticCase,
  runMartinMoyceCase,
  runPistonCase,
  shiftAgainst,
  tableSpeed,
  windowMean,
} from '../../validation/cases.ts'
import { computeCrc32, createRaster, drawLine, encodePng } from '../../validation/png.ts'

describe('validation cases (coarse)', () => {
  it('holds a tank at rest within 5 % of ρgh below 2h (8 layers; 1 % at validation resolution) with the surface within one dp', async () => {
    const { metrics, profile } = await runHydrostaticCase({
      dp: 0.025,
      depth: 0.2,
      endTimeS: 0.25,
      pressureTolerance: 0.05,
    })
    expect(profile.length).toBeGreaterThan(4)
    for (const m of metrics) expect(m, m.metric).toMatchObject({ ok: true })
  }, 120_000)

  it('follows Martin & Moyce at 10 across: the front within 5 % after a shift ≤ 0.25 (3 % at 20–30 across), its speed within 10 % of the tabulations (2 %), nothing lost', async () => {
    const result = await runMartinMoyceCase({
      columnWidth: 0.1,
      particlesAcross: 10,
      particlesDeep: 3,
      endT: 3.1,
      positionTolerance: 0.05,
      speedTolerance: 0.1,
    })
    expect(result.front[0]).toEqual([0, 1])
    for (const m of result.metrics) expect(m, m.metric).toMatchObject({ ok: true })
    // the front only moves forward
    for (let k = 1; k < result.front.length; k++)
      expect(result.front[k]![1]).toBeGreaterThanOrEqual(result.front[k - 1]![1] - 1e-9)
  }, 240_000)

  it('conserves mass and particle count exactly in a closed box, with no particle through a wall', async () => {
    const metrics = await runClosedBoxCase({ dp: 0.025, endTimeS: 0.2 })
    for (const m of metrics) expect(m, m.metric).toMatchObject({ ok: true, value: 0 })
  }, 120_000)

  it("makes a piston bore at 6 particles across the depth whose front runs within 5 % of the Serre–Green–Naghdi front's speed (0.8 % measured; 7.4 % below the shallow-water bore's, the undular front still forming)", async () => {
    const result = await runPistonCase({
      particlesPerDepth: 6,
      particlesDeep: 3,
      endTimeS: 0.4,
    })
    for (const m of result.metrics) expect(m, m.metric).toMatchObject({ ok: true })
  }, 240_000)
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
    expect(windowMean([0, 1, 2, 3], [5, 1, 3, 9], 0.5, 2.5)).toBe(2)
    expect(windowMean([0, 1], [5, 1], 3, 4)).toBeNaN()
  })

  it('measures the two Martin & Moyce tabulations as the simulation: front speeds over T = 2–3 of 1.343 (Figure 3) and 1.365 (Table 2)', () => {
    expect(tableSpeed(MARTIN_MOYCE_FIGURE)).toBeCloseTo(1.343, 3)
    expect(tableSpeed(MARTIN_MOYCE_TABLE)).toBeCloseTo(1.365, 3)
  })

  it('finds the time shift that lays a delayed front onto a table', () => {
    // a front 0.2 earlier than the table: shifting it later by 0.2 matches
    const front = MARTIN_MOYCE_TABLE.map(([T, Z]) => [T - 0.2, Z] as const)
    const { shiftT, error } = shiftAgainst(front, MARTIN_MOYCE_TABLE, 3.5, 0.25)
    expect(shiftT).toBeCloseTo(0.2, 9)
    expect(error(shiftT)).toBeLessThan(1e-9)
    expect(error(0)).toBeGreaterThan(0.05)
  })

  it('solves the bore relation: mass and momentum balance across the jump', () => {
    const d = 0.1
    const h1 = boreDepth(d, 0.3)
    const g = 9.81
    const c = (0.3 * h1) / (h1 - d)
    // momentum flux balance in the bore's frame: ½ g h² + h u² equal on both sides
    const ahead = 0.5 * g * d * d + d * c * c
    const behind = 0.5 * g * h1 * h1 + h1 * (c - 0.3) ** 2
    expect(behind / ahead).toBeCloseTo(1, 9)
    expect(h1).toBeGreaterThan(0.13)
    expect(h1).toBeLessThan(0.135)
  })

  it('finds the bore front between column centres, so that it moves smoothly rather than in steps of dp', () => {
    const dp = 0.01
    const empty = -Infinity
    // surface 0.14 in columns 0–1, 0.12 in column 2, still water 0.1 beyond: level 0.11 is crossed
    // halfway between the centres of columns 2 and 3 (x = 3 dp)
    const top = Float64Array.from([0.14, 0.14, 0.12, 0.1, 0.1])
    expect(crossing(top, 0.11, 0.1, dp)).toBeCloseTo(3 * dp, 12)
    // a quarter of the way when the surface in column 2 is 0.14
    top[2] = 0.14
    expect(crossing(top, 0.13, 0.1, dp)).toBeCloseTo(2.75 * dp, 12)
    // the last column above the level: still water d taken beyond it; an empty column the same
    expect(crossing(Float64Array.from([0.1, 0.1, 0.12]), 0.11, 0.1, dp)).toBeCloseTo(3 * dp, 12)
    expect(crossing(Float64Array.from([0.12, empty]), 0.11, 0.1, dp)).toBeCloseTo(dp, 12)
    expect(crossing(Float64Array.from([0.1, empty]), 0.11, 0.1, dp)).toBeNaN()
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
