import { describe, expect, it } from 'vitest'
import { defaultGraphSettings } from '../../domain/dashboards.ts'
// The worker is wiring only; importing its types keeps it in the type-checked program.
import type * as GraphChartWorker from '../../workers/graphChart.worker.ts'
import { createGraphChartHost, graphChartOptions, type GraphChartReport } from './graphChart.ts'

const SETTINGS = defaultGraphSettings({ kind: 'log', graph: 'particles' } as const)
const TITLES = { xTitle: 'Simulated time (s)', yTitle: 'Particles' }

describe('graph chart options', () => {
  it('draw a logarithmic y axis for logValues, never animate, and take no pointer events', () => {
    const options = graphChartOptions({ ...SETTINGS, logValues: true }, TITLES)
    expect(options.scales?.y?.type).toBe('logarithmic')
    expect(options.animation).toBe(false)
    expect(options.events).toEqual([])
  })

  it('use the manual range unless automatic', () => {
    const options = graphChartOptions(
      { ...SETTINGS, xAuto: false, xMin: 0.05, xMax: 0.15, yMin: 1, yMax: 2 },
      TITLES,
    )
    expect(options.scales?.x).toMatchObject({ min: 0.05, max: 0.15 })
    expect(options.scales?.y).not.toHaveProperty('min')
  })
})

describe('graph chart host', () => {
  it('keeps a chart per attached canvas, reports what it cannot draw, and lets go on detach', () => {
    const reports: GraphChartReport[] = []
    const host = createGraphChartHost((report) => reports.push(report))
    // Node has no OffscreenCanvas: one without a 2D context stands in, so chart.js cannot draw.
    const canvas = { width: 0, height: 0, getContext: () => null } as unknown as OffscreenCanvas
    host.handle({ type: 'attach', id: 1, canvas, size: { width: 600, height: 300, pixelRatio: 1 } })
    expect(host.count()).toBe(1)
    host.handle({
      type: 'draw',
      id: 1,
      content: { points: new Float64Array([0, 1, 1, 2]), settings: SETTINGS, ...TITLES },
    })
    expect(reports.map((report) => report.type)).not.toContain('drawn')
    host.handle({
      type: 'draw',
      id: 9,
      content: { points: new Float64Array(), settings: SETTINGS, ...TITLES },
    })
    host.handle({ type: 'detach', id: 1 })
    expect(host.count()).toBe(0)
  })
})

export type { GraphChartWorker }
