/**
 * Reads of whole payloads from the browser's storage in a worker, as a data worker would read them
 * (bench/browser/storageReads.ts): the product's IndexedDB output cache, and the Origin Private File
 * System through a sync access handle or through `getFile().arrayBuffer()`. Also probes what this
 * browser's OPFS allows (sync handles, their read-only mode and locks, `move`).
 */
import { IndexedDbOutputCache } from '../../../engine/cache/outputCache.ts'
import { PAYLOAD_DIRECTORY } from '../../../engine/cache/payloadFiles.ts'
import type {
  StorageProbe,
  StorageReadsResult,
  StorageReadsWorkerRequest,
  StorageReadVariant,
} from './api.ts'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<StorageReadsWorkerRequest>) => void) | null
  postMessage(message: unknown): void
}

/** The part of FileSystemSyncAccessHandle used here (lib.dom lacks the worker-only API). */
interface SyncHandle {
  getSize(): number
  read(buffer: Uint8Array, options?: { at: number }): number
  write(buffer: Uint8Array, options?: { at: number }): number
  truncate(size: number): void
  flush(): void
  close(): void
}
type SyncHandleMode = 'readwrite' | 'read-only' | 'readwrite-unsafe'
type SyncFileHandle = FileSystemFileHandle & {
  createSyncAccessHandle(options?: { mode: SyncHandleMode }): Promise<SyncHandle>
  move?(name: string): Promise<void>
}

const DIRECTORY = 'dive-bench-storage-reads'
/** The product's cache with its bytes in IndexedDB chunks, as it keeps them without OPFS. */
const cache = new IndexedDbOutputCache({ databaseName: 'dive-bench-storage-reads', files: null })
/** The product's cache as a data worker opens it: its bytes in OPFS files. */
const filesCache = new IndexedDbOutputCache({ databaseName: 'dive-bench-storage-reads-files' })

const keyOf = (index: number) =>
  ({
    simulationId: 1,
    runId: 1,
    outputNo: index,
    objectId: 'fluid',
    dataset: 'fast',
    formatVersion: '1.0',
  }) as const

const nameOf = (index: number) => `payload-${index}`

async function directory(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory()
  return root.getDirectoryHandle(DIRECTORY, { create: true })
}

async function fileHandle(index: number, create = false): Promise<SyncFileHandle> {
  return (await (await directory()).getFileHandle(nameOf(index), { create })) as SyncFileHandle
}

/** Pseudo-random bytes (xorshift): storage must not get away with compressing zeros. */
function createPayload(sizeBytes: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(sizeBytes)
  const words = new Uint32Array(bytes.buffer, 0, sizeBytes >> 2)
  let state = (0x9e3779b9 ^ seed) >>> 0 || 1
  for (let index = 0; index < words.length; index++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    words[index] = state >>> 0
  }
  return bytes
}

async function fill(count: number, sizeBytes: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const payload = createPayload(sizeBytes, index + 1)
    await cache.put(keyOf(index), payload)
    await filesCache.put(keyOf(index), payload)
    const handle = await (await fileHandle(index, true)).createSyncAccessHandle()
    try {
      handle.truncate(0)
      handle.write(payload, { at: 0 })
      handle.flush()
    } finally {
      handle.close()
    }
  }
  await Promise.all([cache.close(), filesCache.close()])
}

async function readOne(variant: StorageReadVariant, index: number): Promise<number> {
  if (variant === 'indexedDb' || variant === 'cacheFiles') {
    const chunks = await (variant === 'indexedDb' ? cache : filesCache).get(keyOf(index))
    if (chunks === null) throw new Error(`payload ${index} is not in the ${variant} cache`)
    return chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  }
  const file = await fileHandle(index)
  if (variant === 'opfsFile') return (await (await file.getFile()).arrayBuffer()).byteLength
  const handle = await file.createSyncAccessHandle({ mode: 'read-only' })
  try {
    const bytes = new Uint8Array(handle.getSize())
    const read = handle.read(bytes, { at: 0 })
    if (read !== bytes.length) throw new Error(`short read: ${read} of ${bytes.length}`)
    return read
  } finally {
    handle.close()
  }
}

/** Names the error a call throws, or null when it resolves. */
async function failure(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run()
    return null
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  }
}

