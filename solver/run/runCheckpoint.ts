/**
 * The checkpoint file of a run (layout.checkpointFile): the solver's checkpoint bytes behind a
 * small envelope with what the run itself must carry over a resume (output number, runtime,
 * credits). Layout: magic 'DIVERUN1', uint32 LE header length, UTF-8 JSON header, zero padding to
 * 8 bytes, then the solver checkpoint.
 */

const MAGIC = 'DIVERUN1'

/** What a resumed run continues from, besides the solver state. */
export interface RunCheckpointHeader {
  version: 1
  outputNo: number
  timeS: number
  /** Runtime of the simulation up to this checkpoint, ms. */
  runtimeMs: number
  creditsConsumed: number
  /** Condition ids that already triggered (warnings are reported once per simulation). */
  triggeredConditionIds: number[]
}

export function encodeRunCheckpoint(
  header: RunCheckpointHeader,
  solverBytes: Uint8Array,
): Uint8Array {
  const head = runCheckpointHead(header)
  const bytes = new Uint8Array(head.length + solverBytes.length)
  bytes.set(head, 0)
  bytes.set(solverBytes, head.length)
  return bytes
}

/**
 * The bytes of a run checkpoint before the solver's (magic, header, padding): written ahead of
 * them, they make the file encodeRunCheckpoint would, without copying the solver's bytes.
 */
export function runCheckpointHead(header: RunCheckpointHeader): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header))
  const headerEnd = 12 + json.length
  const bytes = new Uint8Array(Math.ceil(headerEnd / 8) * 8)
  bytes.set(new TextEncoder().encode(MAGIC), 0)
  new DataView(bytes.buffer).setUint32(8, json.length, true)
  bytes.set(json, 12)
  return bytes
}

/** Thrown for a file that is not a run checkpoint. */
export class RunCheckpointError extends Error {
  override name = 'RunCheckpointError'
}

export function decodeRunCheckpoint(bytes: Uint8Array): {
  header: RunCheckpointHeader
  solverBytes: Uint8Array
} {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC)
    throw new RunCheckpointError('Not a run checkpoint.')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const length = view.getUint32(8, true)
  if (12 + length > bytes.length) throw new RunCheckpointError('Truncated run checkpoint.')
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + length))) as
    RunCheckpointHeader | undefined
  if (header?.version !== 1) throw new RunCheckpointError('Unknown run checkpoint version.')
  const dataStart = Math.ceil((12 + length) / 8) * 8
  // a view, not a copy (1.5 M particles: 144 MiB): the solver copies only a misaligned input
  return { header, solverBytes: bytes.subarray(dataStart) }
}
