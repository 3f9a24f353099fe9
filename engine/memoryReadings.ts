/**
 * The main thread's readings of memory for the render worker's output budget
 * (engine/render/memoryBudget.ts): navigator.deviceMemory once, and where the browser has it
 * (Chromium, cross-origin isolated pages) performance.measureUserAgentSpecificMemory every
 * {@link MEMORY_MEASURE_INTERVAL_MS}. Each reading is sent as a `set_memory_readings` intent.
 */
import type { RenderIntent } from './protocol.ts'

/** How often the page's memory is measured (the browser answers at its next garbage collection). */
export const MEMORY_MEASURE_INTERVAL_MS = 30_000

/** The globals the readings come from (tests pass their own). */
export interface MemoryScope {
  navigator?: { deviceMemory?: number }
  crossOriginIsolated?: boolean
  performance?: { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> }
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** Starts sending readings to `send`; returns the stop. */
export function startMemoryReadings(
  send: (intent: Extract<RenderIntent, { type: 'set_memory_readings' }>) => void,
  scope: MemoryScope = globalThis as unknown as MemoryScope,
): () => void {
  const deviceMemory = scope.navigator?.deviceMemory
  const deviceMemoryGiB = typeof deviceMemory === 'number' && deviceMemory > 0 ? deviceMemory : null
  send({ type: 'set_memory_readings', deviceMemoryGiB, pageBytes: null })
  const measure = scope.performance?.measureUserAgentSpecificMemory
  if (measure === undefined || scope.crossOriginIsolated !== true) return () => undefined
  let stopped = false
  let timer: unknown = null
  const next = () => {
    timer = scope.setTimeout(() => {
      timer = null
      // Through a promise: a page that may not measure throws or rejects (a security error), and a
      // replaced `performance` (test clocks) may answer nothing; each keeps the device's budget.
      Promise.resolve()
        .then(() => measure.call(scope.performance))
        .then(
          (result: { bytes: number } | undefined) => {
            if (stopped || typeof result?.bytes !== 'number') return
            send({ type: 'set_memory_readings', deviceMemoryGiB, pageBytes: result.bytes })
            next()
          },
          () => undefined,
        )
    }, MEMORY_MEASURE_INTERVAL_MS)
  }
  next()
  return () => {
    stopped = true
    if (timer !== null) scope.clearTimeout(timer)
  }
}
