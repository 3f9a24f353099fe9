import { describe, expect, it } from 'vitest'
import { PlaybackClock, snapPlaybackSpeed } from './playback.ts'

const always = () => true

describe('playback clock', () => {
  it('advances one output every 1/3 s at speed 1 and every 1/24 s at speed 8', () => {
    const clock = new PlaybackClock()
    clock.setOutputs([0, 1, 2, 3])
    clock.play(0, 1, true)
    expect(clock.frameIntervalMs()).toBeCloseTo(1000 / 3)
    expect(clock.tick(333, always)).toBeNull()
    expect(clock.tick(334, always)).toBe(1)
    clock.setSpeed(334, 8)
    expect(clock.frameIntervalMs()).toBeCloseTo(1000 / 24)
    expect(clock.tick(334 + 42, always)).toBe(2)
  })

  it('bounds the speed to 0.0009765625 … 2048 in powers of two', () => {
    expect(snapPlaybackSpeed(1e-9)).toBe(0.0009765625)
    expect(snapPlaybackSpeed(1e9)).toBe(2048)
    expect(snapPlaybackSpeed(3)).toBe(4)
    expect(snapPlaybackSpeed(NaN)).toBe(1)
  })

  it('loops back to the first output, or stops at the last without looping', () => {
    const looping = new PlaybackClock()
    looping.setOutputs([5, 6])
    looping.seek(6)
    looping.play(0, 1, true)
    expect(looping.tick(400, always)).toBe(5)
    const once = new PlaybackClock()
    once.setOutputs([5, 6])
    once.play(0, 1, false)
    expect(once.tick(400, always)).toBe(6)
    expect(once.tick(800, always)).toBeNull()
    expect(once.isPlaying()).toBe(false)
  })

  it('waits for an output that is not loaded, then counts it late', () => {
    const clock = new PlaybackClock()
    clock.setOutputs([0, 1, 2])
    clock.play(0, 1, true)
    expect(clock.tick(400, () => false)).toBeNull()
    expect(clock.currentOutput()).toBe(0)
    expect(clock.tick(900, always)).toBe(1)
    expect(clock.punctuality()).toEqual({ shown: 1, late: 1 })
    // After a stall the cadence restarts instead of bursting.
    expect(clock.tick(901, always)).toBeNull()
  })

  it('passes an output still loading on time while the current one is in, not two', () => {
    const clock = new PlaybackClock()
    clock.setOutputs([0, 1, 2, 3])
    clock.play(0, 1, true)
    const loaded = new Set([0])
    const loading = (outputNo: number) => outputNo === 1 || outputNo === 2
    // Output 1 is still loading: the clock moves on, output 0 stays on screen.
    expect(clock.tick(334, (n) => loaded.has(n), loading)).toBe(1)
    expect(clock.punctuality()).toEqual({ shown: 1, late: 1 })
    // Output 1 not in yet: the clock does not run two frames ahead of the screen.
    expect(clock.tick(667, (n) => loaded.has(n), loading)).toBeNull()
    loaded.add(1)
    loaded.add(2)
    // A short wait keeps the cadence.
    expect(clock.tick(700, (n) => loaded.has(n), loading)).toBe(2)
    expect(clock.dueAtMs()).toBeCloseTo(1000)
  })

  it('keeps the whole loop from the shown output while looping, only the window otherwise', () => {
    const clock = new PlaybackClock()
    clock.setOutputs([0, 1, 2, 3, 4])
    clock.seek(3)
    expect(clock.retainedOutputs()).toEqual([3, 4])
    clock.play(0, 1, true)
    expect(clock.retainedOutputs()).toEqual([3, 4, 0, 1, 2])
    clock.pause()
    clock.play(0, 1, false)
    expect(clock.retainedOutputs()).toEqual([3, 4])
  })

  it('wants the shown output and the next 10 while playing, wrapping when looping', () => {
    const clock = new PlaybackClock()
    clock.setOutputs(Array.from({ length: 20 }, (_, i) => i))
    clock.seek(15)
    expect(clock.wantedOutputs()).toEqual([15, 16])
    clock.play(0, 1, true)
    expect(clock.wantedOutputs()).toEqual([15, 16, 17, 18, 19, 0, 1, 2, 3, 4, 5])
    clock.play(0, 1, false)
    clock.pause()
    clock.play(0, 1, false)
    expect(clock.wantedOutputs()).toEqual([15, 16, 17, 18, 19])
  })

  it('does not wrap around to the first output while paused', () => {
    const clock = new PlaybackClock()
    clock.setOutputs([0, 1, 2])
    clock.seek(2)
    expect(clock.wantedOutputs()).toEqual([2])
  })

  it('keeps the shown output when the list changes', () => {
    const clock = new PlaybackClock()
    clock.setOutputs([1, 2, 3])
    clock.seek(3)
    clock.setOutputs([0, 1, 2, 3, 4])
    expect(clock.currentOutput()).toBe(3)
    clock.setOutputs([7])
    expect(clock.currentOutput()).toBe(7)
  })
})
