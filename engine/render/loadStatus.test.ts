import { describe, expect, it } from 'vitest'
import { LoadStatusThrottle, type LoadStatus } from './loadStatus.ts'

const status = (loaded: number[], loading: number[]): LoadStatus => ({
  loadedOutputs: loaded,
  loadingOutputs: loading,
})

describe('loading status throttle', () => {
  it('sends a change at once after a quiet second, later ones at the end of the second', () => {
    const wakes: { delayMs: number; wake: () => void }[] = []
    const throttle = new LoadStatusThrottle((delayMs, wake) => wakes.push({ delayMs, wake }))
    expect(throttle.offer(0, status([], [0]))).toEqual(status([], [0]))
    // 200 ms later: held back, and one wake-up asked for at the end of the second.
    expect(throttle.offer(200, status([0], [1]))).toEqual(status([], [0]))
    expect(throttle.offer(400, status([0, 1], [2]))).toEqual(status([], [0]))
    expect(wakes.map((w) => w.delayMs)).toEqual([800])
    wakes[0]!.wake()
    // At the end of the second the latest status goes out.
    expect(throttle.offer(1000, status([0, 1], [2]))).toEqual(status([0, 1], [2]))
    expect(throttle.offer(1500, status([0, 1, 2], []))).toEqual(status([0, 1], [2]))
    expect(wakes).toHaveLength(2)
    expect(throttle.offer(2000, status([0, 1, 2], []))).toEqual(status([0, 1, 2], []))
  })

  it('sends nothing new while the status does not change', () => {
    const wakes: number[] = []
    const throttle = new LoadStatusThrottle((delayMs) => wakes.push(delayMs))
    const first = throttle.offer(0, status([1], []))
    expect(throttle.offer(10, status([1], []))).toBe(first)
    expect(wakes).toEqual([])
  })
})
