/** Synthetic outputs for benches, built once per run (outside every timed part) and memoized. */
import { performance } from 'node:perf_hooks'
import { writeSyntheticOutput } from '../../domain/output/synthetic.ts'
import { writeBundle, type WrittenOutput } from '../../domain/output/writer.ts'
import type { WrittenDataset } from '../../domain/outputFormat.ts'

/** One output written through the real writer, and its `fetch.data` bundle of one dataset. */
export interface SyntheticBundle {
  particles: number
  written: WrittenOutput
  dataset: WrittenDataset
  /** The bundle, alone in its own ArrayBuffer (as a fetch or IndexedDB hands it out). */
  bundle: Uint8Array<ArrayBuffer>
  buildMs: number
}

const bundles = new Map<string, SyntheticBundle>()

/** A dam break of `particles` fluid particles at t = 0.4 s (plus its wall, mesh and mask). */
export function buildSyntheticBundle(
  particles: number,
  options: { dataset?: WrittenDataset; outputNo?: number; timeS?: number } = {},
): SyntheticBundle {
  const dataset = options.dataset ?? 'full'
  const outputNo = options.outputNo ?? 0
  const id = `${particles}/${dataset}/${outputNo}`
  const known = bundles.get(id)
  if (known) return known
  const startMs = performance.now()
  const written = writeSyntheticOutput({
    particles,
    timeS: options.timeS ?? 0.4 + outputNo * 0.05,
    outputNo,
    seed: outputNo + 1,
    simulationId: 1,
    runId: 1,
  })
  const bundle = writeBundle([...written[dataset].values()]) as Uint8Array<ArrayBuffer>
  const result = { particles, written, dataset, bundle, buildMs: performance.now() - startMs }
  bundles.set(id, result)
  return result
}

/** Particle count label: 5M, 100k. */
export function formatCount(count: number): string {
  if (count >= 1e6) return `${+(count / 1e6).toFixed(1)}M`
  if (count >= 1e3) return `${+(count / 1e3).toFixed(1)}k`
  return String(count)
}
