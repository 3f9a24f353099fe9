/**
 * Where the output cache keeps payload bytes when the browser has the Origin Private File System
 * with sync access handles (dedicated workers): one file per stored payload, read straight into an
 * ArrayBuffer. Measured in chromium 156 here (bench/browser/storageReads.ts, bench/README.md): 2–8 ×
 * the read rate of the same payloads from IndexedDB, which goes through the browser's blob path.
 */

/** A store of whole files by name (the output cache's payload bytes). */
export interface PayloadFiles {
  /** Writes a new file of the parts one after another (a name is never reused: no reader holds it). */
  write(name: string, parts: readonly Uint8Array[]): Promise<void>
  /** The file's bytes in an ArrayBuffer of their own, or null when there is no such file. */
  read(name: string): Promise<Uint8Array | null>
  /** Removes a file; a missing file is no error. Rejects when the file is in use (a reader holds it). */
  remove(name: string): Promise<void>
  /** Names of every file. */
  names(): Promise<string[]>
  /** When the file was last written (ms since the epoch), or null when there is no such file. */
  modifiedMs(name: string): Promise<number | null>
}

/** The directory under the origin's OPFS root that holds the cache's files. */
export const PAYLOAD_DIRECTORY = 'dive-output-cache'

/** The part of FileSystemSyncAccessHandle used here (lib.dom lacks this worker-only API). */
interface SyncAccessHandle {
  getSize(): number
  read(buffer: Uint8Array, options?: { at: number }): number
  write(buffer: Uint8Array, options?: { at: number }): number
  close(): void
}

interface SyncFileHandle extends FileSystemFileHandle {
  /** `mode` (chromium 121+): 'read-only' handles share a file; older browsers ignore it. */
  createSyncAccessHandle(options?: { mode: 'readwrite' | 'read-only' }): Promise<SyncAccessHandle>
}

function errorName(error: unknown): string | null {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : null
}

/** Payload files in an OPFS directory, read and written through sync access handles. */
export class OpfsPayloadFiles implements PayloadFiles {
  #directory: FileSystemDirectoryHandle

  constructor(directory: FileSystemDirectoryHandle) {
    this.#directory = directory
  }

  async write(name: string, parts: readonly Uint8Array[]): Promise<void> {
    const file = (await this.#directory.getFileHandle(name, { create: true })) as SyncFileHandle
    const handle = await file.createSyncAccessHandle()
    try {
      let at = 0
      for (const part of parts) {
        for (let done = 0; done < part.length;) {
          const count = handle.write(part.subarray(done), { at: at + done })
          if (count <= 0) throw new Error(`The cache file ${name} took no bytes.`)
          done += count
        }
        at += part.length
      }
    } finally {
      // No flush: a crash that loses the tail leaves a file shorter than its record, read as a miss.
      handle.close()
    }
  }

  async read(name: string): Promise<Uint8Array | null> {
    let file: SyncFileHandle
    try {
      file = (await this.#directory.getFileHandle(name)) as SyncFileHandle
    } catch (error) {
      if (errorName(error) === 'NotFoundError') return null
      throw error
    }
    let handle: SyncAccessHandle
    try {
      handle = await file.createSyncAccessHandle({ mode: 'read-only' })
    } catch (error) {
      // A browser without the read-only mode locks a file to one handle: read it the slower way.
      if (errorName(error) === 'NoModificationAllowedError') {
        return new Uint8Array(await (await file.getFile()).arrayBuffer())
      }
      if (errorName(error) === 'NotFoundError') return null
      throw error
    }
    try {
      const bytes = new Uint8Array(handle.getSize())
      let read = 0
      while (read < bytes.length) {
        const count = handle.read(bytes.subarray(read), { at: read })
        if (count <= 0) break
        read += count
      }
      return read === bytes.length ? bytes : bytes.slice(0, read)
    } finally {
      handle.close()
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await this.#directory.removeEntry(name)
    } catch (error) {
      if (errorName(error) !== 'NotFoundError') throw error
    }
  }

  async names(): Promise<string[]> {
    const names: string[] = []
    const entries = (this.#directory as unknown as { keys(): AsyncIterable<string> }).keys()
    for await (const name of entries) names.push(name)
    return names
  }

  async modifiedMs(name: string): Promise<number | null> {
    try {
      return (await (await this.#directory.getFileHandle(name)).getFile()).lastModified
    } catch (error) {
      // NotFoundError, or TypeMismatchError for a directory: not a payload file.
      if (errorName(error) === 'NotFoundError' || errorName(error) === 'TypeMismatchError')
        return null
      throw error
    }
  }
}

/**
 * The OPFS payload files where this context has them: the OPFS root and sync access handles (only
 * dedicated workers have those). Null elsewhere (Node, the main thread, a browser or private mode
 * without OPFS): the cache then keeps the bytes in IndexedDB.
 */
export async function openOpfsPayloadFiles(): Promise<PayloadFiles | null> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage
  const handleClass = (globalThis as { FileSystemFileHandle?: { prototype: object } })
    .FileSystemFileHandle
  if (typeof storage?.getDirectory !== 'function' || handleClass === undefined) return null
  if (!('createSyncAccessHandle' in handleClass.prototype)) return null
  try {
    const root = await storage.getDirectory()
    return new OpfsPayloadFiles(await root.getDirectoryHandle(PAYLOAD_DIRECTORY, { create: true }))
  } catch {
    return null
  }
}

/** Payload files in memory: the cache's file logic in Node, where OPFS is missing (tests). */
export class MemoryPayloadFiles implements PayloadFiles {
  #files = new Map<string, { bytes: Uint8Array; modifiedMs: number }>()
  #nowMs: () => number

  constructor(nowMs: () => number = () => 0) {
    this.#nowMs = nowMs
  }

  write(name: string, parts: readonly Uint8Array[]): Promise<void> {
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
    let at = 0
    for (const part of parts) {
      bytes.set(part, at)
      at += part.length
    }
    this.#files.set(name, { bytes, modifiedMs: this.#nowMs() })
    return Promise.resolve()
  }

  read(name: string): Promise<Uint8Array | null> {
    return Promise.resolve(this.#files.get(name)?.bytes.slice() ?? null)
  }

  remove(name: string): Promise<void> {
    this.#files.delete(name)
    return Promise.resolve()
  }

  names(): Promise<string[]> {
    return Promise.resolve([...this.#files.keys()])
  }

  modifiedMs(name: string): Promise<number | null> {
    return Promise.resolve(this.#files.get(name)?.modifiedMs ?? null)
  }
}
