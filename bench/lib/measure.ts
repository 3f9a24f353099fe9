/**
 * Timing and the physical denominators every ratio is taken against, measured in the same run:
 * memcpy (into a touched buffer), a streaming read, storage write/read bandwidth.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

/** Timings of several runs of one thing. */
export interface Timing {
  medianMs: number
  minMs: number
  samplesMs: number[]
}

/** Median of a list (the list is not changed). */
export function computeMedian(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** Runs `task` `warmups` times untimed, then `runs` times timed (medians resist a busy shared machine). */
export async function timeRuns(
  task: () => unknown,
  options: { runs: number; warmups?: number },
): Promise<Timing> {
  for (let index = 0; index < (options.warmups ?? 1); index++) await task()
  const samplesMs: number[] = []
  for (let index = 0; index < options.runs; index++) {
    const startMs = performance.now()
    await task()
    samplesMs.push(performance.now() - startMs)
  }
  return { medianMs: computeMedian(samplesMs), minMs: Math.min(...samplesMs), samplesMs }
}

/** A buffer whose pages are already mapped, so a copy into it measures bandwidth, not page faults. */
export function allocateTouched(sizeBytes: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(sizeBytes)
  // One write per 4 KiB page maps it; fill the rest so the source is not a zero page either.
  for (let index = 0; index < sizeBytes; index += 4096) bytes[index] = index & 0xff
  return bytes
}

const memcpyMsBySize = new Map<number, number>()

/** Median time to copy `sizeBytes` into a touched buffer (TypedArray.set = memcpy). Memoized per size. */
export function measureMemcpyMs(sizeBytes: number): number {
  const known = memcpyMsBySize.get(sizeBytes)
  if (known !== undefined) return known
  const source = allocateTouched(sizeBytes)
  const target = allocateTouched(sizeBytes)
  target.set(source)
  const samplesMs: number[] = []
  for (let index = 0; index < 5; index++) {
    const startMs = performance.now()
    target.set(source)
    samplesMs.push(performance.now() - startMs)
  }
  const medianMs = computeMedian(samplesMs)
  memcpyMsBySize.set(sizeBytes, medianMs)
  return medianMs
}

/** A sink the optimiser cannot see through, so read loops are not removed. */
export const benchSink = { value: 0 }

const streamingReadMsBySize = new Map<number, number>()

/**
 * Median time of one read-only pass over `sizeBytes` of Float32 values (min/max, the simplest
 * reduction): the floor for any scan such as a colour range or statistics. Memoized per size.
 */
export function measureStreamingReadMs(sizeBytes: number): number {
  const known = streamingReadMsBySize.get(sizeBytes)
  if (known !== undefined) return known
  const values = new Float32Array(allocateTouched(sizeBytes & ~3).buffer)
  for (let index = 0; index < values.length; index++) values[index] = index % 1013
  const samplesMs: number[] = []
  for (let run = 0; run < 6; run++) {
    const startMs = performance.now()
    let min = Infinity
    let max = -Infinity
    for (let index = 0; index < values.length; index++) {
      const value = values[index] as number
      if (value < min) min = value
      if (value > max) max = value
    }
    benchSink.value += min + max
    if (run > 0) samplesMs.push(performance.now() - startMs)
  }
  const medianMs = computeMedian(samplesMs)
  streamingReadMsBySize.set(sizeBytes, medianMs)
  return medianMs
}

/** Sequential file write (with fsync) and read bandwidth of the temp directory, MB/s. */
export interface StorageBandwidth {
  writeMBps: number
  readMBps: number
}

let storageBandwidth: StorageBandwidth | null = null

/** Measures storage bandwidth once per run with a 128 MiB file in the temp directory. */
export function measureStorageBandwidth(sizeBytes = 128 * 1024 ** 2): StorageBandwidth {
  if (storageBandwidth) return storageBandwidth
  const directory = mkdtempSync(join(tmpdir(), 'dive-bench-'))
  const path = join(directory, 'storage.bin')
  const block = allocateTouched(8 * 1024 ** 2)
  try {
    const writeStartMs = performance.now()
    const writeFd = openSync(path, 'w')
    for (let written = 0; written < sizeBytes; written += block.byteLength)
      writeSync(writeFd, block)
    fsyncSync(writeFd)
    closeSync(writeFd)
    const writeMs = performance.now() - writeStartMs
    const readStartMs = performance.now()
    const readFd = openSync(path, 'r')
    while (readSync(readFd, block) > 0);
    closeSync(readFd)
    const readMs = performance.now() - readStartMs
    storageBandwidth = {
      writeMBps: sizeBytes / 1e6 / (writeMs / 1000),
      readMBps: sizeBytes / 1e6 / (readMs / 1000),
    }
    return storageBandwidth
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

/** Megabytes (10^6 bytes) per second. */
export function toMBps(sizeBytes: number, durationMs: number): number {
  return sizeBytes / 1e6 / (durationMs / 1000)
}

/** `value ≤ maxRatio × denominator`, as a result's ratio, target text and ok. */
export function judgeRatio(
  value: number,
  denominator: number,
  maxRatio: number | null,
  denominatorName: string,
): { ratio: number; target: string | null; ok: boolean | null } {
  const ratio = value / denominator
  if (maxRatio === null) return { ratio, target: null, ok: null }
  return { ratio, target: `<= ${maxRatio} x ${denominatorName}`, ok: ratio <= maxRatio }
}

/** `value ≥ minRatio × denominator` (rates: outputs/s, MB/s). */
export function judgeAtLeast(
  value: number,
  denominator: number,
  minRatio: number,
  denominatorName: string,
): { ratio: number; target: string; ok: boolean } {
  const ratio = value / denominator
  return { ratio, target: `>= ${minRatio} x ${denominatorName}`, ok: ratio >= minRatio }
}
