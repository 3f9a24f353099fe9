/**
 * What the setup-viewport bench page exposes as `window.diveBench` (plain data only: the Node side
 * imports this file too).
 */
import type { RenderIntent, RenderSnapshot } from '../../../engine/protocol.ts'
import type { BenchPageApi } from './api.ts'

/** The part the page puts in the setup scene. */
export const BENCH_PART_ID = 'part:1'

/** One part over a stored mesh, loaded until the view says 'Successfully initialized.'. */
export interface SetupLoadRequest {
  /** DMSH bytes of the part's mesh (same origin). */
  meshUrl: string
  hash: string
  timeoutMs: number
}

export interface SetupLoadResult {
  /** From posting the part to the snapshot saying 'Successfully initialized.' with it drawn (-1: timed out). */
  loadMs: number
  message: string | null
  trianglesDrawn: number
}

/** What the snapshots said while the camera was dragged round. */
export interface OrbitWatch {
  snapshots: number
  /** Render-worker frames per second the snapshots reported (highest). */
  maxFps: number
  /** Triangles drawn per snapshot, lowest (the mesh stays whole while moving). */
  minTrianglesDrawn: number
}

/** One hover: a pointermove over the part until a snapshot reports it hovered. */
export interface HoverSample {
  /** Milliseconds from the pointermove to the snapshot reporting `setup.hovered` = the part (-1: never). */
  ms: number
  /** Main-thread animation frames in between (requestAnimationFrame ticks). */
  frames: number
}

/** bench/browser/page/setupViewport.html: the product's Viewport showing the setup scene. */
export interface SetupViewportPageApi extends BenchPageApi {
  /** Renders the view and waits for the engine. */
  mount(size: { width: number; height: number }): Promise<void>
  loadPart(request: SetupLoadRequest): Promise<SetupLoadResult>
  /** The canvas on the page (CSS pixels), where Playwright drags and hovers. */
  canvasBox(): { left: number; top: number; width: number; height: number }
  /** Posts any intent to the engine (plain data). */
  dispatch(intent: RenderIntent): void
  /** The latest snapshot (null before the first). */
  snapshot(): RenderSnapshot | null
  /** Counts snapshots from now on; `stopWatch` returns what they said. */
  startWatch(): void
  stopWatch(): OrbitWatch
  /**
   * Hovers: a pointermove at `away` (empty space) until nothing is hovered, then one at `over`
   * (canvas CSS pixels) timed until the part is hovered; `repeats` times.
   */
  hover(request: {
    over: { x: number; y: number }
    away: { x: number; y: number }
    repeats: number
    timeoutMs: number
    /** How long to wait after the pointer left the part before moving over it again. */
    settleMs: number
  }): Promise<HoverSample[]>
}
