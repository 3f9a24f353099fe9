import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ErrorCode } from '../../domain/errors.ts'
import type { StlUnit } from '../../domain/rest/setupRoutes.ts'
import { ApiError } from '../api/apiError.ts'
import type { CheckedStl } from './stlUpload.ts'

/*
 * STL uploads are parsed and checked in a worker thread, one per upload (issue 13 item 7: a
 * 100 MB STL held every other request for up to 5 s on the event loop). The bytes are transferred
 * in and the mesh file out, never copied. A refusal comes back as the ApiError it was.
 */

/** What the thread gets. */
export interface StlThreadData {
  bytes: Uint8Array
  unit: StlUnit
}

/** What the thread answers, once. */
export type StlThreadMessage =
  | ({ type: 'checked' } & CheckedStl)
  | { type: 'refused'; code: ErrorCode; description: string }
  | { type: 'failed'; message: string }

const workerUrl = new URL('./stl.worker.ts', import.meta.url).href

/** tsx's ESM API: --import does not reach a worker on Node 20 (as server/assemblies/cadThread.ts). */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>
  }
  const entry = manifest.exports['./esm/api']?.import.default
  if (!entry) throw new Error('tsx/esm/api is not exported by the installed tsx.')
  return pathToFileURL(join(dirname(manifestPath), entry)).href
}

/**
 * Checks an STL upload in a thread of its own. `bytes` is transferred (unusable afterwards) when
 * it spans its whole buffer, copied otherwise. Rejects with the ApiError of a refused file.
 */
export function checkStlInThread(bytes: Uint8Array, unit: StlUnit): Promise<CheckedStl> {
  const owned =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice()
  const boot = `import(${JSON.stringify(tsxEsmApiUrl())})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}) })
  .then((entry) => entry.startStlWorker())
  .catch((error) => { console.error(error); process.exit(1) })`
  const data: StlThreadData = { bytes: owned, unit }
  return new Promise<CheckedStl>((resolve, reject) => {
    const worker = new Worker(boot, {
      eval: true,
      workerData: data,
      transferList: [owned.buffer as ArrayBuffer],
    })
    let answered = false
    worker.once('message', (message: StlThreadMessage) => {
      answered = true
      void worker.terminate()
      if (message.type === 'checked') {
        const { type: _type, ...checked } = message
        resolve(checked)
      } else if (message.type === 'refused') reject(new ApiError(message.code, message.description))
      else reject(new Error(`The STL check failed: ${message.message}`))
    })
    worker.once('error', (error) => {
      if (!answered) reject(error)
    })
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`The STL check thread ended early (exit code ${code}).`))
    })
  })
}
