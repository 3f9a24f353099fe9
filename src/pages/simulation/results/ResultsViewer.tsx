import { useQuery } from '@tanstack/react-query'
import { useAtomValue } from 'jotai'
import { useEffect, useMemo, useState } from 'react'
import { POLL_INTERVALS_MS } from '../../../../domain/constants.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { callApi } from '../../../api/index.ts'
import { EmptyState } from '../../../components/EmptyState.tsx'
import { LoadingBlock } from '../../../components/Spinner.tsx'
import { usePageSkipTargets, type SkipTarget } from '../../../components/shell/SkipLinks.tsx'
import { Viewport, type ShortcutHelp } from '../../../components/viewport/Viewport.tsx'
import { routeKey } from '../../../queries/queries.ts'
import {
  clipAtom,
  colourMapChoiceAtom,
  datasetAtom,
  detailLevelAtom,
  materialViewsAtom,
  partViewsAtom,
  viewportEngineAtom,
} from '../../../state/viewportAtoms.ts'
import { CanvasMenus } from './canvas/CanvasMenus.tsx'
import { ChartWindows } from './charts/ChartWindows.tsx'
import { ColourMapBar } from './colormap/ColourMapBar.tsx'
import { ExportPanel } from './export/ExportPanel.tsx'
import { ResultsExplorer } from './explorer/ResultsExplorer.tsx'
import { useResultsOverlays } from './explorer/useResultsOverlays.ts'
import { ResultsConnectionBanner } from './layout/ConnectionBanner.tsx'
import { useSmallScreen } from './layout/useSmallScreen.ts'
import { useViewportStatePersistence } from './layout/useViewportStatePersistence.ts'
import './layout/results.css'
import { DatasetChip, OutputLoadingChip, OutputsChip } from './output/OutputSettings.tsx'
import {
  availableAttributes,
  colourIntent,
  materialViewIntents,
  setOutputsIntent,
  wallViewIntents,
} from './resultsModel.ts'
import { ResultsConnectionToast } from './statistics/ConnectionToast.tsx'
import { StatisticsPanel } from './statistics/StatisticsPanel.tsx'
import { TIMELINE_ID, Timeline } from './timeline/Timeline.tsx'
import { RunSidebarToggle } from '../sidebar/RunSidebarToggle.tsx'

/** Still-running simulations get new outputs: poll at the outputs rate, otherwise rarely. */
function manifestPollMs(simulation: Simulation): number {
  return simulation.state === 'running' || simulation.state === 'stopping'
    ? POLL_INTERVALS_MS.outputs
    : POLL_INTERVALS_MS.outputsAllReady
}

export function useOutputManifestsQuery(simulation: Simulation) {
  const input = { params: { id: String(simulation.id) }, query: {} }
  return useQuery({
    queryKey: routeKey('listOutputManifests', input),
    queryFn: ({ signal }) => callApi('listOutputManifests', input, { signal }),
    refetchInterval: manifestPollMs(simulation),
  })
}

/** Skip links of the results page (issue 23): past the explorer and toolbar to the view and timeline. */
const RESULTS_SKIP_TARGETS: readonly SkipTarget[] = [
  { targetId: 'results-view', label: 'Skip to the 3D view' },
  { targetId: TIMELINE_ID, label: 'Skip to the timeline' },
]

/** The page's own shortcut, listed with the camera keys (spec/results.md §2). */
const RESULTS_SHORTCUTS: readonly ShortcutHelp[] = [{ keys: 'Space', action: 'Play or pause' }]

/**
 * The Results screen of /simulation/{id}/postprocessor: the explorer on the left, the 3D view in
 * the centre (colour map bar, canvas menus and timeline over it; output settings and the loading
 * chip above it), statistics and charts below. Below 1700 px the explorer folds away and the
 * panels stack.
 */
