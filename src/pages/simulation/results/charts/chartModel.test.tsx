import { describe, expect, it } from 'vitest'
import { defaultChartLayout, type ChartWindow } from '../../../../../domain/results.ts'
import {
  buildChartAxes,
  buildChartDatasets,
  chartXOf,
  formatTick,
  outputIntervalOf,
  parseYBound,
  timeIndicatorX,
} from './chartModel.ts'

function chartWindow(layout: Partial<ChartWindow['layout']> = {}): ChartWindow {
  return {
    id: 'chart-1',
    attribute: 'pressure',
    datasets: [
      {
        id: 'a',
        operation: 'mean',
        attribute: 'pressure',
        subAttribute: null,
        objs: [],
        data: [
          { x: 2, y: 3 },
          { x: 0, y: 1 },
          { x: 1, y: null },
        ],
      },
    ],
    layout: {
      ...defaultChartLayout('Pressure', 'Pressure (Pa)'),
      datasetLayouts: {
        a: { name: 'Mean', lineStyle: 'dashed', markerStyle: 'cross', color: '#25C189' },
      },
      ...layout,
    },
  }
}

describe('chart model', () => {
  it('puts outputs at their time (output × interval) on the time axis, sorted, gaps kept', () => {
    const [line] = buildChartDatasets(chartWindow(), 0.02)
    expect(line?.data).toEqual([
      { x: 0, y: 1 },
      { x: 0.02, y: null },
      { x: 0.04, y: 3 },
    ])
    expect(line?.spanGaps).toBe(false)
  })

  it('puts outputs at their number on the Output axis', () => {
    const [line] = buildChartDatasets(chartWindow({ xAxis: 'outputs' }), 0.02)
    expect(line?.data.map((point) => point.x)).toEqual([0, 1, 2])
  })

  it('draws the dataset layout: dashes, marker, colour, name', () => {
    const [line] = buildChartDatasets(chartWindow(), 1)
    expect(line).toMatchObject({
      label: 'Mean',
      borderColor: '#25C189',
      borderDash: [6, 4],
      showLine: true,
      pointStyle: 'crossRot',
      cubicInterpolationMode: 'default',
    })
  })

  it('draws no line for line style none and no points for marker none', () => {
    const window = chartWindow()
    window.layout.datasetLayouts.a = {
      name: 'x',
      lineStyle: 'none',
      markerStyle: 'none',
      color: '#444444',
    }
    const [line] = buildChartDatasets(window, 1)
    expect(line).toMatchObject({ showLine: false, pointStyle: false, pointRadius: 0 })
  })

  it('uses monotone cubic interpolation for monotoneX', () => {
    const [line] = buildChartDatasets(chartWindow({ interpolation: 'monotoneX' }), 1)
    expect(line?.cubicInterpolationMode).toBe('monotone')
  })

  it('falls back to output numbers when the output interval is unknown', () => {
    expect(chartXOf(3, 'time', Number.NaN)).toBe(3)
    expect(
      outputIntervalOf({ outputTimeInterval: 0.1, settings: { outputTimeInterval: null } }),
    ).toBe(0.1)
    expect(outputIntervalOf({ settings: { outputTimeInterval: 0.05 } })).toBe(0.05)
  })

  it('draws Y bounds per the rule: the upper bound is the min on a violation', () => {
    expect(buildChartAxes(chartWindow({ minY: 5, maxY: 2 })).y).toMatchObject({ min: 5, max: 5 })
    expect(buildChartAxes(chartWindow({ minY: null, maxY: 2 })).y).toMatchObject({
      min: undefined,
      max: 2,
    })
  })

  it('titles the axes and uses 6 ticks, 8 decimals on X and 9 on Y', () => {
    const axes = buildChartAxes(chartWindow())
    expect(axes.x).toEqual({ title: 'Time (s)', decimals: 8, maxTicks: 6 })
    expect(axes.y).toMatchObject({ title: 'Pressure (Pa)', decimals: 9, maxTicks: 6 })
  })

  it('formats ticks with at most the given decimals', () => {
    expect(formatTick(0.1 + 0.2, 8)).toBe('0.3')
    expect(formatTick(1.123456789123, 9)).toBe('1.123456789')
    expect(formatTick(-0.0000000001, 8)).toBe('0')
  })

  it('places the time indicator at the shown output only when it is on', () => {
    expect(timeIndicatorX(chartWindow(), 3, 0.5)).toBeNull()
    expect(timeIndicatorX(chartWindow({ timeIndicator: true }), 3, 0.5)).toBe(1.5)
    expect(timeIndicatorX(chartWindow({ timeIndicator: true, xAxis: 'outputs' }), 3, 0.5)).toBe(3)
    expect(timeIndicatorX(chartWindow({ timeIndicator: true }), null, 0.5)).toBeNull()
  })

  it('reads a blank Y bound as automatic and text as not a number', () => {
    expect(parseYBound(' ')).toBeNull()
    expect(parseYBound('1e3')).toBe(1000)
    expect(parseYBound('abc')).toBeNaN()
  })
})
