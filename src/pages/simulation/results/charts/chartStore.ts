import { atom } from 'jotai'
import {
  ATTRIBUTES,
  closeChartWindow,
  defaultChartLayout,
  defaultDatasetLayout,
  type ChartLayout,
  type ChartWindow,
  type DatasetLayout,
  type StatisticsDataset,
} from '../../../../../domain/results.ts'

/** The chart windows of the Results screen, in tab order. */
export const chartWindowsAtom = atom<ChartWindow[]>([])
chartWindowsAtom.debugLabel = 'chartWindowsAtom'

/** Id of the window shown (null: none). */
export const activeChartWindowIdAtom = atom<string | null>(null)
activeChartWindowIdAtom.debugLabel = 'activeChartWindowIdAtom'

/** A statistics series handed to the charts by the Statistics table. */
export interface ChartDatasetInput {
  dataset: StatisticsDataset
  /** Legend name, e.g. 'Pressure mean (Water)'. */
  name: string
  /** Y-axis label with unit, e.g. 'Pressure (Pa)'. */
  yLabel: string
}

/** How the chart panel is shown; the small-screen rule may override it (chartWindowDisplay). */
export interface ChartPanelDisplay {
  minimized: boolean
  maximized: boolean
  fullscreen: boolean
  halfScreen: boolean
}

/** The chart panel opens docked: not minimized, maximized, fullscreen nor half-screen. */
export const DEFAULT_CHART_PANEL_DISPLAY: ChartPanelDisplay = {
  minimized: false,
  maximized: false,
  fullscreen: false,
  halfScreen: false,
}

/** The chart panel's requested display. */
export const chartPanelDisplayAtom = atom<ChartPanelDisplay>(DEFAULT_CHART_PANEL_DISPLAY)
chartPanelDisplayAtom.debugLabel = 'chartPanelDisplayAtom'

let windowCount = 0

/**
 * Adds a series: to the active window when it plots the same attribute, else to a new window
 * that becomes active. A minimized chart panel opens, so the plotted series is in view.
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
  const display = get(chartPanelDisplayAtom)
  if (display.minimized) set(chartPanelDisplayAtom, { ...display, minimized: false })
})

/** Replaces one window by what `change` makes of it (a no-op for an unknown id). */
function updateWindow(
  windows: readonly ChartWindow[],
  windowId: string,
  change: (window: ChartWindow) => ChartWindow,
): ChartWindow[] {
  return windows.map((window) => (window.id === windowId ? change(window) : window))
}

/** Changes part of one window's layout (name, axes, Y range, interpolation, time indicator). */
export const updateChartLayoutAtom = atom(
  null,
  (get, set, input: { windowId: string; layout: Partial<Omit<ChartLayout, 'datasetLayouts'>> }) => {
    set(
      chartWindowsAtom,
      updateWindow(get(chartWindowsAtom), input.windowId, (window) => ({
        ...window,
        layout: { ...window.layout, ...input.layout },
      })),
    )
  },
)

/** Renames a window; a blank name keeps the old one. */
export const renameChartWindowAtom = atom(
  null,
  (get, set, input: { windowId: string; name: string }) => {
    const name = input.name.trim()
    if (name === '') return
    set(updateChartLayoutAtom, { windowId: input.windowId, layout: { name } })
  },
)

/** Closes a window; when it was the active one, the last remaining window becomes active. */
export const closeChartWindowAtom = atom(null, (get, set, windowId: string) => {
  const next = closeChartWindow(get(chartWindowsAtom), windowId, get(activeChartWindowIdAtom))
  set(chartWindowsAtom, next.windows)
  set(activeChartWindowIdAtom, next.activeId)
})

/** Changes how one dataset is drawn (name, line, marker, colour). */
export const updateDatasetLayoutAtom = atom(
  null,
  (get, set, input: { windowId: string; datasetId: string; layout: DatasetLayout }) => {
    set(
      chartWindowsAtom,
      updateWindow(get(chartWindowsAtom), input.windowId, (window) => ({
        ...window,
        layout: {
          ...window.layout,
          datasetLayouts: { ...window.layout.datasetLayouts, [input.datasetId]: input.layout },
        },
      })),
    )
  },
)

/** Removes a dataset and its layout from a window (the window stays, empty or not). */
export const removeChartDatasetAtom = atom(
  null,
  (get, set, input: { windowId: string; datasetId: string }) => {
    set(
      chartWindowsAtom,
      updateWindow(get(chartWindowsAtom), input.windowId, (window) => {
        const { [input.datasetId]: _removed, ...datasetLayouts } = window.layout.datasetLayouts
        return {
          ...window,
          datasets: window.datasets.filter((dataset) => dataset.id !== input.datasetId),
          layout: { ...window.layout, datasetLayouts },
        }
      }),
    )
  },
)

/** The simulation the chart windows belong to (null: none yet). */
export const chartSimulationIdAtom = atom<number | null>(null)
chartSimulationIdAtom.debugLabel = 'chartSimulationIdAtom'

/**
 * Claims the charts for a simulation: opening another simulation's Results starts without the
 * previous one's windows; the same simulation keeps them.
 */
export const claimChartsForSimulationAtom = atom(null, (get, set, simulationId: number) => {
  if (get(chartSimulationIdAtom) === simulationId) return
  set(chartSimulationIdAtom, simulationId)
  set(chartWindowsAtom, [])
  set(activeChartWindowIdAtom, null)
})
