import { describe, expect, it } from 'vitest'
import type { RenderSnapshot } from '../protocol.ts'
import { FrameRateMeter, SnapshotThrottle } from './snapshots.ts'

function snapshot(overrides: Partial<RenderSnapshot> = {}): RenderSnapshot {
  return {
    camera: { position: [1, 1, 1], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
    fps: 0,
    pointsDrawn: 0,
    trianglesDrawn: 0,
    shownOutput: null,
    loadedOutputs: [],
    loadingOutputs: [],
    bytesInFlight: 0,
    dataRange: null,
    colourRange: null,
    playing: false,
    speed: 1,
    scaleBar: null,
    pick: null,
    hover: null,
    error: null,
    colourStatus: null,
    ...overrides,
  }
}

describe('snapshot throttling', () => {
  it('sends a snapshot only when something changed', () => {
    const throttle = new SnapshotThrottle()
    expect(throttle.offer(1, snapshot())).not.toBeNull()
    expect(throttle.offer(2, snapshot())).toBeNull()
    expect(throttle.offer(3, snapshot({ pointsDrawn: 5 }))).not.toBeNull()
  })

  it('sends at most one snapshot per frame', () => {
    const throttle = new SnapshotThrottle()
    expect(throttle.offer(1, snapshot())).not.toBeNull()
    expect(throttle.offer(1, snapshot({ fps: 60 }))).toBeNull()
    expect(throttle.offer(2, snapshot({ fps: 60 }))).not.toBeNull()
  })

  it('counts frames of the last second', () => {
    const meter = new FrameRateMeter()
    for (let t = 0; t < 1000; t += 100) meter.recordFrame(t)
    expect(meter.framesPerSecond(950)).toBe(10)
    expect(meter.framesPerSecond(1450)).toBe(5)
    expect(meter.framesPerSecond(5000)).toBe(0)
  })
})
