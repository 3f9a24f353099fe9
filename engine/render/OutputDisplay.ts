/**
 * How the shown output looks: its colour binding (scheme and range are uniforms; a new column is a
 * rebinding and a data-range pass), per-object display modes, the detail level's draw counts, the
 * velocity arrows and particle picking over what was drawn.
 */
import { TRIANGLE_LIMIT, type ColourScheme, type DetailLevel } from '../../domain/constants.ts'
import {
  ATTRIBUTES,
  COLOUR_MAP_STATUS,
  initialColourRange,
  isAttributeName,
  type ColourRange,
} from '../../domain/results.ts'
import type { PickResult, RenderIntent } from '../protocol.ts'
import { clipPlaneEquation } from './clip.ts'
import { computeDrawCounts } from './detail.ts'
import type { EngineScene, SceneHost } from './host.ts'
import type { LoadedOutput } from './OutputLoads.ts'
import { colourDataRange } from './outputColumns.ts'
import { defaultObjectDisplay, type ObjectDisplay } from './OutputView.ts'
import { buildOutputArrows, pickOutputPoint } from './resultsOverlays.ts'

interface ColourSetting {
  attribute: string
  columns: string[]
  scheme: ColourScheme
  range: ColourRange | null
}

/** The look of the shown output. */
export class OutputDisplay {
  #host: SceneHost
  #shown: LoadedOutput | null = null
  #detail: DetailLevel = 'High'
  #colour: ColourSetting | null = null
  #displays = new Map<string, ObjectDisplay>()
  #vectorColumns: [string, string, string] | null = null
  #dataRange: ColourRange | null = null
  #colourStatus: string | null = null
  #drawCounts = new Map<string, number>()
  #pointsDrawn = 0
  #trianglesDrawn = 0
  #arrowsStale = false

  constructor(host: SceneHost) {
    this.#host = host
  }

  shown(): LoadedOutput | null {
    return this.#shown
  }

  /** Makes `loaded` the shown output (its view exists): colour, display and arrows follow. */
  show(loaded: LoadedOutput | null): void {
    this.#shown = loaded
    if (loaded === null) return
    this.applyColour()
    loaded.view?.applyDisplay((id) => this.#displayOf(id))
    this.#arrowsStale = true
  }

  setDetail(level: DetailLevel): void {
    this.#detail = level
    this.#host.invalidate()
  }

  setColour(intent: Extract<RenderIntent, { type: 'set_colour' }>): void {
    const columnsChanged = this.#colour?.columns.join() !== intent.columns.join()
    this.#colour = {
      attribute: intent.attribute,
      columns: [...intent.columns],
      scheme: intent.scheme,
      range: intent.range,
    }
    // A scheme or range change sets uniforms only: nothing is uploaded or rescanned.
    if (columnsChanged) this.applyColour()
    else {
      this.#host.scene()?.setColourMap(intent.scheme, this.colourRange())
      this.#host.invalidate()
    }
  }

  /** Changes one object's display (material mode and visibility, part view and visibility). */
  setObjectDisplay(objectId: string, change: Partial<ObjectDisplay>): void {
    this.#displays.set(objectId, { ...this.#displayOf(objectId), ...change })
    const added = this.#shown?.view?.applyDisplay((id) => this.#displayOf(id)) ?? false
    if (added) this.#host.scene()?.refreshView()
    this.#host.invalidate()
    this.#arrowsStale = true
  }

  setVectors(columns: [string, string, string] | null): void {
    this.#vectorColumns = columns
    this.#arrowsStale = true
    this.#host.invalidate()
  }

  /** The camera, viewport or clip changed: arrows are resampled once it settles. */
  markArrowsStale(): void {
    this.#arrowsStale = true
  }

  /** Binds the colour columns of the shown output and sets scheme and range (uniforms only). */
  applyColour(): void {
    const shown = this.#shown
    const view = shown?.view ?? null
    const colour = this.#colour
    this.#colourStatus = null
    this.#dataRange = null
    if (shown !== null && view !== null) {
      const bound = view.bindColour(colour === null ? null : colour.columns)
      if (colour !== null) {
        const key = colour.columns.join()
        if (!shown.dataRanges.has(key))
          shown.dataRanges.set(key, colourDataRange(view, colour.columns))
        this.#dataRange = shown.dataRanges.get(key) ?? null
        if (!bound)
          this.#colourStatus = COLOUR_MAP_STATUS.notAvailable(attributeLabel(colour.attribute))
      }
    }
    if (colour !== null) this.#host.scene()?.setColourMap(colour.scheme, this.colourRange())
    this.#host.invalidate()
  }

