/**
 * Sensors, volume clips and the air drag grid of the results scene, tied to its outputs: the drawn
 * objects (OverlayObjects, AirDragGridObject) and the shown clips' masks (ClipMasks). An output is ready to draw once its
 * masks are in; the output on screen is masked anew when the clips change or its masks arrive.
 */
import { Group, type Object3D } from 'three'
import { AirDragGridObject } from './AirDragGridObject.ts'
import type { OverlayIntent, OverlaySnapshot } from '../overlayProtocol.ts'
import type { ClipMaskSpec } from '../overlayProtocol.ts'
import { ClipMasks } from './ClipMasks.ts'
import type { SceneHost } from './host.ts'
import type { LoadedOutput, OutputLoads } from './OutputLoads.ts'
import { OverlayObjects } from './OverlayObjects.ts'

/** What the clips need of the results scene. */
export interface ResultsClipsHost {
  loads(): OutputLoads
  /** The output on screen. */
  shown(): LoadedOutput | null
  /** The output the clock wants on screen. */
  currentOutput(): number | null
  /** Puts the current output on screen if it can be (its masks arrived). */
  showCurrentOutput(): void
  /** The output on screen was masked anew: arrows are resampled. */
  remasked(): void
}

/** The results scene's sensors and volume clips. */
export class ResultsClips {
  #host: SceneHost
  #results: ResultsClipsHost
  #overlays: OverlayObjects
  #grid = new AirDragGridObject()
  #root = new Group()
  #masks: ClipMasks

  constructor(host: SceneHost, results: ResultsClipsHost) {
    this.#host = host
    this.#results = results
    this.#overlays = new OverlayObjects(host)
    this.#root.add(this.#overlays.root(), this.#grid.root())
    this.#masks = new ClipMasks(host, (loaded) => this.#arrived(loaded))
  }

  /** The sensors, clips and air drag grid drawn with the shown output. */
  root(): Object3D {
    return this.#root
  }

  /** The shown clips, as a load asks for their masks. */
  specs(): ClipMaskSpec[] {
    return this.#masks.specs()
  }

  set(intent: OverlayIntent): void {
    this.#overlays.set(intent.sensors, intent.clips)
    this.#grid.set(intent.airDragGrid)
    this.#masks.setClips(intent.clips)
    const shown = this.#results.shown()
    if (shown !== null && this.prepare(shown)) this.#remask(shown)
    this.#results.showCurrentOutput()
  }

  /** True when output `outputNo` is loaded with every shown clip's masks. */
  isReady(outputNo: number): boolean {
    const loaded = this.#results.loads().loaded.get(outputNo)
    return loaded !== undefined && this.#masks.isReady(loaded)
  }

  /** True when `loaded` has its masks; otherwise asks a data worker for them (it shows later). */
  prepare(loaded: LoadedOutput): boolean {
    if (this.#masks.isReady(loaded)) return true
    const source = this.#results.loads().sourceOf(loaded.outputNo)
    if (source !== null) this.#masks.request(loaded, source)
    return false
  }

  /** Draws `loaded` (its view made, its masks in) with the shown clips' masks. */
  apply(loaded: LoadedOutput): void {
    this.#masks.apply(loaded)
  }

  viewChanged(): void {
    this.#overlays.viewChanged()
  }

  retryFailed(): void {
    this.#overlays.retryFailed()
  }

  /** The overlays' share of the snapshot, once sensors or clips were set. */
  snapshot(): OverlaySnapshot | null {
    if (!this.#overlays.used()) return null
    const overlays = this.#overlays.snapshot()
    return {
      loading: [...new Set([...overlays.loading, ...this.#masks.loading()])].sort(),
      failed: [...overlays.failed, ...this.#masks.failed()].sort((a, b) =>
        a.id.localeCompare(b.id),
      ),
    }
  }

  /** Cell points of the air drag grid drawn (0 while hidden). */
  gridPoints(): number {
    return this.#grid.drawnPoints()
  }

  dispose(): void {
    this.#overlays.dispose()
    this.#grid.dispose()
  }

  #remask(loaded: LoadedOutput): void {
    this.#masks.apply(loaded)
    this.#results.remasked()
    this.#host.invalidate()
  }

  /** Masks of an output came in: mask it if it is on screen, show it if it is due. */
  #arrived(loaded: LoadedOutput): void {
    if (loaded === this.#results.shown() && this.#masks.isReady(loaded)) this.#remask(loaded)
    if (loaded.outputNo === this.#results.currentOutput()) this.#results.showCurrentOutput()
    this.#host.requestFrame()
  }
}
