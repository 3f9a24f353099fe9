/**
 * How many bytes of outputs the render worker may hold (the shown one, the playback window ahead,
 * the loop kept for the next pass, outputs unused for less than 10 s): a share of the device's
 * memory, less what the page already uses beyond those outputs where the browser can measure it.
 */
import type { RenderableOutput } from '../protocol.ts'

const GIB = 1024 ** 3
const MIB = 1024 ** 2

/** Device memory assumed where navigator.deviceMemory is absent (Firefox, Safari): 4 GiB. */
export const DEFAULT_DEVICE_MEMORY_GIB = 4
/** Share of the device's memory the outputs may take (Chromium reports at most 8 GiB: 1 GiB). */
export const OUTPUT_MEMORY_SHARE = 1 / 8
/** Share of the device's memory the whole page should stay under, measured where possible. */
export const PAGE_MEMORY_SHARE = 1 / 2
/** Never less than this: the shown output and a short window must fit. */
export const MIN_OUTPUT_BUDGET_BYTES = 128 * MIB
/** Never more than this, however big the device. */
export const MAX_OUTPUT_BUDGET_BYTES = 2 * GIB

/** What the page knows of the device and of its own memory. */
export interface MemoryReadings {
  /** navigator.deviceMemory (GiB, Chromium: 0.25 … 8); null where absent. */
  deviceMemoryGiB: number | null
  /**
   * performance.measureUserAgentSpecificMemory().bytes (the page with all its workers); null where
   * absent (needs cross-origin isolation; Chromium only).
   */
  pageBytes: number | null
}

/** No readings: the defaults (4 GiB device, nothing measured): a 512 MiB budget. */
export const NO_MEMORY_READINGS: MemoryReadings = { deviceMemoryGiB: null, pageBytes: null }

/**
 * The output budget in bytes: {@link OUTPUT_MEMORY_SHARE} of the device's memory, and where the
 * page's memory was measured, no more than what keeps the page within {@link PAGE_MEMORY_SHARE} of
 * it (`heldBytes`, the outputs held when it was measured, are part of the measurement and are not
 * counted twice); clamped to [{@link MIN_OUTPUT_BUDGET_BYTES}, {@link MAX_OUTPUT_BUDGET_BYTES}].
 */
export function outputMemoryBudget(readings: MemoryReadings, heldBytes = 0): number {
  const deviceGiB =
    readings.deviceMemoryGiB !== null && readings.deviceMemoryGiB > 0
      ? readings.deviceMemoryGiB
      : DEFAULT_DEVICE_MEMORY_GIB
  const deviceBytes = deviceGiB * GIB
  let budget = deviceBytes * OUTPUT_MEMORY_SHARE
  if (readings.pageBytes !== null && readings.pageBytes >= 0) {
    const otherBytes = Math.max(0, readings.pageBytes - heldBytes)
    budget = Math.min(budget, deviceBytes * PAGE_MEMORY_SHARE - otherBytes)
  }
  return Math.round(Math.min(MAX_OUTPUT_BUDGET_BYTES, Math.max(MIN_OUTPUT_BUDGET_BYTES, budget)))
}

/** The bytes an output holds in memory (its column and mesh buffers). */
export function outputBytes(output: RenderableOutput): number {
  const buffers = new Set<ArrayBuffer>()
  for (const object of output.objects) {
    buffers.add(object.buffer)
    if (object.mesh !== null) buffers.add(object.mesh.buffer)
  }
  let bytes = 0
  for (const buffer of buffers) bytes += buffer.byteLength
  return bytes
}
