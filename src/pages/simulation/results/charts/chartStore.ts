import { atom } from 'jotai'
import {
  ATTRIBUTES,
  defaultChartLayout,
  defaultDatasetLayout,
  type ChartWindow,
  type StatisticsDataset,
} from '../../../../../domain/results.ts'

/** The chart windows of the Results screen, in tab order. */
export const chartWindowsAtom = atom<ChartWindow[]>([])

/** Id of the window shown (null: none). */
export const activeChartWindowIdAtom = atom<string | null>(null)

/** A statistics series handed to the charts by the Statistics table. */
export interface ChartDatasetInput {
  dataset: StatisticsDataset
  /** Legend name, e.g. 'Pressure mean (Water)'. */
  name: string
  /** Y-axis label with unit, e.g. 'Pressure (Pa)'. */
  yLabel: string
}

let windowCount = 0

/**
 * Adds a series: to the active window when it plots the same attribute, else to a new window
 * that becomes active.
 */
export const addChartDatasetAtom = atom(null, (get, set, input: ChartDatasetInput) => {
  const windows = get(chartWindowsAtom)
  const activeId = get(activeChartWindowIdAtom)
  const active = windows.find((w) => w.id === activeId)
  const target =
    active && active.attribute === input.dataset.attribute
      ? active
      : {
          id: `chart-${++windowCount}`,
          attribute: input.dataset.attribute,
          datasets: [],
          layout: defaultChartLayout(ATTRIBUTES[input.dataset.attribute].label, input.yLabel),
        }
  const datasets = [...target.datasets.filter((d) => d.id !== input.dataset.id), input.dataset]
  const updated: ChartWindow = {
    ...target,
    datasets,
    layout: {
      ...target.layout,
      datasetLayouts: {
        ...target.layout.datasetLayouts,
        [input.dataset.id]:
          target.layout.datasetLayouts[input.dataset.id] ??
          defaultDatasetLayout(input.name, datasets.length - 1),
      },
    },
  }
  const exists = windows.some((w) => w.id === updated.id)
  set(
    chartWindowsAtom,
    exists ? windows.map((w) => (w.id === updated.id ? updated : w)) : [...windows, updated],
  )
  set(activeChartWindowIdAtom, updated.id)
})
