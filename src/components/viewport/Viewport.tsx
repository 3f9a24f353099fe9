import { useSetAtom } from 'jotai'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { TIMELINE_PROGRESS_THROTTLE_MS } from '../../../domain/constants.ts'
import type { CameraState } from '../../../domain/results.ts'
import { createEngine, type Engine, type EngineState } from '../../../engine/client.ts'
import { CAMERA_KEY_HELP } from '../../../engine/render/keyboardControls.ts'
import { tokenStore, useAuthTokens } from '../../api/index.ts'
import {
  INITIAL_ENGINE_STATE,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../state/viewportAtoms.ts'
import './viewport.css'

/** React re-renders the view's readouts at most this often (TIMELINE_PROGRESS_THROTTLE_MS). */
const SNAPSHOT_RENDER_INTERVAL_MS = TIMELINE_PROGRESS_THROTTLE_MS

/** How the 3D view is readout-labelled: frames per second and points drawn. */
export function formatViewportReadout(state: EngineState): { fps: string; points: string } {
  const snapshot = state.snapshot
  return {
    fps: `${snapshot ? Math.round(snapshot.fps) : 0} fps`,
    points: `${(snapshot?.pointsDrawn ?? 0).toLocaleString('en-US')} points`,
  }
}

/** Why the view cannot show anything (start failure, or the snapshot's problem with the output). */
export function viewportProblem(state: EngineState): string | null {
  if (state.failure) return state.failure
  return state.snapshot?.error ?? null
}

/** One line of the keyboard shortcuts help: the keys and what they do. */
export interface ShortcutHelp {
  keys: string
  action: string
}

/** What the canvas tells a screen reader about its keys (its accessible description). */
export const VIEW_KEYS_DESCRIPTION =
  'Arrow keys orbit, Shift and arrow keys pan, plus and minus or Page Up and Page Down zoom, Home or 0 resets the view.'

/** A camera as the view's data attributes show it to tests: x,y,z with 4 decimals. */
function formatVector(vector: readonly number[]): string {
  return vector.map((value) => value.toFixed(4)).join(',')
}

function cameraAttributes(camera: CameraState | undefined): Record<string, string | undefined> {
  return {
    'data-camera-position': camera ? formatVector(camera.position) : undefined,
    'data-camera-target': camera ? formatVector(camera.target) : undefined,
  }
}

interface ViewportProps {
  /** Accessible name of the 3D view. */
  label?: string
  /** Id of the canvas (a skip link's target). */
  canvasId?: string
  /** The page's own shortcuts, listed before the camera keys in the shortcuts help (Space …). */
  shortcuts?: readonly ShortcutHelp[]
  /** Controls drawn over the view (bottom), e.g. playback. */
  children?: ReactNode
}

/**
 * The 3D view: creates its own canvas, starts the engine on it (render worker, data workers) and
 * shows fps, points drawn, loading and the engine's error over it. React never touches three.js or
 * a particle buffer: the canvas belongs to the render worker once the engine has started.
 */
export function Viewport({ label = '3D view', canvasId, shortcuts = [], children }: ViewportProps) {
  const hostRef = useRef<HTMLDivElement>(null)
  const keysId = useId()
  const engineRef = useRef<Engine | null>(null)
  const [state, setState] = useState<EngineState>(INITIAL_ENGINE_STATE)
  const setEngine = useSetAtom(viewportEngineAtom)
  const setSharedState = useSetAtom(viewportStateAtom)
  const tokens = useAuthTokens()
  const accessToken = tokens?.accessToken ?? null

  useEffect(() => {
    const host = hostRef.current
    if (!host) return
    // A fresh canvas per engine: a canvas can hand its control to a worker only once.
    const canvas = document.createElement('canvas')
    canvas.className = 'viewport__canvas'
    // A focusable widget that takes its own keys (issue 23): orbit, pan, zoom and reset.
    canvas.tabIndex = 0
    canvas.setAttribute('role', 'application')
    canvas.setAttribute('aria-roledescription', '3D view')
    canvas.setAttribute('aria-label', label)
    canvas.setAttribute('aria-describedby', keysId)
    if (canvasId) canvas.id = canvasId
    host.prepend(canvas)
    const publishNow = (next: EngineState) => {
      setState(next)
      setSharedState(next)
    }
    // Snapshots come up to once per frame (fps changes every frame); React renders at most every
    // 120 ms (the timeline's throttle), so loading and playback leave the main thread idle.
    let lastPublishMs = -Infinity
    let pending: EngineState | null = null
    let timer: ReturnType<typeof setTimeout> | null = null
    const publish = (next: EngineState) => {
      const nowMs = performance.now()
      if (timer === null && nowMs - lastPublishMs >= SNAPSHOT_RENDER_INTERVAL_MS) {
        lastPublishMs = nowMs
        publishNow(next)
        return
      }
      pending = next
      timer ??= setTimeout(
        () => {
          timer = null
          lastPublishMs = performance.now()
          if (pending) publishNow(pending)
          pending = null
        },
        Math.max(0, SNAPSHOT_RENDER_INTERVAL_MS - (nowMs - lastPublishMs)),
      )
    }
    let engine: Engine
    try {
      engine = createEngine(canvas, { accessToken: tokenStore.read()?.accessToken ?? null })
    } catch (error) {
      // No OffscreenCanvas or no worker support: say so instead of showing a blank box.
      publish({
        ...INITIAL_ENGINE_STATE,
        status: 'failed',
        failure: `The 3D view could not start: ${error instanceof Error ? error.message : String(error)}`,
      })
      return () => canvas.remove()
    }
    engineRef.current = engine
    publish(engine.getState())
    const unsubscribe = engine.subscribe(publish)
    setEngine(engine)
    return () => {
      unsubscribe()
      if (timer !== null) clearTimeout(timer)
      engine.dispose()
      engineRef.current = null
      setEngine(null)
      setSharedState(INITIAL_ENGINE_STATE)
      canvas.remove()
    }
  }, [label, canvasId, keysId, setEngine, setSharedState])

  useEffect(() => {
    engineRef.current?.setAccessToken(accessToken)
  }, [accessToken])

  const readout = formatViewportReadout(state)
  const problem = viewportProblem(state)
  const loading = state.snapshot?.loadingOutputs ?? []
  const starting = state.status === 'starting'
  return (
    <div
      className="viewport"
      ref={hostRef}
      data-engine-status={state.status}
      {...cameraAttributes(state.snapshot?.camera)}
    >
      <p id={keysId} className="visually-hidden">
        {VIEW_KEYS_DESCRIPTION}
      </p>
      <details className="viewport__shortcuts">
        <summary>Keyboard shortcuts</summary>
        <dl className="viewport__shortcuts-list">
          {[...shortcuts, ...CAMERA_KEY_HELP].map((shortcut) => (
            <div key={shortcut.keys}>
              <dt>{shortcut.keys}</dt>
              <dd>{shortcut.action}</dd>
            </div>
          ))}
        </dl>
      </details>
      <div className="viewport__readout" aria-live="off">
        <span data-testid="viewport-fps">{readout.fps}</span>
        <span data-testid="viewport-points">{readout.points}</span>
        {state.snapshot?.shownOutput !== null && state.snapshot?.shownOutput !== undefined && (
          <span data-testid="viewport-shown-output">Output {state.snapshot.shownOutput}</span>
        )}
      </div>
      {(starting || loading.length > 0) && (
        <div className="viewport__loading" role="status">
          <span className="viewport__loading-dot" aria-hidden="true" />
          <span>
            {starting
              ? 'Starting the 3D view…'
              : `Loading output${loading.length > 1 ? 's' : ''} ${loading.join(', ')}…`}
          </span>
        </div>
      )}
      {problem && (
        <div className="viewport__error" role="alert">
          {problem}
        </div>
      )}
      {state.snapshot?.colourStatus && !problem && (
        <div className="viewport__status" role="status">
          {state.snapshot.colourStatus}
        </div>
      )}
      {children && <div className="viewport__overlay">{children}</div>}
    </div>
  )
}
