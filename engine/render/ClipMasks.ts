/**
 * The shown volume clips' masks in the results scene. Each shown clip has a mask over each fluid
 * it clips in each output (one byte per row, 1 inside its mesh): they come with the output when
 * the clip was shown as it loaded (LoadRequest.clips), else a data worker computes them for the
 * output in memory. An output is drawn only once every shown clip's masks are in (the last frame
 * stays meanwhile), and each fluid then draws the rows inside any shown clip of its material
 * (outside, for an inverted one): one Uint8 attribute and a uniform on the GPU (OutputView.setMasks).
 */
import { clipMaskProblem, clipMasksMaterial } from '../data/clipMasks.ts'
import { isAbortError } from '../data/scheduler.ts'
import type { ClipMask, ClipMaskSpec, VolumeClipView } from '../overlayProtocol.ts'
import type { OutputSource, RenderableOutput } from '../protocol.ts'
import type { SceneHost } from './host.ts'
import type { LoadedOutput } from './OutputLoads.ts'

/** What is known of the masks of one output in memory. */
export interface OutputMasks {
  /** By `clipKey@fluidObjectId`: the mask, or why there is none. */
  byKey: Map<string, Uint8Array | string>
  /** Clip keys asked of a data worker and not answered yet. */
  requested: Set<string>
  /** Kept rows per fluid for the shown clips (`signature` names the clips and inversions). */
  keeps: Map<string, { signature: string; keep: Uint8Array }>
}

/** The masks an output came with (mask objects a data worker added for the shown clips). */
export function createOutputMasks(output: RenderableOutput): OutputMasks {
  const masks: OutputMasks = { byKey: new Map(), requested: new Set(), keeps: new Map() }
  for (const object of output.objects) {
    const slice = object.columns[0]
    if (object.clipMaskKey === undefined || !object.targetObjectId || slice === undefined) continue
    masks.byKey.set(
      `${object.clipMaskKey}@${object.targetObjectId}`,
      new Uint8Array(object.buffer, slice.byteOffset, slice.length),
    )
  }
  return masks
}

/** A short, stable name for text (FNV-1a, 32 bits). */
function hashText(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}

interface ShownClip {
  id: string
  spec: ClipMaskSpec
  inverted: boolean
}

/** The shown clips and the masks of the outputs in memory. */
export class ClipMasks {
  #host: SceneHost
  #onArrived: (loaded: LoadedOutput) => void
  #shown: ShownClip[] = []
  /** Shown clips that cannot mask (an unsupported kind, a zero size), by clip id. */
  #problems = new Map<string, string>()
  /** Requests in flight: the clip ids each asks for. */
  #inFlight = new Map<string, string[]>()
  #failures = new Map<string, string>()
  #counter = 0

  /** `onArrived(loaded)`: masks of an output came in (it may be drawn now). */
  constructor(host: SceneHost, onArrived: (loaded: LoadedOutput) => void) {
    this.#host = host
    this.#onArrived = onArrived
  }

  /** Takes the clips; only the shown ones mask. */
  setClips(clips: readonly VolumeClipView[]): void {
    this.#shown = []
    this.#problems.clear()
    for (const clip of clips) {
      if (!clip.view.appearance.visible) continue
      const spec: ClipMaskSpec = {
        key: `${clip.view.id}#${hashText(JSON.stringify(clip.mesh))}`,
        mesh: clip.mesh,
        materialId: clip.materialId,
      }
      const problem = clipMaskProblem(spec)
      if (problem !== null) this.#problems.set(clip.view.id, problem)
      else this.#shown.push({ id: clip.view.id, spec, inverted: clip.inverted })
    }
  }

  /** The shown clips as a load asks for their masks. */
  specs(): ClipMaskSpec[] {
    return this.#shown.map((clip) => clip.spec)
  }

  /** True when every shown clip has its mask (or a reason for none) over every fluid it clips. */
  isReady(loaded: LoadedOutput): boolean {
    return this.#missing(loaded).length === 0
  }

