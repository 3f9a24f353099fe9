import { describe, expect, it } from 'vitest'
import { SetupTimeline } from './timeline.ts'

describe('movement timeline clock', () => {
  it('advances with the frame clock times the speed while playing', () => {
    const timeline = new SetupTimeline()
    timeline.play(1000, 2, false, 10)
    expect(timeline.tick(1500, 10)).toBe(true)
    expect(timeline.timeS()).toBeCloseTo(1)
    timeline.pause()
    expect(timeline.tick(3000, 10)).toBe(false)
    expect(timeline.timeS()).toBeCloseTo(1)
  })

  it('stops at the end without looping, and plays from the start again', () => {
    const timeline = new SetupTimeline()
    timeline.play(0, 1, false, 2)
    timeline.tick(5000, 2)
    expect(timeline.state()).toEqual({ timeS: 2, playing: false, speed: 1, loop: false })
    timeline.play(6000, 1, false, 2)
    expect(timeline.timeS()).toBe(0)
    timeline.tick(6500, 2)
    expect(timeline.timeS()).toBeCloseTo(0.5)
  })

  it('repeats forever when looping', () => {
    const timeline = new SetupTimeline()
    timeline.play(0, 1, true, 2)
    timeline.tick(4500, 2)
    expect(timeline.timeS()).toBeCloseTo(0.5)
    expect(timeline.isPlaying()).toBe(true)
    timeline.tick(9250, 2)
    expect(timeline.timeS()).toBeCloseTo(1.25)
  })

  it('keeps the time played when the speed changes, and ignores a speed that is no speed', () => {
    const timeline = new SetupTimeline()
    timeline.play(0, 1, false, 100)
    timeline.setSpeed(1000, 4)
    timeline.tick(1500, 100)
    expect(timeline.timeS()).toBeCloseTo(3)
    timeline.setSpeed(1500, -2)
    expect(timeline.state().speed).toBe(1)
  })

  it('seeks within the timeline and clamps a shortened one', () => {
    const timeline = new SetupTimeline()
    timeline.seek(7, 5)
    expect(timeline.timeS()).toBe(5)
    timeline.seek(-1, 5)
    expect(timeline.timeS()).toBe(0)
    timeline.seek(4, 5)
    timeline.clampTo(3)
    expect(timeline.timeS()).toBe(3)
  })

  it('stays at 0 on a timeline of no length', () => {
    const timeline = new SetupTimeline()
    timeline.play(0, 1, true, 0)
    timeline.tick(1000, 0)
    expect(timeline.state()).toMatchObject({ timeS: 0, playing: false })
  })
})
