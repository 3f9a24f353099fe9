/**
 * The contract between bench modules and bench/run.ts. A bench module is any file
 * `bench/<area>/*.bench.ts` (areas: node, solver, browser) that exports `cases: BenchCase[]`
 * and, optionally, `disposeBench()` (closes what its cases shared: a browser, a server).
 */

/** One printed line: the raw figure and its ratio to a denominator measured in the same run. */
export interface BenchResult {
  /** `area/case.variant`, e.g. `node/decode.5M.noInterleave`. Starts with the case's name. */
  case: string
  value: number
  /** `ms`, `MB/s`, `outputs/s`, `count`, `ratio`, `bytes`, … */
  unit: string
  /** value ÷ the physical denominator (memcpy, streaming read, link or storage bandwidth); null when the case only reports. */
  ratio: number | null
  /** The target in words, e.g. `<= 0.1 x memcpy`; null when the case has none. */
  target: string | null
  /** Whether the target was met; null when there is no target. A missed target never fails the run. */
  ok: boolean | null
}

/** What the runner gives a case. */
export interface BenchContext {
  /** Prints one result line (text or JSON). */
  report: (result: BenchResult) => void
  /** A note on stderr (progress, what the denominator was); never part of the JSON output. */
  log: (message: string) => void
  /** `--quick`: smaller inputs and fewer runs, for a smoke test of the suite. */
  quick: boolean
}

/** One case: a name that `--filter` matches against, and a function that reports one or more results. */
export interface BenchCase {
  /** `area/name`, e.g. `node/memcpy`, `solver/forcePass`, `browser/indexedDb`. */
  name: string
  /** One sentence: what is measured, against which denominator, and the target. */
  description: string
  /**
   * Reports its results through `context.report`. Throw `BenchSkip` when it cannot run here (no
   * chromium, a module not written yet); any other error marks the case failed.
   */
  run(context: BenchContext): Promise<void>
}

/** Thrown by a case that cannot run here (no chromium, module not built yet): reported, not failed. */
export class BenchSkip extends Error {
  override name = 'BenchSkip'
}