export function ResultsViewer({ simulation }: { simulation: Simulation }) {
  const manifests = useOutputManifestsQuery(simulation)
  const list = manifests.data
  const engine = useAtomValue(viewportEngineAtom)
  const colour = useAtomValue(colourMapChoiceAtom)
  const clip = useAtomValue(clipAtom)
  const detail = useAtomValue(detailLevelAtom)
  const dataset = useAtomValue(datasetAtom)
  const parts = useAtomValue(partViewsAtom)
  const materials = useAtomValue(materialViewsAtom)
  const smallScreen = useSmallScreen()
  const [explorerOpen, setExplorerOpen] = useState(true)
  const attributes = useMemo(() => availableAttributes(list?.outputs[0]), [list])
  const outputsIntent = useMemo(() => (list ? setOutputsIntent(list) : null), [list])
  const onOutputsDispatched = useViewportStatePersistence(simulation.id)
  usePageSkipTargets(RESULTS_SKIP_TARGETS)
  // Sensors and volume clips are drawn (and clips clip) whether or not the explorer is open.
  useResultsOverlays(simulation, engine)

  useEffect(() => {
    if (!engine || !outputsIntent || !list) return
    engine.dispatch(outputsIntent)
    onOutputsDispatched(list)
  }, [engine, outputsIntent, list, onOutputsDispatched])

  useEffect(() => {
    const intent = colourIntent(colour, attributes)
    if (engine && intent) engine.dispatch(intent)
  }, [engine, colour, attributes])

  useEffect(() => {
    engine?.dispatch({ type: 'set_clip', clip })
  }, [engine, clip])

  useEffect(() => {
    engine?.dispatch({ type: 'set_detail', level: detail })
  }, [engine, detail])

  useEffect(() => {
    engine?.dispatch({ type: 'set_dataset', dataset })
  }, [engine, dataset])

  // Walls are drawn translucent unless a saved view says otherwise, so the fluid in a tank shows.
  useEffect(() => {
    for (const intent of wallViewIntents(list?.outputs[0], parts)) engine?.dispatch(intent)
    for (const intent of materialViewIntents(list?.outputs[0], materials)) engine?.dispatch(intent)
  }, [engine, list, parts, materials])

  if (manifests.isPending) return <LoadingBlock label="Loading outputs" />
  // A failed refresh keeps the outputs already listed (issue 13: an outage replaced the page).
  if (manifests.isError && !list)
    return (
      <div className="alert alert--error" role="alert">
        Could not load the outputs: {messageOf(manifests.error)}
      </div>
    )
  if (!list || list.outputs.length === 0)
    return (
      <div className="card card--padded">
        <EmptyState title="No outputs yet">
          The results appear here once the simulation has written its first output.
        </EmptyState>
      </div>
    )

  const showExplorer = !smallScreen || explorerOpen
  return (
    <div
      className={`results-page${smallScreen ? ' results-page--small' : ''}${showExplorer ? '' : ' results-page--no-explorer'}`}
      data-small-screen={smallScreen || undefined}
    >
      {showExplorer && (
        <aside className="results-page__explorer" aria-label="Explorer">
          <ResultsExplorer simulation={simulation} list={list} />
        </aside>
      )}
      <section className="results-page__main" aria-label="Results view">
        <div className="results-page__toolbar" role="toolbar" aria-label="Output settings">
          {smallScreen && (
            <button
              type="button"
              className="results-chip"
              aria-pressed={explorerOpen}
              onClick={() => setExplorerOpen((open) => !open)}
            >
              Explorer
            </button>
          )}
          <DatasetChip list={list} />
          <OutputsChip list={list} />
          <OutputLoadingChip list={list} />
          <span className="results-page__toolbar-spacer" />
          <ExportPanel simulation={simulation} list={list} />
          <RunSidebarToggle simulation={simulation} mode="postprocessor" />
        </div>
        <div className="results-page__viewport">
          <Viewport label="Results 3D view" canvasId="results-view" shortcuts={RESULTS_SHORTCUTS}>
            <div className="results-overlay">
              <div className="results-overlay__top-left">
                <ColourMapBar options={attributes} />
              </div>
              <CanvasMenus simulation={simulation} list={list} />
            </div>
          </Viewport>
          <Timeline list={list} />
        </div>
        <div className="results-page__analysis">
          <StatisticsPanel simulation={simulation} />
          <ChartWindows simulation={simulation} />
        </div>
      </section>
      <ResultsConnectionToast simulation={simulation} />
      <ResultsConnectionBanner
        simulationId={simulation.id}
        outputsUnreachable={manifests.isError}
      />
    </div>
  )
}
