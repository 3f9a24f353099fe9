import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { usePoliteAnnouncement } from './usePoliteAnnouncement.ts'

describe('usePoliteAnnouncement', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('announces at most once a second, the latest text when the second is over', () => {
    const { result, rerender } = renderHook(
      ({ text, active }) => usePoliteAnnouncement(text, active, 1000),
      { initialProps: { text: 'Output 0 · 0 s', active: true } },
    )
    expect(result.current).toBe('Output 0 · 0 s')
    // Playback at 3 outputs/s: two more outputs within the second are held back.
    act(() => {
      vi.advanceTimersByTime(333)
    })
    rerender({ text: 'Output 1 · 0.015 s', active: true })
    act(() => {
      vi.advanceTimersByTime(333)
    })
    rerender({ text: 'Output 2 · 0.03 s', active: true })
    expect(result.current).toBe('Output 0 · 0 s')
    act(() => {
      vi.advanceTimersByTime(334)
    })
    expect(result.current).toBe('Output 2 · 0.03 s')
  })

  it('says nothing while inactive (paused) and keeps the last announcement', () => {
    const { result, rerender } = renderHook(
      ({ text, active }) => usePoliteAnnouncement(text, active, 1000),
      { initialProps: { text: 'Output 0 · 0 s', active: false } },
    )
    expect(result.current).toBe('')
    rerender({ text: 'Output 3 · 0.045 s', active: true })
    expect(result.current).toBe('Output 3 · 0.045 s')
    rerender({ text: 'Output 5 · 0.075 s', active: false })
    act(() => {
      vi.advanceTimersByTime(5000)
    })
    expect(result.current).toBe('Output 3 · 0.045 s')
  })
})
