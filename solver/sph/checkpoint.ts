/**
 * Checkpoint bytes: magic, version, a JSON header, then the persistent particle arrays in sorted
 * order (so that a restored run continues with bit-identical numbers).
 *
 *   0  'DIVESPH\0'   8  u32 version   12 u32 header bytes   16 header JSON (padded to 8)
 *   then each PERSISTENT_FLOAT_FIELDS array (count × f64), PERSISTENT_INT_FIELDS (count × i32),
 *   PERSISTENT_BYTE_FIELDS (count × u8), each padded to 8 bytes.
 */
import type { SphConstants } from './config.ts'
import type { ParticleArrays } from './particles.ts'
import {
  PERSISTENT_BYTE_FIELDS,
  PERSISTENT_FLOAT_FIELDS,
  PERSISTENT_INT_FIELDS,
} from './particles.ts'

export const CHECKPOINT_MAGIC = 'DIVESPH\0'
// 2: the temperature joined the persistent fields (thermodynamics)
// 3: each fluid particle's phase (multiphase) joined the persistent byte fields
// 4: each particle's smoothing length (variable resolution, refinement zones) joined the floats
export const CHECKPOINT_VERSION = 4

/**
 * The persistent fields a checkpoint of `version` holds: older versions lack the fields added
 * since, so runs stopped before an upgrade still resume (their setups had neither thermodynamics
 * nor multiphase nor refinement, which were refused then).
 */
function storedFields(version: number) {
  return {
    floats: PERSISTENT_FLOAT_FIELDS.filter(
      (field) => (version >= 2 || field !== 'temp') && (version >= 4 || field !== 'hsml'),
    ),
    ints: PERSISTENT_INT_FIELDS,
    bytes: PERSISTENT_BYTE_FIELDS.filter((field) => version >= 3 || field !== 'phase'),
  }
}

/** Everything besides the particle arrays a run needs to continue. */
export interface CheckpointHeader {
  count: number
  timeS: number
  step: number
  /** The fixed time step (static time stepping), or null. */
  fixedDtS: number | null
  deletedOutside: number
  deletedInvalid: number
  /** Numbers that must match the solver a checkpoint is restored into. */
  fingerprint: Record<string, number>
  referenceBox: { min: [number, number, number]; max: [number, number, number] }
}

const pad8 = (n: number) => (n + 7) & ~7

export function encodeCheckpoint(header: CheckpointHeader, arrays: ParticleArrays): Uint8Array {
  const count = header.count
  const layout = allocateCheckpoint(header)
  for (const field of PERSISTENT_FLOAT_FIELDS)
    layout.floats[field].set(arrays[field].subarray(0, count))
  for (const field of PERSISTENT_INT_FIELDS)
    layout.ints[field].set(arrays[field].subarray(0, count))
  for (const field of PERSISTENT_BYTE_FIELDS)
    layout.bytes[field].set(arrays[field].subarray(0, count))
  return layout.buffer
}

/** Checkpoint bytes with the header written, and a view of each persistent array to fill. */
export interface CheckpointLayout {
  buffer: Uint8Array
  floats: Record<(typeof PERSISTENT_FLOAT_FIELDS)[number], Float64Array>
  ints: Record<(typeof PERSISTENT_INT_FIELDS)[number], Int32Array>
  bytes: Record<(typeof PERSISTENT_BYTE_FIELDS)[number], Uint8Array>
}

/**
 * The bytes of a checkpoint of `header.count` particles (this version's layout), the header in
 * place: a backend that holds its particles elsewhere (the GPU) fills the views directly.
 */
export function allocateCheckpoint(header: CheckpointHeader): CheckpointLayout {
  const json = new TextEncoder().encode(JSON.stringify(header))
  const count = header.count
  let size = 16 + pad8(json.length)
  size += PERSISTENT_FLOAT_FIELDS.length * count * 8
  size += PERSISTENT_INT_FIELDS.length * pad8(count * 4)
  size += PERSISTENT_BYTE_FIELDS.length * pad8(count)
  const buffer = new Uint8Array(size)
  const view = new DataView(buffer.buffer)
  for (let k = 0; k < 8; k++) buffer[k] = CHECKPOINT_MAGIC.charCodeAt(k)
  view.setUint32(8, CHECKPOINT_VERSION, true)
  view.setUint32(12, json.length, true)
  buffer.set(json, 16)
  let offset = 16 + pad8(json.length)
  const take = <T>(make: (at: number) => T, bytes: number): T => {
    const made = make(offset)
    offset += bytes
    return made
  }
  const floats = Object.fromEntries(
    PERSISTENT_FLOAT_FIELDS.map((f) => [
      f,
      take((at) => new Float64Array(buffer.buffer, at, count), count * 8),
    ]),
  ) as CheckpointLayout['floats']
  const ints = Object.fromEntries(
    PERSISTENT_INT_FIELDS.map((f) => [
      f,
      take((at) => new Int32Array(buffer.buffer, at, count), pad8(count * 4)),
    ]),
  ) as CheckpointLayout['ints']
  const bytes = Object.fromEntries(
    PERSISTENT_BYTE_FIELDS.map((f) => [
      f,
      take((at) => new Uint8Array(buffer.buffer, at, count), pad8(count)),
    ]),
  ) as CheckpointLayout['bytes']
  return { buffer, floats, ints, bytes }
}