async function probe(): Promise<StorageProbe> {
  const file = await fileHandle(1_000_000, true)
  const open = (mode?: SyncHandleMode) =>
    mode === undefined ? file.createSyncAccessHandle() : file.createSyncAccessHandle({ mode })
  const pair = async (first?: SyncHandleMode, second?: SyncHandleMode): Promise<string | null> => {
    const held = await open(first)
    try {
      return await failure(async () => (await open(second)).close())
    } finally {
      held.close()
    }
  }
  const result: StorageProbe = {
    syncAccessHandle: typeof file.createSyncAccessHandle === 'function',
    twoDefaultHandles: await pair(),
    twoReadOnlyHandles: await pair('read-only', 'read-only'),
    readOnlyBesideWriter: await pair('readwrite', 'read-only'),
    getFileBesideWriter: await (async () => {
      const held = await open()
      try {
        return await failure(() => file.getFile())
      } finally {
        held.close()
      }
    })(),
    move: typeof file.move === 'function',
  }
  await (await directory()).removeEntry(nameOf(1_000_000))
  return result
}

/**
 * The product's cache on OPFS in this browser: bytes back as written, a replaced payload's file
 * removed, least recently used evicted with its file, concurrent reads of one file, stale runs
 * dropped with their files. Resolves with what failed (empty: all held).
 */
async function checkCacheFiles(): Promise<string[]> {
  const failures: string[] = []
  const expect = (held: boolean, what: string) => {
    if (!held) failures.push(what)
  }
  const checked = new IndexedDbOutputCache({
    databaseName: 'dive-bench-cache-check',
    budgetBytes: 3_000_000,
  })
  if (!(await checked.usesFiles())) return ['the cache does not keep its bytes in OPFS files']
  const key = (outputNo: number, runId = 1) =>
    ({ ...keyOf(outputNo), simulationId: 99, runId }) as const
  const same = (chunks: Uint8Array[] | null, bytes: Uint8Array) =>
    chunks?.length === 1 &&
    chunks[0]!.length === bytes.length &&
    chunks[0]!.every((byte, index) => byte === bytes[index])
  const files = async () => {
    const root = await navigator.storage.getDirectory()
    const directory = await root.getDirectoryHandle(PAYLOAD_DIRECTORY)
    const names: string[] = []
    for await (const name of (directory as unknown as { keys(): AsyncIterable<string> }).keys())
      if (name.startsWith('99-')) names.push(name)
    return names
  }
  const payloads = [1, 2, 3, 4].map((seed) => createPayload(1_000_000, seed))
  for (const outputNo of [0, 1, 2]) await checked.put(key(outputNo), payloads[outputNo]!)
  for (const outputNo of [0, 1, 2])
    expect(
      same(await checked.get(key(outputNo)), payloads[outputNo]!),
      `read back output ${outputNo}`,
    )
  await checked.put(key(0), payloads[3]!)
  expect(same(await checked.get(key(0)), payloads[3]!), 'read back a replaced payload')
  expect((await files()).length === 3, `3 files after a replacement (${(await files()).length})`)
  const [first, second] = await Promise.all([checked.get(key(2)), checked.get(key(2))])
  expect(same(first, payloads[2]!) && same(second, payloads[2]!), 'two reads of one file at once')
  // Output 1 is now the least recently used: a fourth payload evicts it and its file.
  await checked.put(key(3), payloads[0]!)
  expect((await checked.get(key(1))) === null, 'the least recently used payload evicted')
  expect((await files()).length === 3, `3 files after an eviction (${(await files()).length})`)
  await checked.dropStaleRuns(99, 2)
  expect((await checked.keys()).length === 0, 'stale runs dropped')
  expect((await files()).length === 0, `no files after the run's drop (${(await files()).length})`)
  await checked.close()
  return failures
}

async function handle(
  request: StorageReadsWorkerRequest,
): Promise<StorageReadsResult | StorageProbe | string[] | null> {
  if (request.op === 'probe') return probe()
  if (request.op === 'check') return checkCacheFiles()
  if (request.op === 'fill') {
    await fill(request.count, request.sizeBytes)
    return null
  }
  const readMs: number[] = []
  let bytes = 0
  const firstStartMs = performance.timeOrigin + performance.now()
  for (const index of request.indices) {
    const startMs = performance.now()
    bytes += await readOne(request.variant, index)
    readMs.push(performance.now() - startMs)
  }
  const lastEndMs = performance.timeOrigin + performance.now()
  await Promise.all([cache.close(), filesCache.close()])
  return { readMs, bytes, firstStartMs, lastEndMs }
}

scope.onmessage = (event) => {
  handle(event.data).then(
    (result) => scope.postMessage({ result }),
    (error: unknown) =>
      scope.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  )
}
