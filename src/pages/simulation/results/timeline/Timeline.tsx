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
import { LoopButton, PlayPauseButton } from '../../../../components/PlaybackButtons.tsx'
import { useSpaceToggle } from '../../../../lib/keyboard.ts'
import { usePoliteAnnouncement } from '../../../../lib/usePoliteAnnouncement.ts'

/**
 * Calls `run` at most once per interval; the last call inside an interval runs at its end, so a
 * drag ends on the output the user let go of.
 */
function useThrottled<T>(
  run: (value: T) => void,
  intervalMs: number,
): [call: (value: T) => void, flush: () => void] {
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
  const call = (value: T) => {
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
  /** Runs a call still waiting for its interval now. */
  const flush = () => {
    const s = state.current
    if (s.timer === null) return
    clearTimeout(s.timer)
    s.timer = null
    s.lastMs = performance.now()
    latest.current.run(latest.current.value as T)
  }
  return [call, flush]
}

/** Id of the timeline (the results page's skip link goes there). */
export const TIMELINE_ID = 'results-timeline'
/** Playback announces the shown output at most this often (issue 23). */
export const PLAYBACK_ANNOUNCE_INTERVAL_MS = 1000

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

  const [seek, flushSeek] = useThrottled((outputNo: number) => {
    engine?.dispatch({ type: 'show_output', outputNo })
  }, TIMELINE_PROGRESS_THROTTLE_MS)

  const togglePlayback = () => {
    if (!canPlay) return
    if (playing) {
      engine.dispatch({ type: 'pause' })
      return
    }
    // A seek still waiting for its 120 ms goes first: Play started from the output before the
    // seek, and the late seek then moved the playback under it (issue 14).
    flushSeek()
    engine.dispatch({ type: 'play', speed, loop })
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
  useSpaceToggle(true, togglePlayback)

  const label = current
    ? `Output ${current.outputNo} · ${formatTimelineNumber(current.timeS)} s`
    : ''
  // During playback a screen reader hears the output and time, politely, at most once a second.
  const announcement = usePoliteAnnouncement(label, playing, PLAYBACK_ANNOUNCE_INTERVAL_MS)

  return (
    <div className="timeline" role="group" aria-label="Timeline" id={TIMELINE_ID}>
      <p className="visually-hidden" aria-live="polite" data-testid="playback-announcement">
        {announcement}
      </p>
      <PlayPauseButton
        className="timeline__play"
        playing={playing}
        disabled={!canPlay}
        onToggle={togglePlayback}
      />
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
      <LoopButton className="timeline__loop" loop={loop} onChange={changeLoop} />
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
        {label}
      </span>
      {last && (
        <span className="timeline__total">
          / {last.outputNo} · {formatTimelineNumber(last.timeS)} s
        </span>
      )}
    </div>
  )
}