  /** Asks a data worker for the masks `loaded` lacks (once per clip and output). */
  request(loaded: LoadedOutput, source: OutputSource): void {
    const missing = this.#missing(loaded).filter(
      (clip) => !loaded.masks.requested.has(clip.spec.key),
    )
    if (missing.length === 0) return
    const fluids = fluidsOf(loaded.output)
    const requestId = `clip-masks-${++this.#counter}-${loaded.outputNo}`
    for (const clip of missing) loaded.masks.requested.add(clip.spec.key)
    this.#inFlight.set(
      requestId,
      missing.map((clip) => clip.id),
    )
    const settle = (masks: ClipMask[], failure: string | null) => {
      this.#inFlight.delete(requestId)
      for (const clip of missing) {
        loaded.masks.requested.delete(clip.spec.key)
        if (failure === null) this.#failures.delete(clip.id)
        else this.#failures.set(clip.id, failure)
      }
      for (const mask of masks)
        loaded.masks.byKey.set(`${mask.clipKey}@${mask.objectId}`, mask.inside ?? mask.error ?? '')
      // A pair that did not come back is not asked for again: it draws unclipped.
      for (const clip of missing)
        for (const fluid of fluids)
          if (clipMasksMaterial(clip.spec.materialId, fluid.materialId)) {
            const key = `${clip.spec.key}@${fluid.objectId}`
            if (!loaded.masks.byKey.has(key))
              loaded.masks.byKey.set(key, failure ?? 'No mask came back.')
          }
      this.#onArrived(loaded)
    }
    this.#host.scheduler
      .scheduleTask({
        requestId,
        priority: 'shown',
        estimatedBytes: 0,
        run: (worker) => {
          if (worker.computeClipMasks === undefined)
            return Promise.reject(new Error('This data worker computes no volume clip masks.'))
          return worker.computeClipMasks({
            key: loaded.output.key,
            source,
            dataset: loaded.dataset,
            fluids,
            clips: missing.map((clip) => clip.spec),
          })
        },
      })
      .then(
        (masks) => settle(masks, null),
        (error: unknown) => {
          if (isAbortError(error)) {
            this.#inFlight.delete(requestId)
            for (const clip of missing) loaded.masks.requested.delete(clip.spec.key)
            return
          }
          settle([], error instanceof Error ? error.message : String(error))
        },
      )
  }

  /** Draws `loaded` with the shown clips' masks (it must be ready); nothing for an output without a view. */
  apply(loaded: LoadedOutput): void {
    loaded.view?.setMasks((objectId) => this.#keepOf(loaded, objectId))
  }

  /** Clip ids whose masks are being computed. */
  loading(): string[] {
    return [...new Set([...this.#inFlight.values()].flat())]
  }

  /** Shown clips that cannot mask, or whose masks could not be computed, with why. */
  failed(): { id: string; message: string }[] {
    return [...this.#problems, ...this.#failures].map(([id, message]) => ({ id, message }))
  }

  #missing(loaded: LoadedOutput): ShownClip[] {
    const fluids = fluidsOf(loaded.output)
    return this.#shown.filter((clip) =>
      fluids.some(
        (fluid) =>
          clipMasksMaterial(clip.spec.materialId, fluid.materialId) &&
          !loaded.masks.byKey.has(`${clip.spec.key}@${fluid.objectId}`),
      ),
    )
  }

  /** The rows a fluid draws: inside any shown clip of its material (outside an inverted one). */
  #keepOf(loaded: LoadedOutput, objectId: string): Uint8Array | null {
    const fluid = fluidsOf(loaded.output).find((candidate) => candidate.objectId === objectId)
    if (fluid === undefined) return null
    const masks: { inside: Uint8Array; inverted: boolean }[] = []
    let signature = ''
    for (const clip of this.#shown) {
      if (!clipMasksMaterial(clip.spec.materialId, fluid.materialId)) continue
      const inside = loaded.masks.byKey.get(`${clip.spec.key}@${objectId}`)
      // No mask (the clip cannot mask this output): the clip is left out, not the fluid.
      if (!(inside instanceof Uint8Array)) continue
      masks.push({ inside, inverted: clip.inverted })
      signature += `${clip.spec.key}${clip.inverted ? '!' : ''};`
    }
    const only = masks[0]
    if (only === undefined) return null
    if (masks.length === 1 && !only.inverted) return only.inside
    const cached = loaded.masks.keeps.get(objectId)
    if (cached?.signature === signature) return cached.keep
    const keep = new Uint8Array(only.inside.length)
    for (const { inside, inverted } of masks) {
      const flip = inverted ? 1 : 0
      for (let i = 0; i < keep.length; i++) keep[i] = keep[i]! | (inside[i]! ^ flip)
    }
    loaded.masks.keeps.set(objectId, { signature, keep })
    return keep
  }
}

/** The fluids of an output (the objects clips mask). */
function fluidsOf(output: RenderableOutput): { objectId: string; materialId: number | null }[] {
  return output.objects
    .filter((object) => object.kind === 'fluid')
    .map((object) => ({ objectId: object.objectId, materialId: object.materialId ?? null }))
}
