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

describe('memory readings', () => {
  it('sends the device memory at once and the measured page memory every 30 s', async () => {
    const sent: Reading[] = []
    const { scope, timers } = fakeScope({ deviceMemory: 8, isolated: true, measure: true })
    startMemoryReadings((reading) => sent.push(reading), scope)
    expect(sent).toEqual([{ type: 'set_memory_readings', deviceMemoryGiB: 8, pageBytes: null }])
    expect(timers.map((timer) => timer.ms)).toEqual([MEMORY_MEASURE_INTERVAL_MS])
    timers.shift()!.run()
    await Promise.resolve()
    await Promise.resolve()
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
})