/** Reads the header of checkpoint bytes (throws on a foreign or newer format). */
export function decodeCheckpointHeader(input: Uint8Array): CheckpointHeader {
  if (input.length < 16) throw new Error('Not a solver checkpoint: too short.')
  for (let k = 0; k < 8; k++)
    if (input[k] !== CHECKPOINT_MAGIC.charCodeAt(k)) throw new Error('Not a solver checkpoint.')
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength)
  const version = view.getUint32(8, true)
  if (version < 1 || version > CHECKPOINT_VERSION)
    throw new Error(
      `Checkpoint version ${version} is not supported (this solver reads versions 1 to ${CHECKPOINT_VERSION}).`,
    )
  const length = view.getUint32(12, true)
  return JSON.parse(new TextDecoder().decode(input.subarray(16, 16 + length))) as CheckpointHeader
}

/** Copies the particle arrays of checkpoint bytes into `arrays` (capacity checked by the caller). */
export function decodeCheckpointArrays(
  input: Uint8Array,
  header: CheckpointHeader,
  arrays: ParticleArrays,
): void {
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice()
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const count = header.count
  const fields = storedFields(view.getUint32(8, true))
  let offset = bytes.byteOffset + 16 + pad8(view.getUint32(12, true))
  const expected =
    offset -
    bytes.byteOffset +
    fields.floats.length * count * 8 +
    fields.ints.length * pad8(count * 4) +
    fields.bytes.length * pad8(count)
  if (bytes.byteLength < expected) throw new Error('Checkpoint is truncated.')
  for (const field of fields.floats) {
    arrays[field].set(new Float64Array(bytes.buffer, offset, count))
    offset += count * 8
  }
  for (const field of fields.ints) {
    arrays[field].set(new Int32Array(bytes.buffer, offset, count))
    offset += pad8(count * 4)
  }
  for (const field of fields.bytes) {
    arrays[field].set(new Uint8Array(bytes.buffer, offset, count))
    offset += pad8(count)
  }
  // fields an older version lacks: one temperature (the solver's start, uniform without
  // thermodynamics), the single fluid's phase 0 and one smoothing length (uniform resolution)
  if (!fields.floats.includes('temp')) arrays.temp.fill(arrays.temp[0] ?? 0, 0, count)
  if (!fields.floats.includes('hsml')) arrays.hsml.fill(arrays.hsml[0] ?? 0, 0, count)
  if (!fields.bytes.includes('phase')) arrays.phase.fill(0, 0, count)
}

/** What a checkpoint must match to be restored into a solver: its constants, capacity, parts. */
export function solverFingerprint(
  k: SphConstants,
  capacity: number,
  partCount: number,
): Record<string, number> {
  return {
    h: k.h,
    speedOfSound: k.speedOfSound,
    referenceDensity: k.referenceDensity,
    particleMass: k.particleMass,
    periodY: k.periodY,
    capacity,
    parts: partCount,
  }
}

/** Throws when a checkpoint header does not match a solver's fingerprint or capacity. */
export function checkFingerprint(
  header: CheckpointHeader,
  expected: Record<string, number>,
  capacity: number,
): void {
  for (const [key, value] of Object.entries(expected)) {
    // checkpoints written before periodic runs existed have no period: not periodic
    const stored = header.fingerprint[key] ?? (key === 'periodY' ? 0 : undefined)
    if (stored !== value)
      throw new Error(`Checkpoint does not match this solver (${key}: ${stored} ≠ ${value}).`)
  }
  if (header.count > capacity) throw new Error('Checkpoint holds more particles than this solver.')
}
