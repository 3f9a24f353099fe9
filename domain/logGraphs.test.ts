import { describe, expect, it } from 'vitest'
import { buildLogGraphs, thinIndices } from './logGraphs.ts'

/** Three log lines as the solver writes them: time and runtime in ms. */
const LINES = [
  { time: 0, runtime: 0, particles: 1000, dt: 1e-4, progress: 0 },
  { time: 100, runtime: 2000, particles: 1000, dt: 2e-4, progress: 0.25 },
  { time: 200, runtime: 6000, particles: 990, dt: 1.5e-4, progress: 0.5 },
]

describe('log graphs', () => {
  it('gives particles and dt against simulated time in s, with progress', () => {
    const graphs = buildLogGraphs(LINES)
    expect(graphs.particles).toEqual({
      timeS: [0, 0.1, 0.2],
      progress: [0, 0.25, 0.5],
      value: [1000, 1000, 990],
    })
    expect(graphs.dt.value).toEqual([1e-4, 2e-4, 1.5e-4])
  })

  it('gives runtime per simulated second between two lines', () => {
    expect(buildLogGraphs(LINES).runtimePerS).toEqual({
      timeS: [0.1, 0.2],
      progress: [0.25, 0.5],
      value: [20, 40],
    })
  })

  it('skips lines without a time and is empty before the run logs', () => {
    expect(buildLogGraphs([{ particles: 5 }, ...LINES.slice(0, 1)]).particles.value).toEqual([1000])
    expect(buildLogGraphs([]).dt).toEqual({ timeS: [], progress: [], value: [] })
  })

  it('thins a long run to about maxPoints, keeping the ends and a spike', () => {
    const lines = Array.from({ length: 86_400 }, (_, n) => ({
      time: n,
      runtime: n * 1000,
      particles: 1e6,
      dt: n === 43_210 ? 1 : 1e-4,
      progress: n / 86_400,
    }))
    const { dt } = buildLogGraphs(lines, 600)
    expect(dt.value.length).toBeLessThanOrEqual(600)
    expect(dt.timeS[0]).toBe(0)
    expect(dt.timeS.at(-1)).toBe(86.399)
    expect(dt.value).toContain(1)
    expect(dt.timeS.every((t, i) => i === 0 || t > (dt.timeS[i - 1] ?? -1))).toBe(true)
  })
})

describe('thinIndices', () => {
  it('keeps every index under maxPoints and each bucket low and high in order above it', () => {
    expect(thinIndices([3, 1, 2], 5)).toEqual([0, 1, 2])
    const values = Array.from({ length: 100 }, (_, i) => (i === 37 ? -5 : i === 12 ? 9 : 0))
    const kept = thinIndices(values, 11)
    expect(kept.length).toBeLessThanOrEqual(11)
    expect(kept).toContain(37)
    expect(kept).toContain(12)
    expect(kept.at(-1)).toBe(99)
  })
})
