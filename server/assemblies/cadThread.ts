import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { CadWorkerData, CadWorkerMessage } from './cadProtocol.ts'
import type {
  AssemblyReadResult,
  PartTessellationRequest,
  PartTessellationResult,
} from './cadWork.ts'

/*
 * CAD work in worker threads, one per job, so the server keeps serving while OpenCascade parses
 * and meshes (seconds to minutes). An abort ends the thread at once: a read is one synchronous
 * WASM call and cannot hear a message, and nothing the thread does is stored by it.
 */

/** How CAD jobs are executed (the default: worker threads). */
export interface CadExecutor {
  /** The import tree of a STEP file. Rejects when `signal` aborts (the thread is ended). */
  read(path: string, signal: AbortSignal): Promise<AssemblyReadResult>
  /**
   * Tessellates parts; `onPart` is awaited for each, in order, before the promise settles.
   * Rejects when `signal` aborts (the thread is ended; later parts are not reported).
   */
  tessellate(
    path: string,
    parts: PartTessellationRequest[],
    signal: AbortSignal,
    onPart: (result: PartTessellationResult) => Promise<void>,
  ): Promise<void>
}

const workerUrl = new URL('./cad.worker.ts', import.meta.url).href

/** URL of tsx's ESM API (as server/jobs/workerExecutors.ts: --import does not reach a worker on Node 20). */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>
  }
  const entry = manifest.exports['./esm/api']?.import.default
  if (!entry) throw new Error('tsx/esm/api is not exported by the installed tsx.')
  return pathToFileURL(join(dirname(manifestPath), entry)).href
}

/** Threads started and not yet ended (tests check that a cancel ends its thread). */
let liveThreads = 0

/** How many CAD threads are running in this process. */
export function countCadThreads(): number {
  return liveThreads
}

/**
 * Runs one CAD thread to its end: every message goes through `onMessage` (in order, each awaited
 * before the next); resolves once the thread's final message ('read' or 'done') was handled.
 */
function runCadThread(
  data: CadWorkerData,
  signal: AbortSignal,
  onMessage: (message: CadWorkerMessage) => Promise<void>,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const boot = `import(${JSON.stringify(tsxEsmApiUrl())})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}) })
  .then((entry) => entry.startCadWorker())
  .catch((error) => { console.error(error); process.exit(1) })`
    const worker = new Worker(boot, { eval: true, workerData: data })
    liveThreads++
    worker.once('exit', () => liveThreads--)
    let chain = Promise.resolve()
    let settled = false
    // Once the final message came, the thread may exit before its handling is done: that is no error.
    let finalReceived = false
    const settle = (action: () => void) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      void worker.terminate()
      action()
    }
    const aborted = () => new Error(String(signal.reason))
    const onAbort = () => settle(() => reject(aborted()))
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort)
    worker.on('message', (message: CadWorkerMessage) => {
      if (settled) return
      if (message.type === 'error') {
        settle(() => reject(new Error(message.message)))
        return
      }
      chain = chain.then(() => (signal.aborted ? undefined : onMessage(message)))
      if (message.type === 'read' || message.type === 'done') {
        finalReceived = true
        chain.then(
          () => settle(() => (signal.aborted ? reject(aborted()) : resolve())),
          (error: unknown) => settle(() => reject(toError(error))),
        )
      } else chain.catch((error: unknown) => settle(() => reject(toError(error))))
    })
    worker.on('error', (error) => settle(() => reject(error)))
    worker.on('exit', (code) => {
      if (!finalReceived)
        settle(() => reject(new Error(`The CAD thread ended early (exit code ${code}).`)))
    })
  })
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}

/** The default executor: every read and tessellation in its own worker thread. */
export function createThreadCadExecutor(): CadExecutor {
  return {
    read: async (path, signal) => {
      let read: AssemblyReadResult | undefined
      await runCadThread({ kind: 'read', path }, signal, (message) => {
        if (message.type === 'read') read = { tree: message.tree, facts: message.facts }
        return Promise.resolve()
      })
      if (!read) throw new Error('The CAD thread ended without a result.')
      return read
    },
    tessellate: (path, parts, signal, onPart) =>
      runCadThread({ kind: 'tessellate', path, parts }, signal, async (message) => {
        if (message.type === 'part') {
          const { type: _type, ...result } = message
          await onPart(result)
        }
      }),
  }
}
