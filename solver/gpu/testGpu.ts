/**
 * The device of a GPU test file: looked for once before its tests (findGpu), with a warning that
 * says why where there is none, so that the file's tests skip instead of failing there.
 */
import type { TestContext } from 'vitest'
import { beforeAll } from 'vitest'
import type { GpuContext } from './device.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'

export interface TestGpu {
  /** The device; where there is none, skips the test `t` (saying why) and does not return. */
  need(t: TestContext): GpuContext
  /** The device, null where there is none. */
  found(): GpuContext | null
}

/** Registers the search for the device in the calling test file (call it at the top level). */
export function useGpu(): TestGpu {
  let gpu: GpuContext | null = null
  beforeAll(async () => {
    gpu = await findGpu()
    if (!gpu) console.warn(`GPU tests skipped: ${gpuUnavailableReason()}`)
  })
  return {
    need: (t) => gpu ?? t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`),
    found: () => gpu,
  }
}
