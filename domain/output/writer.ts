/**
 * Writes outputs in the output format (docs/output-format.md): one Arrow IPC stream per object and
 * dataset, one record batch per stream, rows in a spatially stratified order, per-column finite
 * min/max and unit in the field metadata. Used by the solver and by the synthetic generator.
 */ import {
  encodeBundleHeader,
  fastParticleCount,
  POSITION_COLUMNS,
  type BundleEntryDescription,
  type FormatObjectKind,
  type ParticleObjectKind,
  type WrittenDataset,
} from '../outputFormat.ts'
import { applyOrder, applyOrderToColumns, computeStratifiedOrder } from './ordering.ts'

import { invalid, orderFloatColumns, writeObjectStream, type MeshInput } from './objectStream.ts'

export interface ParticleObjectInput {
  kind: ParticleObjectKind
  objectId: string
  materialId?: number | null
  columns: Record<string, Float32Array>
  mesh?: MeshInput | null
}

/** A volume clip mask over one fluid of the same output, in that fluid's input row order. */
export interface MaskObjectInput {
  kind: 'volume_clip'
  objectId: string
  targetObjectId: string
  materialId?: number | null
  inside: Uint8Array
}

/** One output (time step) as the solver holds it. */
export interface OutputInput {
  simulationId: number
  runId: number | null
  outputNo: number
  timeS: number
  objects: readonly (ParticleObjectInput | MaskObjectInput)[]
}

/** One written object stream, ready for a bundle (it satisfies {@link BundleEntryInput}). */
export interface WrittenObject {
  objectId: string
  kind: FormatObjectKind
  dataset: WrittenDataset
  outputNo: number
  particleCount: number
  triangleCount: number
  bytes: Uint8Array
}

/** Every object of one output, in both written datasets, keyed by object id. */
export interface WrittenOutput {
  outputNo: number
  timeS: number
  full: Map<string, WrittenObject>
  fast: Map<string, WrittenObject>
}

function prefixColumns(
  columns: readonly (readonly [string, Float32Array])[],
  count: number,
): Record<string, Float32Array> {
  return Object.fromEntries(columns.map(([name, values]) => [name, values.subarray(0, count)]))
}

/**
 * Writes one output: each particle object is put in stratified order once, written whole as the
 * `full` dataset and as its first {@link fastParticleCount} rows as the `fast` dataset; each mask
 * is permuted with its fluid's order so it stays aligned, and cut to the same prefix. Meshes are
 * written unchanged in both datasets.
 */
export function writeOutput(output: OutputInput): WrittenOutput {
  const written: WrittenOutput = {
    outputNo: output.outputNo,
    timeS: output.timeS,
    full: new Map(),
    fast: new Map(),
  }
  const orders = new Map<string, { order: Uint32Array; fastCount: number }>()
  const base = {
    simulationId: output.simulationId,
    runId: output.runId,
    outputNo: output.outputNo,
    timeS: output.timeS,
  }
  const record = (
    object: ParticleObjectInput | MaskObjectInput,
    dataset: WrittenDataset,
    particleCount: number,
    triangleCount: number,
    bytes: Uint8Array,
  ): void => {
    if (written[dataset].has(object.objectId)) {
      throw invalid(`Object id ${object.objectId} appears twice in output ${output.outputNo}.`)
    }
    written[dataset].set(object.objectId, {
      objectId: object.objectId,
      kind: object.kind,
      dataset,
      outputNo: output.outputNo,
      particleCount,
      triangleCount,
      bytes,
    })
  }
  for (const object of output.objects) {
    if (object.kind === 'volume_clip') continue
    const meta = { ...base, objectId: object.objectId, objectKind: object.kind }
    const columns = orderFloatColumns(object.columns, `Object ${object.objectId}`)
    const [x, y, z] = POSITION_COLUMNS.map((name) => object.columns[name] as Float32Array)
    const order = computeStratifiedOrder(x!, y!, z!)
    const gathered = applyOrderToColumns(
      columns.map(([, values]) => values),
      order,
    )
    const sorted = columns.map(([name], index) => [name, gathered[index]!] as const)
    const count = order.length
    const fastCount = fastParticleCount(count)
    orders.set(object.objectId, { order, fastCount })
    const mesh = object.mesh ?? null
    const triangleCount = mesh === null ? 0 : mesh.indices.length / 3
    const materialId = object.materialId ?? null
    const options = { order: 'presorted', mesh } as const
    const full = writeObjectStream(
      prefixColumns(sorted, count),
      { ...meta, materialId, dataset: 'full' },
      options,
    )
    record(object, 'full', count, triangleCount, full)
    const fast = writeObjectStream(
      prefixColumns(sorted, fastCount),
      { ...meta, materialId, dataset: 'fast', fullParticleCount: count },
      options,
    )
    record(object, 'fast', fastCount, triangleCount, fast)
  }
  for (const object of output.objects) {
    if (object.kind !== 'volume_clip') continue
    const target = orders.get(object.targetObjectId)
    if (target === undefined) {
      throw invalid(`Mask ${object.objectId} targets ${object.targetObjectId}, not in this output.`)
    }
    if (object.inside.length !== target.order.length) {
      throw invalid(`Mask ${object.objectId} does not have one entry per target particle.`)
    }
    const inside = applyOrder(object.inside, target.order)
    const meta = {
      ...base,
      objectId: object.objectId,
      objectKind: object.kind,
      materialId: object.materialId ?? null,
      targetObjectId: object.targetObjectId,
      fullParticleCount: inside.length,
    }
    const options = { order: 'presorted' } as const
    const full = writeObjectStream({ inside }, { ...meta, dataset: 'full' }, options)
    record(object, 'full', inside.length, 0, full)
    const fastInside = inside.subarray(0, target.fastCount)
    const fast = writeObjectStream({ inside: fastInside }, { ...meta, dataset: 'fast' }, options)
    record(object, 'fast', fastInside.length, 0, fast)
  }
  return written
}

/** One object's bytes and the header fields that describe them. */
export interface BundleEntryInput extends Omit<BundleEntryDescription, 'byteLength'> {
  bytes: Uint8Array
}

/**
 * Concatenates object streams into one bundle: the `DIVB` header, then each payload at an 8-byte
 * aligned offset (zero padding between), so a reader views every column without copying.
 */
export function writeBundle(entries: readonly BundleEntryInput[]): Uint8Array {
  const layout = encodeBundleHeader(
    entries.map((entry) => ({
      objectId: entry.objectId,
      kind: entry.kind,
      dataset: entry.dataset,
      outputNo: entry.outputNo,
      byteLength: entry.bytes.length,
    })),
  )
  const bundle = new Uint8Array(layout.totalByteLength)
  bundle.set(layout.header, 0)
  layout.entries.forEach((location, index) => {
    bundle.set(entries[index]!.bytes, location.byteOffset)
  })
  return bundle
}
