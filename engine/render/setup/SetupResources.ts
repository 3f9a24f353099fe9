/**
 * The setup scene's fetches, run as tasks on the data-worker pool (engine/data/scheduler.ts): per
 * object a mesh, a point cloud and a keyframe track, each identified by a key (its hash). Asking
 * again with the same key does nothing (no refetch); a new key cancels the fetch in flight and
 * starts another; results of cancelled or superseded fetches are dropped. Failures are kept with
 * their message until the object changes or the token is renewed.
 */
import { readBvh, type BvhView } from '../../data/bvh.ts'
import { isAbortError } from '../../data/scheduler.ts'
import type { KeyframeTrack, SetupMeshData, SetupPointCloudData } from '../../setupProtocol.ts'
import type { DataWorkerHandle, SceneHost } from '../host.ts'

/** A mesh ready to draw and pick. */
export interface LoadedMesh {
  data: SetupMeshData
  bvh: BvhView | null
}

/** What each kind of resource resolves to. */
export interface SetupResourceData {
  mesh: LoadedMesh
  pointcloud: SetupPointCloudData
  keyframes: KeyframeTrack
}

/** One kind of resource. */
export type SetupResourceKind = keyof SetupResourceData

interface ResourceState<K extends SetupResourceKind> {
  key: string
  requestId: string | null
  data: SetupResourceData[K] | null
  error: string | null
  fetch: (worker: DataWorkerHandle, requestId: string) => Promise<SetupResourceData[K]>
}

type ObjectResources = { [K in SetupResourceKind]?: ResourceState<K> }

/** Fetches of the setup objects' resources. */
export class SetupResources {
  #host: SceneHost
  #onSettled: (id: string, kind: SetupResourceKind) => void
  #objects = new Map<string, ObjectResources>()
  #counter = 0

  /** `onSettled(id, kind)`: a fetch ended (loaded or failed); not called for dropped ones. */
  constructor(host: SceneHost, onSettled: (id: string, kind: SetupResourceKind) => void) {
    this.#host = host
    this.#onSettled = onSettled
  }

  /**
   * Wants the resource of `kind` for object `id` under `key` (null: none). The same key as held or
   * in flight does nothing; another key drops what is held and fetches anew with `fetch`.
   */
  want<K extends SetupResourceKind>(
    id: string,
    kind: K,
    key: string | null,
    fetch: ResourceState<K>['fetch'],
  ): void {
    const resources = this.#objects.get(id) ?? {}
    this.#objects.set(id, resources)
    const current = resources[kind]
    if (current?.key === key) return
    if (current !== undefined) this.#cancel(current)
    if (key === null) {
      delete resources[kind]
      return
    }
    const state: ResourceState<K> = { key, requestId: null, data: null, error: null, fetch }
    ;(resources as Record<K, ResourceState<K>>)[kind] = state
    this.#start(id, kind, state)
  }

  /** The loaded resource, or null (none, loading or failed). */
  get<K extends SetupResourceKind>(id: string, kind: K): SetupResourceData[K] | null {
    return this.#objects.get(id)?.[kind]?.data ?? null
  }

  /** True once the resource has loaded or failed (also when none is wanted). */
  settled(id: string, kind: SetupResourceKind): boolean {
    const state = this.#objects.get(id)?.[kind]
    return state === undefined || state.requestId === null
  }

  /** Drops everything of an object (cancelling its fetches). */
  drop(id: string): void {
    const resources = this.#objects.get(id)
    if (resources === undefined) return
    for (const state of Object.values(resources)) this.#cancel(state)
    this.#objects.delete(id)
  }

  /** Ids with a fetch in flight, sorted. */
  loading(): string[] {
    const ids: string[] = []
    for (const [id, resources] of this.#objects)
      if (Object.values(resources).some((state) => state.requestId !== null)) ids.push(id)
    return ids.sort()
  }

  /** Objects with a failed fetch and why (one entry per failed resource). */
  failures(): { id: string; message: string }[] {
    const failed: { id: string; message: string }[] = []
    for (const [id, resources] of this.#objects)
      for (const state of Object.values(resources))
        if (state.error !== null) failed.push({ id, message: state.error })
    return failed.sort((a, b) => a.id.localeCompare(b.id))
  }

  /** Fetches every failed resource again (a renewed token may let them through). */
  retryFailed(): void {
    for (const [id, resources] of this.#objects)
      for (const kind of Object.keys(resources) as SetupResourceKind[]) {
        const state = resources[kind]
        if (state === undefined || state.error === null) continue
        state.error = null
        this.#start(id, kind, state)
      }
  }

  dispose(): void {
    for (const id of [...this.#objects.keys()]) this.drop(id)
  }

  #start<K extends SetupResourceKind>(id: string, kind: K, state: ResourceState<K>): void {
    const requestId = `setup-${kind}-${id}-${++this.#counter}`
    state.requestId = requestId
    this.#host.scheduler
      .scheduleTask({
        requestId,
        priority: 'shown',
        estimatedBytes: 0,
        run: (worker) => state.fetch(worker, requestId),
      })
      .then(
        (data) => {
          if (state.requestId !== requestId) return
          state.requestId = null
          state.data = data
          this.#onSettled(id, kind)
        },
        (error: unknown) => {
          if (state.requestId !== requestId || isAbortError(error)) return
          state.requestId = null
          state.error = error instanceof Error ? error.message : String(error)
          this.#onSettled(id, kind)
        },
      )
  }

  #cancel(state: ResourceState<SetupResourceKind>): void {
    if (state.requestId !== null) this.#host.scheduler.cancel(state.requestId)
    state.requestId = null
  }
}

/** Reads a loaded mesh's hierarchy (a mesh without triangles has none). */
export function toLoadedMesh(data: SetupMeshData): LoadedMesh {
  return { data, bvh: data.bvh === null ? null : readBvh(data.bvh) }
}
