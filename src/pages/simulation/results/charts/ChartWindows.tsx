import { useAtom, useAtomValue, useSetAtom } from 'jotai'
import { selectAtom } from 'jotai/utils'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { SMALL_SCREEN_WIDTH_PX } from '../../../../../domain/constants.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import {
  canCloseChartWindow,
  chartWindowDisplay,
  EMPTY_CHART_MESSAGE,
} from '../../../../../domain/results.ts'
import { viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { ChartCanvas, type ChartInstanceRef } from './ChartCanvas.tsx'
import { outputIntervalOf } from './chartModel.ts'
import {
  activeChartWindowIdAtom,
  chartPanelDisplayAtom,
  chartWindowsAtom,
  claimChartsForSimulationAtom,
  type ChartPanelDisplay,
} from './chartStore.ts'
import './charts.css'

import { ChartExportDialog, ChartToolbar } from './ChartToolbar.tsx'
import { ChartTab, DatasetList, PanelButtons } from './ChartPanelParts.tsx'

/** The shown output alone: snapshots change every frame (fps), the charts only care about this. */
const shownOutputAtom = selectAtom(
  viewportStateAtom,
  (state) => state.snapshot?.shownOutput ?? null,
)

function subscribeToResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange)
  return () => window.removeEventListener('resize', onChange)
}

/** The browser window's width, px, following resizes. */
function useWindowWidthPx(): number {
  return useSyncExternalStore(
    subscribeToResize,
    () => window.innerWidth,
    () => SMALL_SCREEN_WIDTH_PX,
  )
}

/**
 * The stats chart window system of the Results screen: one tab per chart window, the active
 * window's chart (chart.js) with its controls and datasets, and the panel's display modes. Below
 * 1700 px the panel is minimized when the screen gets that narrow and opens fullscreen.
 */
export function ChartWindows({ simulation }: { simulation: Simulation }) {
  const windows = useAtomValue(chartWindowsAtom)
  const [activeId, setActiveId] = useAtom(activeChartWindowIdAtom)
  const [requested, setRequested] = useAtom(chartPanelDisplayAtom)
  const shownOutput = useAtomValue(shownOutputAtom)
  const widthPx = useWindowWidthPx()
  const chartRef: ChartInstanceRef = useRef(null)
  const [exporting, setExporting] = useState(false)
  const outputTimeIntervalS = outputIntervalOf(simulation)
  const claimCharts = useSetAtom(claimChartsForSimulationAtom)
  useEffect(() => claimCharts(simulation.id), [claimCharts, simulation.id])

  const smallScreen = chartWindowDisplay(widthPx, requested).forced
  // Entering the small-screen layout forces the panel minimized; opened again, it is fullscreen.
  useEffect(() => {
    if (smallScreen) setRequested((display) => ({ ...display, minimized: true }))
  }, [smallScreen, setRequested])
  const display: ChartPanelDisplay = smallScreen
    ? { minimized: requested.minimized, maximized: false, halfScreen: false, fullscreen: true }
    : requested

  // Escape leaves an overlaying panel: docked again, or minimized where it is forced fullscreen.
  const overlaying = !display.minimized && (display.fullscreen || display.halfScreen)
  useEffect(() => {
    if (!overlaying) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      // A dialog or a field (a tab being renamed) takes its own Escape.
      if (document.querySelector('[role="dialog"]') || event.target instanceof HTMLInputElement)
        return
      setRequested((current) =>
        smallScreen
          ? { ...current, minimized: true }
          : { ...current, fullscreen: false, halfScreen: false },
      )
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [overlaying, smallScreen, setRequested])

  const active = windows.find((chartWindow) => chartWindow.id === activeId) ?? windows.at(-1)
  const closable = canCloseChartWindow(windows.length)
  const modeClass = display.minimized
    ? ' chart-panel--minimized'
    : display.fullscreen
      ? ' chart-panel--fullscreen'
      : display.halfScreen
        ? ' chart-panel--half'
        : display.maximized
          ? ' chart-panel--maximized'
          : ''

  return (
    <section className={`chart-panel${modeClass}`} aria-label="Charts">
      <header className="chart-panel__header">
        {/* A tab list only when there are tabs: an empty one has no required tab (issue 23). */}
        {windows.length === 0 ? (
          <div className="chart-tabs">
            <span className="chart-tabs__title">Charts</span>
          </div>
        ) : (
          <div className="chart-tabs" role="tablist" aria-label="Chart windows">
            {windows.map((chartWindow) => (
              <ChartTab
                key={chartWindow.id}
                chartWindow={chartWindow}
                active={chartWindow.id === active?.id}
                closable={closable}
                onSelect={() => {
                  setActiveId(chartWindow.id)
                  if (display.minimized) setRequested({ ...requested, minimized: false })
                }}
              />
            ))}
          </div>
        )}
        <PanelButtons display={display} forced={smallScreen} onChange={setRequested} />
      </header>
      {!display.minimized && (
        <div className="chart-panel__body" role={active ? 'tabpanel' : undefined}>
          {active && (
            <ChartToolbar
              key={`toolbar-${active.id}`}
              chartWindow={active}
              onExport={() => setExporting(true)}
            />
          )}
          {!active || active.datasets.length === 0 ? (
            <p className="chart-panel__empty">{EMPTY_CHART_MESSAGE}</p>
          ) : (
            <div className="chart-panel__plot">
              <ChartCanvas
                window={active}
                outputTimeIntervalS={outputTimeIntervalS}
                shownOutput={shownOutput}
                chartRef={chartRef}
              />
            </div>
          )}
          {active && <DatasetList key={`datasets-${active.id}`} chartWindow={active} />}
        </div>
      )}
      {exporting && active && (
        <ChartExportDialog
          simulationName={simulation.name}
          chartWindow={active}
          outputTimeIntervalS={outputTimeIntervalS}
          chartRef={chartRef}
          onClose={() => setExporting(false)}
        />
      )}
    </section>
  )
}
