/**
 * The render worker's data workers: the load scheduler that deals loads to them, the workers
 * adopted from the main thread's ports, and the access token each is given.
 */
import { backgroundLoadLimit, LoadScheduler } from '../data/scheduler.ts'
import type { DataWorkerHandle } from './host.ts'

export interface DataWorkersOptions {
  /** Asks the main thread for one more data worker (it answers with a port: adopt). */
  requestWorker: () => void
  /** The loads changed: the engine draws again. */
  onChange: () => void
  /** navigator.hardwareConcurrency, or undefined where unknown. */
  hardwareConcurrency: number | undefined
  /** A Comlink handle on a data worker's port. */
  wrap: (port: MessagePort) => DataWorkerHandle
  /** What a data worker posts on its port besides Comlink's answers. */
  onPortMessage: (data: unknown) => void
}

export class DataWorkers {
  readonly scheduler: LoadScheduler<DataWorkerHandle>
  #options: DataWorkersOptions
  #workers: DataWorkerHandle[] = []
  #accessToken: string | null = null

  constructor(options: DataWorkersOptions) {
    this.#options = options
    this.scheduler = new LoadScheduler<DataWorkerHandle>({
      requestWorker: () => options.requestWorker(),
      onChange: () => options.onChange(),
      maxBackgroundLoads: backgroundLoadLimit(options.hardwareConcurrency),
    })
  }

  /** The workers playback reads with start now, while the page opens, not when play is pressed. */
  prestart(): void {
    this.scheduler.prestartWorkers(backgroundLoadLimit(this.#options.hardwareConcurrency))
  }

  adopt(port: MessagePort): void {
    const worker = this.#options.wrap(port)
    port.addEventListener('message', (event: MessageEvent) =>
      this.#options.onPortMessage(event.data),
    )
    port.start()
    this.#workers.push(worker)
    void Promise.resolve(worker.setAccessToken(this.#accessToken)).catch(() => undefined)
    this.scheduler.addWorker(worker)
  }

  list(): DataWorkerHandle[] {
    return this.#workers
  }

  accessToken(): string | null {
    return this.#accessToken
  }

  setAccessToken(token: string | null): void {
    this.#accessToken = token
    for (const worker of this.#workers)
      void Promise.resolve(worker.setAccessToken(token)).catch(() => undefined)
  }

  dispose(): void {
    this.scheduler.dispose()
  }
}
