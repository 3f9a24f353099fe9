import { useAtom, useAtomValue } from 'jotai'
import { useEffect, useId, useRef, useState } from 'react'
import { PLAYBACK, TIMELINE_PROGRESS_THROTTLE_MS } from '../../../../../domain/constants.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import { doublePlaybackSpeed, halvePlaybackSpeed } from '../../../../../domain/results.ts'
import {
  playbackSpeedAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../../state/viewportAtoms.ts'
import { formatSpeed, formatTimelineNumber } from '../resultsModel.ts'

/** True while typing or choosing in a field: Space then belongs to the field, not to playback. */
export function isEditingField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/**
 * Calls `run` at most once per interval; the last call inside an interval runs at its end, so a
 * drag ends on the output the user let go of.
 */
function useThrottled<T>(run: (value: T) => void, intervalMs: number): (value: T) => void {
  const state = useRef({ lastMs: -Infinity, timer: null as ReturnType<typeof setTimeout> | null })
  const latest = useRef({ run, value: null as T | null })
  useEffect(() => {
    latest.current.run = run
  })
  useEffect(() => {
    const current = state.current
    return () => {
      if (current.timer !== null) clearTimeout(current.timer)
    }
  }, [])
  return (value: T) => {
    latest.current.value = value
    const s = state.current
    const nowMs = performance.now()
    if (s.timer === null && nowMs - s.lastMs >= intervalMs) {
      s.lastMs = nowMs
      run(value)
      return
    }
    s.timer ??= setTimeout(
      () => {
        s.timer = null
        s.lastMs = performance.now()
        latest.current.run(latest.current.value as T)
      },
      Math.max(0, intervalMs - (nowMs - s.lastMs)),
    )
  }
}

/**
 * The timeline at the bottom of the results view: play/pause (also Space, unless a field has
 * focus), slower/faster in powers of two within the speed bounds, looping, the output slider
 * (seeks throttled at 120 ms) and the label 'Output n · t s' with 4 significant digits.
 */
export function Timeline({ list }: { list: OutputManifestList }) {
  const engine = useAtomValue(viewportEngineAtom)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const [speed, setSpeed] = useAtom(playbackSpeedAtom)
  const [loop, setLoop] = useState<boolean>(PLAYBACK.loop)
  const [dragIndex, setDragIndex] = useState<number | null>(null)
  const sliderId = useId()
  const outputs = list.outputs
  const shown = snapshot?.shownOutput ?? outputs[0]?.outputNo ?? null
  const shownIndex = Math.max(
    0,
    outputs.findIndex((output) => output.outputNo === shown),
  )
  const index = dragIndex ?? shownIndex
  const playing = snapshot?.playing ?? false
  const current = outputs[index]
  const last = outputs.at(-1)
  const canPlay = engine !== null && outputs.length > 1

  const seek = useThrottled((outputNo: number) => {
    engine?.dispatch({ type: 'show_output', outputNo })
  }, TIMELINE_PROGRESS_THROTTLE_MS)

  const togglePlayback = () => {
    if (!canPlay) return
    if (playing) engine.dispatch({ type: 'pause' })
    else engine.dispatch({ type: 'play', speed, loop })
  }
  const changeSpeed = (next: number) => {
    setSpeed(next)
    engine?.dispatch({ type: 'set_speed', speed: next })
  }
  const changeLoop = (next: boolean) => {
    setLoop(next)
    // The engine takes looping with play: a running playback restarts with the new setting.
    if (playing) engine?.dispatch({ type: 'play', speed, loop: next })
  }

  // Space toggles playback unless a field has focus (spec/results.md §2).
  const toggleRef = useRef(togglePlayback)
  useEffect(() => {
    toggleRef.current = togglePlayback
  })
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.code !== 'Space' && event.key !== ' ') return
      if (event.repeat || event.defaultPrevented || isEditingField(event.target)) return
      // A focused button would take Space as a click as well: playback only, once.
      event.preventDefault()
      toggleRef.current()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])

  return (
    <div className="timeline" role="group" aria-label="Timeline">
      <button
        type="button"
        className="timeline__play"
        onClick={togglePlayback}
        disabled={!canPlay}
        aria-label={playing ? 'Pause' : 'Play'}
        title={playing ? 'Pause (Space)' : 'Play (Space)'}
      >
        {playing ? (
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
            <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
          </svg>
        ) : (
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <path
              d="M4 2.5v11a.6.6 0 0 0 .9.5l9-5.5a.6.6 0 0 0 0-1l-9-5.5a.6.6 0 0 0-.9.5z"
              fill="currentColor"
            />
          </svg>
        )}
      </button>
      <div className="timeline__speed-group" role="group" aria-label="Playback speed">
        <button
          type="button"
          className="timeline__step"
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
          className="timeline__step"
          aria-label="Faster"
          onClick={() => changeSpeed(doublePlaybackSpeed(speed))}
          disabled={speed >= PLAYBACK.maxSpeed}
        >
          +
        </button>
      </div>
      <button
        type="button"
        className="timeline__loop"
        aria-label="Loop"
        aria-pressed={loop}
        title={loop ? 'Looping on' : 'Looping off'}
        onClick={() => changeLoop(!loop)}
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path
            d="M3 7V6a2 2 0 0 1 2-2h7m0 0-2-2m2 2-2 2M13 9v1a2 2 0 0 1-2 2H4m0 0 2 2m-2-2 2-2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
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
        aria-valuetext={current ? `Output ${current.outputNo}` : undefined}
        onChange={(event) => {
          const next = Number(event.target.value)
          const output = outputs[next]
          setDragIndex(next)
          if (output) seek(output.outputNo)
        }}
        onPointerUp={() => setDragIndex(null)}
        onKeyUp={() => setDragIndex(null)}
        onBlur={() => setDragIndex(null)}
      />
      <span className="timeline__label" data-testid="timeline-label">
        {current ? `Output ${current.outputNo} · ${formatTimelineNumber(current.timeS)} s` : ''}
      </span>
      {last && (
        <span className="timeline__total">
          / {last.outputNo} · {formatTimelineNumber(last.timeS)} s
        </span>
      )}
    </div>
  )
}
