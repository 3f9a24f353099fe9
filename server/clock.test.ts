import { describe, expect, it } from 'vitest'
import { createClock } from './clock.ts'

describe('clock', () => {
  it('hands out strictly increasing times even when the source stands still', () => {
    const clock = createClock(() => 1000)
    expect([clock.nowMs(), clock.nowMs(), clock.nowMs()]).toEqual([1000, 1001, 1002])
    expect(clock.nowIso()).toBe(new Date(1003).toISOString())
  })

  it('follows the source when it moves ahead', () => {
    let now = 0
    const clock = createClock(() => now)
    clock.nowMs()
    now = 5000
    expect(clock.nowMs()).toBe(5000)
  })
})
