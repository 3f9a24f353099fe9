/**
 * The setup-viewport bench page: the product's 3D view (src/components/viewport/Viewport.tsx with
 * the real engine, render and data workers) showing the setup scene with one part whose mesh
 * comes, as on the Setup page, from a data worker (fetch, DMSH decode, normals, BVH) straight to
 * the render worker. Playwright drags on the canvas; hovers are pointermoves dispatched on it.
 */
import { createStore, Provider as JotaiProvider } from 'jotai'
import { createRoot } from 'react-dom/client'
import type { RenderSnapshot } from '../../../engine/protocol.ts'
import { SETUP_SCENE_MESSAGES, type SetupObjectView } from '../../../engine/setupProtocol.ts'
import { Viewport } from '../../../src/components/viewport/Viewport.tsx'
import { viewportEngineAtom, viewportStateAtom } from '../../../src/state/viewportAtoms.ts'
import '../../../src/styles.css'
import { publishBenchApi, readHeapBytes, runIndexedDb, takeLongTasks } from './common.ts'
import {
  BENCH_PART_ID,
  type HoverSample,
  type OrbitWatch,
  type SetupViewportPageApi,
} from './setupViewportApi.ts'

const store = createStore()

function snapshot(): RenderSnapshot | null {
  return store.get(viewportStateAtom).snapshot
}

function waitFor<T>(read: () => T | null, timeoutMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    const startMs = performance.now()
    const poll = () => {
      const value = read()
      if (value !== null) resolve(value)
      else if (performance.now() - startMs > timeoutMs) resolve(null)
      else setTimeout(poll, 5)
    }
    poll()
  })
}

/** Resolves at the first snapshot (already there, or to come) for which `test` holds. */
function nextSnapshot(test: (snapshot: RenderSnapshot) => boolean, timeoutMs: number) {
  return new Promise<RenderSnapshot | null>((resolve) => {
    const current = snapshot()
    if (current !== null && test(current)) return resolve(current)
    const timer = setTimeout(() => {
      unsubscribe()
      resolve(null)
    }, timeoutMs)
    const unsubscribe = store.sub(viewportStateAtom, () => {
      const next = snapshot()
      if (next === null || !test(next)) return
      clearTimeout(timer)
      unsubscribe()
      resolve(next)
    })
  })
}

function partView(meshUrl: string, hash: string): SetupObjectView {
  return {
    id: BENCH_PART_ID,
    kind: 'part',
    name: 'Sphere',
    geometry: { type: 'mesh', url: meshUrl, hash },
    transform: { translation: [0, 0, 0], rotationDeg: [0, 0, 0], scale: [1, 1, 1] },
    appearance: {
      color: '#4c6ef5',
      opacity: 1,
      wireframe: false,
      translucent: false,
      visible: true,
    },
    seedPoint: null,
    pointcloud: null,
    arrow: null,
    keyframes: null,
    selectable: true,
    editable: true,
    warning: false,
  }
}

function canvas(): HTMLCanvasElement {
  const element = document.querySelector('canvas')
  if (!element) throw new Error('Could not find canvas element.')
  return element
}

// Main-thread animation frames, counted all along (hover latency is measured in them).
let frameCount = 0
const countFrames = () => {
  frameCount++
  requestAnimationFrame(countFrames)
}
requestAnimationFrame(countFrames)

let watch: OrbitWatch | null = null
store.sub(viewportStateAtom, () => {
  const current = snapshot()
  if (watch === null || current === null) return
  watch.snapshots++
  watch.maxFps = Math.max(watch.maxFps, current.fps)
  watch.minTrianglesDrawn = Math.min(watch.minTrianglesDrawn, current.trianglesDrawn)
})

function movePointer(at: { x: number; y: number }): void {
  const box = canvas().getBoundingClientRect()
  canvas().dispatchEvent(
    new PointerEvent('pointermove', {
      bubbles: true,
      pointerId: 1,
      pointerType: 'mouse',
      clientX: box.left + at.x,
      clientY: box.top + at.y,
      buttons: 0,
    }),
  )
}

const api: SetupViewportPageApi = {
  takeLongTasks,
  readHeapBytes,
  runIndexedDb,

  async mount(size) {
    const host = document.getElementById('root')
    if (!host) throw new Error('Could not find the root element.')
    document.getElementById('status')?.remove()
    createRoot(host).render(
      <JotaiProvider store={store}>
        <div style={{ width: size.width, padding: 8 }}>
          <style>{`.bench-view .viewport { height: ${size.height}px; }`}</style>
          <div className="bench-view">
            <Viewport label="Bench setup view" />
          </div>
        </div>
      </JotaiProvider>,
    )
    const engine = await waitFor(() => store.get(viewportEngineAtom), 30_000)
    if (!engine) throw new Error('The engine did not start.')
    await engine.ready
    engine.dispatch({ type: 'set_scene', scene: 'setup' })
  },

  async loadPart(request) {
    const engine = store.get(viewportEngineAtom)
    if (!engine) throw new Error('Mount the page first.')
    const startMs = performance.now()
    engine.dispatch({
      type: 'setup_objects',
      objects: [partView(request.meshUrl, request.hash)],
      endTimeS: null,
    })
    const done = await nextSnapshot(
      (s) =>
        s.setup?.message === SETUP_SCENE_MESSAGES.initialized &&
        s.setup.loading.length === 0 &&
        s.trianglesDrawn > 0,
      request.timeoutMs,
    )
    const last = snapshot()
    return {
      loadMs: done === null ? -1 : performance.now() - startMs,
      message: last?.setup?.message ?? null,
      trianglesDrawn: last?.trianglesDrawn ?? 0,
    }
  },

  canvasBox() {
    const box = canvas().getBoundingClientRect()
    return { left: box.left, top: box.top, width: box.width, height: box.height }
  },

  dispatch(intent) {
    const engine = store.get(viewportEngineAtom)
    if (!engine) throw new Error('Mount the page first.')
    engine.dispatch(intent)
  },

  snapshot,

  startWatch() {
    watch = { snapshots: 0, maxFps: 0, minTrianglesDrawn: Infinity }
  },

  stopWatch() {
    const result = watch ?? { snapshots: 0, maxFps: 0, minTrianglesDrawn: 0 }
    watch = null
    return result
  },

  async hover(request) {
    const samples: HoverSample[] = []
    for (let repeat = 0; repeat < request.repeats; repeat++) {
      movePointer(request.away)
      await nextSnapshot((s) => s.setup?.hovered === null, request.timeoutMs)
      // At least past the 30 ms hover throttle, so the move is picked as it comes.
      await new Promise((resolve) => setTimeout(resolve, request.settleMs))
      const framesBefore = frameCount
      const startMs = performance.now()
      movePointer(request.over)
      const hovered = await nextSnapshot(
        (s) => s.setup?.hovered === BENCH_PART_ID,
        request.timeoutMs,
      )
      samples.push({
        ms: hovered === null ? -1 : performance.now() - startMs,
        frames: frameCount - framesBefore,
      })
    }
    return samples
  },
}

publishBenchApi(api)
