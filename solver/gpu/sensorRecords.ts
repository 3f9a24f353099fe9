/**
 * For the GPU's sensor tests (sensorsGpu.test.ts, sensorsMoving.test.ts): a run's sensor records
 * as written (sensorSeries.ts), and how far two runs' series of one sensor lie apart.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import { sensorSeriesFile } from '../../domain/output/layout.ts'

/** The records of a sensor: [time, pressure, vx, vy, vz] per sample. */
export async function readSeries(
  dataDir: string,
  simulationId: number,
  runId: number,
  sensorId: number,
): Promise<number[][]> {
  const bytes = await readFile(
    join(dataDir, sensorSeriesFile(simulationId, runId, sensorId, 'records')),
  )
  expect(bytes.length % 40).toBe(0)
  const values = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8)
  const records: number[][] = []
  for (let r = 0; r < values.length / 5; r++) records.push([...values.subarray(r * 5, r * 5 + 5)])
  return records
}

/**
 * Largest differences of two series, pressure (Pa) and velocity (m/s), and the scales of the
 * reference series: its largest pressure magnitude (Pa) and its fastest sample (m/s).
 */
export interface SeriesDifference {
  pressure: number
  velocity: number
  peak: number
  speed: number
}

/**
 * The largest differences of the GPU's series of one sensor from the CPU's, after checking that
 * they hold the same samples: the same steps (times within 1e-4 of the shortest step `dtMin`),
 * dry at the same ones.
 */
export function compareSeries(
  gpu: number[][],
  cpu: number[][],
  dtMin: number,
  what: string,
): SeriesDifference {
  expect(gpu.length, what).toBe(cpu.length)
  const out = { pressure: 0, velocity: 0, peak: 0, speed: 0 }
  cpu.forEach((record, r) => {
    const other = gpu[r]!
    // the same steps: float32 time steps summed, far below a step
    expect(Math.abs(other[0]! - record[0]!), what).toBeLessThan(1e-4 * dtMin)
    // dry at the same samples
    expect(other.slice(1).map(Number.isNaN), what).toEqual(record.slice(1).map(Number.isNaN))
    if (Number.isNaN(record[1]!)) return
    out.pressure = Math.max(out.pressure, Math.abs(other[1]! - record[1]!))
    out.velocity = Math.max(
      out.velocity,
      Math.hypot(...other.slice(2).map((v, c) => v - record[2 + c]!)),
    )
    out.peak = Math.max(out.peak, Math.abs(record[1]!))
    out.speed = Math.max(out.speed, Math.hypot(...record.slice(2)))
  })
  return out
}

/**
 * How far series `a` lies from series `b` of another run (whose steps may fall elsewhere): at
 * each wet sample of `a`, `b` interpolated linearly in time between its samples around it (both
 * wet); the largest pressure and velocity differences.
 */
export function seriesDistance(
  a: number[][],
  b: number[][],
  what: string,
): Pick<SeriesDifference, 'pressure' | 'velocity'> {
  const out = { pressure: 0, velocity: 0 }
  let compared = 0
  let k = 0
  for (const record of a) {
    const t = record[0]!
    while (k + 2 < b.length && b[k + 1]![0]! < t) k++
    const [before, after] = [b[k]!, b[k + 1]!]
    if (!after || t < before[0]! || t > after[0]!) continue
    if ([record, before, after].some((r) => Number.isNaN(r[1]!))) continue
    const f = after[0]! > before[0]! ? (t - before[0]!) / (after[0]! - before[0]!) : 0
    const at = (c: number) => before[c]! + f * (after[c]! - before[c]!)
    out.pressure = Math.max(out.pressure, Math.abs(record[1]! - at(1)))
    out.velocity = Math.max(out.velocity, Math.hypot(...[2, 3, 4].map((c) => record[c]! - at(c))))
    compared++
  }
  // most of the run compared, not a few samples at its ends
  expect(compared, what).toBeGreaterThan(a.length / 2)
  return out
}
