import { describe, expect, it } from 'vitest'
import {
  MEMORY_MEASURE_INTERVAL_MS,
  startMemoryReadings,
  type MemoryScope,
} from './memoryReadings.ts'
import type { RenderIntent } from './protocol.ts'

type Reading = Extract<RenderIntent, { type: 'set_memory_readings' }>

function fakeScope(options: { deviceMemory?: number; isolated: boolean; measure: boolean }) {
  const timers: { ms: number; run: () => void }[] = []
  let measured = 0
  const scope: MemoryScope = {
    crossOriginIsolated: options.isolated,
    setTimeout: (run, ms) => timers.push({ ms, run }),
    clearTimeout: () => undefined,
  }
  if (options.deviceMemory !== undefined) scope.navigator = { deviceMemory: options.deviceMemory }
  if (options.measure)
    scope.performance = {
      measureUserAgentSpecificMemory: () => Promise.resolve({ bytes: 300e6 + measured++ }),
    }
  return { scope, timers }
}

/** Lets the measurement's promise chain run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('memory readings', () => {
  it('sends the device memory at once and the measured page memory every 30 s', async () => {
    const sent: Reading[] = []
    const { scope, timers } = fakeScope({ deviceMemory: 8, isolated: true, measure: true })
    startMemoryReadings((reading) => sent.push(reading), scope)
    expect(sent).toEqual([{ type: 'set_memory_readings', deviceMemoryGiB: 8, pageBytes: null }])
    expect(timers.map((timer) => timer.ms)).toEqual([MEMORY_MEASURE_INTERVAL_MS])
    timers.shift()!.run()
    await settle()
    expect(sent[1]).toEqual({ type: 'set_memory_readings', deviceMemoryGiB: 8, pageBytes: 300e6 })
    expect(timers).toHaveLength(1)
  })

  it('sends only what the browser has: no device memory, no measurement without isolation', () => {
    const sent: Reading[] = []
    const { scope, timers } = fakeScope({ isolated: false, measure: true })
    const stop = startMemoryReadings((reading) => sent.push(reading), scope)
    expect(sent).toEqual([{ type: 'set_memory_readings', deviceMemoryGiB: null, pageBytes: null }])
    expect(timers).toEqual([])
    stop()
  })

  it('keeps the device budget when the measurement throws, rejects or answers nothing', async () => {
    for (const measure of [
      () => {
        throw new Error('SecurityError')
      },
      () => Promise.reject(new Error('SecurityError')),
      // A test clock's stand-in `performance` answers undefined.
      () => undefined as unknown as Promise<{ bytes: number }>,
    ]) {
      const sent: Reading[] = []
      const { scope, timers } = fakeScope({ deviceMemory: 4, isolated: true, measure: false })
      scope.performance = { measureUserAgentSpecificMemory: measure }
      startMemoryReadings((reading) => sent.push(reading), scope)
      expect(() => timers.shift()!.run()).not.toThrow()
      await settle()
      expect(sent).toEqual([{ type: 'set_memory_readings', deviceMemoryGiB: 4, pageBytes: null }])
      expect(timers).toEqual([])
    }
  })
})
