/**
 * What the render worker's output loads (OutputLoads.ts) hold and are asked for: an output in
 * memory, and the display's wishes (wanted, retained, dataset).
 */
import type { WrittenDataset } from '../../domain/outputFormat.ts'
import type { ColourRange } from '../../domain/results.ts'
import type { RenderableOutput } from '../protocol.ts'
import type { OutputMasks } from './ClipMasks.ts'
import type { OutputView } from './OutputView.ts'

/** An output in memory. */
export interface LoadedOutput {
  outputNo: number
  dataset: WrittenDataset
  runKey: string
  output: RenderableOutput
  view: OutputView | null
  /** Data ranges per colour binding (a vector magnitude costs a pass over the columns). */
  dataRanges: Map<string, ColourRange | null>
  /** Its buffers are on the GPU already (staged ahead of playback). */
  uploaded: boolean
  /** The shown volume clips' masks over its fluids. */
  masks: OutputMasks
  /** Its column and mesh buffers' bytes. */
  bytes: number
  /** Since when nobody wants or retains it (engine clock, ms); null while in use. */
  unusedSinceMs: number | null
}

/** What the loads need to know of the display. */
export interface LoadWishes {
  /** Output numbers wanted, the shown one first. */
  wanted: readonly number[]
  /**
   * Outputs to keep once loaded, the most useful first (the playback loop ahead): kept, not loaded,
   * while they fit in the memory budget with the wanted ones, so that the next loop shows them at
   * once instead of loading every output again. Absent: only the wanted ones are kept.
   */
  retained?: readonly number[]
  dataset: WrittenDataset
  playing: boolean
  /** The output on screen (kept while playback starts from it). */
  displayed: LoadedOutput | null
}
