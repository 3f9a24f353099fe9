import { useQuery } from '@tanstack/react-query'
import { useAtom, useAtomValue } from 'jotai'
import { useEffect, useId, useMemo } from 'react'
import { PLAYBACK, POLL_INTERVALS_MS } from '../../../../domain/constants.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../domain/rest/resultsRoutes.ts'
import { doublePlaybackSpeed, halvePlaybackSpeed } from '../../../../domain/results.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { callApi } from '../../../api/index.ts'
import { EmptyState } from '../../../components/EmptyState.tsx'
import { LoadingBlock } from '../../../components/Spinner.tsx'
import { Viewport } from '../../../components/viewport/Viewport.tsx'
import { routeKey } from '../../../queries/queries.ts'
import {
  clipAtom,
  colourMapChoiceAtom,
  playbackSpeedAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../state/viewportAtoms.ts'
import { CanvasMenus } from './canvas/CanvasMenus.tsx'
import { ChartWindows } from './charts/ChartWindows.tsx'
import { ClipControls } from './ClipControls.tsx'
import { ColourControls } from './ColourControls.tsx'
import { ExportPanel } from './export/ExportPanel.tsx'
import { ResultsExplorer } from './explorer/ResultsExplorer.tsx'
import { StatisticsPanel } from './statistics/StatisticsPanel.tsx'
import {
  availableAttributes,
  colourIntent,
  formatOutputLabel,
  formatSpeed,
  setOutputsIntent,
  wallViewIntents,
} from './resultsModel.ts'

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

/** True while typing: Space then belongs to the field, not to playback. */
function isEditingText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/** Play/pause, speed steps and the output slider, over the bottom of the view. */
function PlaybackBar({ list }: { list: OutputManifestList }) {
  const engine = useAtomValue(viewportEngineAtom)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const [speed, setSpeed] = useAtom(playbackSpeedAtom)
  const sliderId = useId()
  const outputs = list.outputs
  const shown = snapshot?.shownOutput ?? outputs[0]?.outputNo ?? null
  const index = Math.max(
    0,
    outputs.findIndex((output) => output.outputNo === shown),
  )
  const playing = snapshot?.playing ?? false
  const current = outputs[index]

  const togglePlayback = () => {
    if (playing) engine?.dispatch({ type: 'pause' })
    else engine?.dispatch({ type: 'play', speed, loop: PLAYBACK.loop })
  }
  const changeSpeed = (next: number) => {
    setSpeed(next)
    engine?.dispatch({ type: 'set_speed', speed: next })
  }

  // Space toggles playback unless a field has focus (spec/results.md §2).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        (event.code !== 'Space' && event.key !== ' ') ||
        event.repeat ||
        isEditingText(event.target)
      )
        return
      event.preventDefault()
      if (playing) engine?.dispatch({ type: 'pause' })
      else engine?.dispatch({ type: 'play', speed, loop: PLAYBACK.loop })
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [engine, playing, speed])

  return (
    <div className="timeline">
      <button
        type="button"
        className="button button--primary button--small"
        onClick={togglePlayback}
        disabled={!engine || outputs.length < 2}
        aria-label={playing ? 'Pause' : 'Play'}
      >
        {playing ? 'Pause' : 'Play'}
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-label="Slower"
        onClick={() => changeSpeed(halvePlaybackSpeed(speed))}
        disabled={speed <= PLAYBACK.minSpeed}
      >
        −
      </button>
      <span className="timeline__speed" aria-label="Speed">
        {formatSpeed(speed)}
      </span>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-label="Faster"
        onClick={() => changeSpeed(doublePlaybackSpeed(speed))}
        disabled={speed >= PLAYBACK.maxSpeed}
      >
        +
      </button>
      <label className="visually-hidden" htmlFor={sliderId}>
        Output
      </label>
      <input
        id={sliderId}
        className="timeline__slider"
        type="range"
        min={0}
        max={Math.max(0, outputs.length - 1)}
        step={1}
        value={index}
        disabled={outputs.length < 2}
        onChange={(event) => {
          const output = outputs[Number(event.target.value)]
          if (output) engine?.dispatch({ type: 'show_output', outputNo: output.outputNo })
        }}
      />
      <span className="timeline__label" data-testid="timeline-label">
        {current ? formatOutputLabel(current.outputNo, current.timeS) : ''}
      </span>
    </div>
  )
}

/**
 * The results viewport of /simulation/{id}/postprocessor: lists the run's outputs from the
 * server, hands them to the engine, and offers minimal colour, clip and playback controls.
 */
export function ResultsViewer({ simulation }: { simulation: Simulation }) {
  const manifests = useOutputManifestsQuery(simulation)
  const list = manifests.data
  const engine = useAtomValue(viewportEngineAtom)
  const colour = useAtomValue(colourMapChoiceAtom)
  const clip = useAtomValue(clipAtom)
  const attributes = useMemo(() => availableAttributes(list?.outputs[0]), [list])
  const outputsIntent = useMemo(() => (list ? setOutputsIntent(list) : null), [list])

  useEffect(() => {
    if (engine && outputsIntent) engine.dispatch(outputsIntent)
  }, [engine, outputsIntent])

  useEffect(() => {
    const intent = colourIntent(colour, attributes)
    if (engine && intent) engine.dispatch(intent)
  }, [engine, colour, attributes])

  useEffect(() => {
    engine?.dispatch({ type: 'set_clip', clip })
  }, [engine, clip])

  // Walls are drawn translucent, so the fluid inside a closed tank stays in view.
  useEffect(() => {
    for (const intent of wallViewIntents(list?.outputs[0])) engine?.dispatch(intent)
  }, [engine, list])

  if (manifests.isPending) return <LoadingBlock label="Loading outputs" />
  if (manifests.isError)
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
  return (
    <div className="results">
      <ResultsExplorer simulation={simulation} list={list} />
      <Viewport label="Results 3D view">
        <CanvasMenus simulation={simulation} list={list} />
        <PlaybackBar list={list} />
      </Viewport>
      <div className="results__controls">
        <ColourControls options={attributes} />
        <ClipControls />
        <ExportPanel simulation={simulation} list={list} />
      </div>
      <StatisticsPanel simulation={simulation} />
      <ChartWindows simulation={simulation} />
    </div>
  )
}