  /** The range in use: the user's, else the attribute's defaults over the data range. */
  colourRange(): ColourRange | null {
    const colour = this.#colour
    if (colour === null) return null
    if (colour.range !== null) return colour.range
    return isAttributeName(colour.attribute)
      ? initialColourRange(colour.attribute, this.#dataRange)
      : this.#dataRange
  }

  dataRange(): ColourRange | null {
    return this.#dataRange
  }

  colourStatus(): string | null {
    return this.#colourStatus
  }

  /** Points and triangles of the last frame (0 while nothing is shown). */
  drawn(): { points: number; triangles: number } {
    if (this.#shown === null) return { points: 0, triangles: 0 }
    return { points: this.#pointsDrawn, triangles: this.#trianglesDrawn }
  }

  /** Binds colour and display to an output staged ahead of playback, and uploads it. */
  stage(loaded: LoadedOutput, scene: EngineScene): void {
    const view = loaded.view
    if (view === null) return
    const colour = this.#colour
    view.bindColour(colour === null ? null : colour.columns)
    // A vector magnitude's range is a pass over three columns: better now than in its frame.
    if (colour !== null && !loaded.dataRanges.has(colour.columns.join()))
      loaded.dataRanges.set(colour.columns.join(), colourDataRange(view, colour.columns))
    view.applyDisplay((id) => this.#displayOf(id))
    scene.uploadView(view)
  }

  /** Before a frame is drawn: draw counts for the detail level, arrows once the camera rests. */
  beforeDraw(interacting: boolean): void {
    this.#updateDrawCounts(interacting)
    if (!interacting && this.#arrowsStale) this.#updateArrows()
  }

  /** Picks over the drawn points; `maxPoints` bounds the work (a prefix is a uniform subset). */
  pickAt(xPx: number, yPx: number, maxPoints = Infinity): PickResult | null {
    const view = this.#shown?.view ?? null
    const scene = this.#host.scene()
    if (view === null || scene === null) return null
    return pickOutputPoint(view, this.#drawCounts, {
      xPx,
      yPx,
      size: this.#host.size(),
      viewProjection: scene.viewProjection().elements,
      clip: clipPlaneEquation(this.#host.clip()),
      colourColumns: this.#colour?.columns ?? null,
      maxPoints,
    })
  }

  #displayOf(objectId: string): ObjectDisplay {
    return this.#displays.get(objectId) ?? defaultObjectDisplay()
  }

  #updateDrawCounts(interacting: boolean): void {
    const view = this.#shown?.view ?? null
    this.#drawCounts = new Map()
    this.#pointsDrawn = 0
    this.#trianglesDrawn = 0
    if (view === null) return
    const visible = view.objects.filter((object) => object.points?.visible === true)
    const counts = computeDrawCounts(
      visible.map((object) => object.object.particleCount),
      this.#detail,
      interacting,
    )
    visible.forEach((object, index) => {
      const count = counts[index] as number
      this.#drawCounts.set(object.object.objectId, count)
      this.#pointsDrawn += count
    })
    for (const object of view.objects)
      if (object.points !== null && object.points.visible !== true)
        this.#drawCounts.set(object.object.objectId, 0)
    const triangleLimit = this.#detail === 'All' ? null : TRIANGLE_LIMIT
    view.setDrawCounts(this.#drawCounts, triangleLimit)
    for (const object of view.objects) {
      if (object.mesh?.visible !== true) continue
      const triangles = object.object.mesh?.triangleCount ?? 0
      this.#trianglesDrawn +=
        triangleLimit === null ? triangles : Math.min(triangles, triangleLimit)
    }
  }

  #updateArrows(): void {
    this.#arrowsStale = false
    const view = this.#shown?.view ?? null
    const scene = this.#host.scene()
    if (view === null || scene === null) return
    const columns = this.#vectorColumns
    const segments =
      columns === null
        ? null
        : buildOutputArrows(
            view,
            this.#drawCounts,
            columns,
            this.#host.camera(),
            this.#host.size(),
            scene.viewProjection().elements,
            clipPlaneEquation(this.#host.clip()),
          )
    view.setArrows(segments, scene.arrowMaterial())
    scene.refreshView()
  }
}

function attributeLabel(attribute: string): string {
  return isAttributeName(attribute) ? ATTRIBUTES[attribute].label : attribute
}
