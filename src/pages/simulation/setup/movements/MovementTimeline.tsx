import { useAtom, useAtomValue } from 'jotai'
import { useEffect, useId, useRef, useState } from 'react'
import {
  MOVEMENT_MESSAGES,
  keyframeWarning,
  loadingMovementsMessage,
} from '../../../../../domain/movements.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { viewportEngineAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { LoopButton, PlayPauseButton } from '../../../../components/PlaybackButtons.tsx'
import { useSpaceToggle } from '../../../../lib/keyboard.ts'
import { useMovementsQuery, useSettingsQuery } from '../queries/setupQueries.ts'
import { movementPlaybackAtom, objectId } from '../state/setupAtoms.ts'
import { realMovements } from './movementLists.ts'
import './movements.css'

/** Playback speeds of the movement timeline (1 = real time). */
export const MOVEMENT_SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10] as const
/** Steps of the time slider over [0, end time]. */
const SLIDER_STEPS = 1000
/** How long 'Successfully loaded all movements' stays after the last track arrived. */
const LOADED_MESSAGE_MS = 3000
/** Significant digits of the time label (it changes every frame while playing). */
const TIME_DIGITS = 4

const formatTime = (seconds: number) => `${formatNumber(seconds, TIME_DIGITS)} s`

/**
 * The movement timeline under the 3D view (spec/setup.md §2, §4): play / pause (Space, unless a
 * field has focus), loop, speed and a time slider over [0, end time], posted to the engine as
 * setup intents; the time shown is the engine's. It is hidden while nothing moves. The tracks are
 * fetched by the data workers: their progress ('Loading movements i/n...') and the 5000-keyframe
 * warning come from the engine's setup snapshot.
 */
export function MovementTimeline({ simulation }: { simulation: Simulation }) {
  const engine = useAtomValue(viewportEngineAtom)
  const setup = useAtomValue(viewportStateAtom).snapshot?.setup ?? null
  const movements = useMovementsQuery(simulation.id).data
  const settingsEnd = useSettingsQuery(simulation.id).data?.settings.endTime ?? null
  const [playback, setPlayback] = useAtom(movementPlaybackAtom)
  const [dragTimeS, setDragTimeS] = useState<number | null>(null)
  const sliderId = useId()
  const speedId = useId()

  const moving = [...new Set(realMovements(movements ?? []).map((m) => m.partId))]
  const endTimeS = setup?.endTimeS ?? settingsEnd
  const playing = setup?.playing ?? false
  const timeS = dragTimeS ?? setup?.timeS ?? 0
  const canPlay = engine !== null && setup !== null && endTimeS !== null && endTimeS > 0
  const loadingCount = setup
    ? moving.filter((partId) => setup.loading.includes(objectId('part', partId))).length
    : moving.length

  const togglePlayback = () => {
    if (!canPlay) return
    if (playing) engine.dispatch({ type: 'setup_pause' })
    else engine.dispatch({ type: 'setup_play', speed: playback.speed, loop: playback.loop })
  }
  const changeSpeed = (speed: number) => {
    setPlayback((old) => ({ ...old, speed }))
    engine?.dispatch({ type: 'setup_speed', speed })
  }
  const changeLoop = (loop: boolean) => {
    setPlayback((old) => ({ ...old, loop }))
    // Looping travels with play: a running playback restarts with the new setting.
    if (playing) engine?.dispatch({ type: 'setup_play', speed: playback.speed, loop })
  }

  const active = moving.length > 0
  useSpaceToggle(active, togglePlayback)

  useKeyframeWarnings(setup?.keyframeWarnings ?? [])
  const status = useLoadingStatus(active, setup !== null, loadingCount, moving.length)

  if (!active) return null
  const end = endTimeS ?? 0
  return (
    <div className="movement-timeline" role="group" aria-label="Movement timeline">
      <PlayPauseButton
        className="movement-timeline__play"
        playing={playing}
        disabled={!canPlay}
        onToggle={togglePlayback}
        labels={{ play: 'Play movements', pause: 'Pause movements' }}
      />
      <LoopButton
        className="movement-timeline__loop"
        loop={playback.loop}
        onChange={changeLoop}
        disabled={!canPlay}
      />
      <label className="visually-hidden" htmlFor={speedId}>
        Speed
      </label>
      <select
        id={speedId}
        className="input input--small movement-timeline__speed"
        value={playback.speed}
        disabled={!canPlay}
        onChange={(event) => changeSpeed(Number(event.target.value))}
      >
        {MOVEMENT_SPEEDS.map((speed) => (
          <option key={speed} value={speed}>
            {formatNumber(speed)}×
          </option>
        ))}
      </select>
      <label className="visually-hidden" htmlFor={sliderId}>
        Time
      </label>
      <input
        id={sliderId}
        className="movement-timeline__slider"
        type="range"
        min={0}
        max={end}
        step={end > 0 ? end / SLIDER_STEPS : 1}
        value={Math.min(timeS, end)}
        disabled={!canPlay}
        aria-valuetext={formatTime(timeS)}
        onChange={(event) => {
          const next = Number(event.target.value)
          setDragTimeS(next)
          engine?.dispatch({ type: 'setup_seek', timeS: next })
        }}
        onPointerUp={() => setDragTimeS(null)}
        onKeyUp={() => setDragTimeS(null)}
        onBlur={() => setDragTimeS(null)}
      />
      <span className="movement-timeline__time" data-testid="movement-time">
        {formatTime(timeS)}
        <span className="movement-timeline__end">
          {' '}
          / {endTimeS === null ? 'no end time' : formatTime(endTimeS)}
        </span>
      </span>
      <span className="movement-timeline__status" role="status">
        {status}
      </span>
    </div>
  )
}

/** Toasts the 5000-keyframe warning once per part name while the page is open. */
function useKeyframeWarnings(names: readonly string[]) {
  const pushToast = usePushToast()
  const shown = useRef(new Set<string>())
  const key = names.join('\n')
  useEffect(() => {
    for (const name of key === '' ? [] : key.split('\n')) {
      if (shown.current.has(name)) continue
      shown.current.add(name)
      pushToast({ kind: 'warning', title: keyframeWarning(name), id: `keyframes-${name}` })
    }
  }, [key, pushToast])
}

/**
 * 'Loading movements...' until the engine reports, 'Loading movements i/n...' while tracks load,
 * then 'Successfully loaded all movements' for a moment.
 */
function useLoadingStatus(
  active: boolean,
  engineReports: boolean,
  loadingCount: number,
  total: number,
): string {
  const loading = active && loadingCount > 0
  const [justLoaded, setJustLoaded] = useState(false)
  const wasLoading = useRef(false)
  useEffect(() => {
    if (loading) {
      wasLoading.current = true
      return
    }
    if (!wasLoading.current) return
    wasLoading.current = false
    setJustLoaded(true)
    const timer = setTimeout(() => setJustLoaded(false), LOADED_MESSAGE_MS)
    return () => clearTimeout(timer)
  }, [loading])
  if (!active) return ''
  if (!engineReports) return MOVEMENT_MESSAGES.loading
  if (loading) return loadingMovementsMessage(total - loadingCount, total)
  return justLoaded ? MOVEMENT_MESSAGES.loaded : ''
}
