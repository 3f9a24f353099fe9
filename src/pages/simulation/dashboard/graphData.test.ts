import { describe, expect, it } from 'vitest'
import { defaultGraphSettings } from '../../../../domain/dashboards.ts'
import type { LogGraphs } from '../../../../domain/logGraphs.ts'
import type { SensorSeries } from '../../../../domain/sensorSampling.ts'
import {
  drawablePoints,
  formatGraphValue,
  logGraphSeries,
  sensorGraphSeries,
  thinPoints,
} from './graphData.ts'
import { graphChartOptions } from '../../../../engine/dashboard/graphChart.ts'

/** Log graphs as GET /simulations/{id}/log_graphs sends them: time in s, progress 0 … 1. */
const GRAPHS: LogGraphs = {
  runId: 1,
  lineCount: 3,
  graphs: {
    particles: { timeS: [0, 0.1, 0.2], progress: [0, 0.25, 0.5], value: [1000, 1000, 990] },
    runtimePerS: { timeS: [0.1, 0.2], progress: [0.25, 0.5], value: [20, 40] },
    dt: { timeS: [0, 0.1, 0.2], progress: [0, 0.25, 0.5], value: [1e-4, 2e-4, 1.5e-4] },
  },
}

describe('log graphs', () => {
  it('plots particles and dt against simulated time in s', () => {
    expect(logGraphSeries(GRAPHS, 'particles', false).points).toEqual([
      { x: 0, y: 1000 },
      { x: 0.1, y: 1000 },
      { x: 0.2, y: 990 },
    ])
    expect(logGraphSeries(GRAPHS, 'dt', false).yTitle).toBe('Time step (s)')
  })

  it('plots progress in percent on request', () => {
    const series = logGraphSeries(GRAPHS, 'runtimePerS', true)
    expect(series.points).toEqual([
      { x: 25, y: 20 },
      { x: 50, y: 40 },
    ])
    expect(series.xTitle).toBe('Progress (%)')
  })

  it('is empty before the run logs anything', () => {
    expect(logGraphSeries(undefined, 'particles', false).points).toEqual([])
  })
})

describe('sensor graphs', () => {
  const series: SensorSeries = {
    sensorId: 3,
    runId: 1,
    sampleRate: 'every_step',
    sampleCount: 3,
    count: 3,
    timeS: [0, 0.05, 0.1],
    pressure: [0, 50_000, null],
    vx: [3, 0, 1],
    vy: [4, 0, 1],
    vz: [0, 0, null],
  }
  it('plots pressure, leaving out missing samples, and the velocity magnitude', () => {
    expect(sensorGraphSeries(series, 'pressure', false, 1).points).toEqual([
      { x: 0, y: 0 },
      { x: 0.05, y: 50_000 },
    ])
    expect(sensorGraphSeries(series, 'velocity', true, 0.1).points).toEqual([
      { x: 0, y: 5 },
      { x: 50, y: 0 },
    ])
  })
})

describe('chart options', () => {
  const series = logGraphSeries(GRAPHS, 'particles', false)
  it('draw a logarithmic y axis for logValues, and leave out values it cannot place', () => {
    const settings = {
      ...defaultGraphSettings({ kind: 'log', graph: 'particles' } as const),
      logValues: true,
    }
    expect(graphChartOptions(settings, series).scales?.y?.type).toBe('logarithmic')
    expect(
      drawablePoints(
        [
          { x: 0, y: 0 },
          { x: 1, y: 2 },
        ],
        true,
      ),
    ).toEqual([{ x: 1, y: 2 }])
  })
  it('use the manual range unless automatic, and never animate', () => {
    const settings = {
      ...defaultGraphSettings({ kind: 'log', graph: 'particles' } as const),
      xAuto: false,
      xMin: 0.05,
      xMax: 0.15,
      yMin: 1,
      yMax: 2,
    }
    const options = graphChartOptions(settings, series)
    expect(options.scales?.x).toMatchObject({ min: 0.05, max: 0.15 })
    expect(options.scales?.y).not.toHaveProperty('min')
    expect(options.animation).toBe(false)
  })
})

describe('thinning', () => {
  it('keeps at most about maxPoints, the ends and every bucket peak', () => {
    const points = Array.from({ length: 10_000 }, (_, i) => ({ x: i, y: i === 4321 ? 1e6 : 1 }))
    const thinned = thinPoints(points, 1000)
    expect(thinned.length).toBeLessThanOrEqual(1001)
    expect(thinned[0]).toEqual({ x: 0, y: 1 })
    expect(thinned.at(-1)).toEqual({ x: 9999, y: 1 })
    expect(thinned).toContainEqual({ x: 4321, y: 1e6 })
    expect(thinned.every((p, i) => i === 0 || p.x > (thinned[i - 1]?.x ?? -1))).toBe(true)
  })
})

describe('values under the pointer', () => {
  it('reads as people write them: counts with separators, other values to 6 digits', () => {
    expect(formatGraphValue(17002)).toBe('17,002')
    expect(formatGraphValue(999)).toBe('999')
    expect(formatGraphValue(0.000927289123)).toBe('0.000927289')
    expect(formatGraphValue(618.34321)).toBe('618.343')
  })
})
