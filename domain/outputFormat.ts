/**
 * The output format: the contract between the solver (writes), the results server (bundles) and the
 * engine (reads without copying). One output = one time step; it holds one Apache Arrow IPC stream
 * per object and dataset. Full description with byte layouts: docs/output-format.md.
 *
 * This module is the vocabulary (versions, kinds, datasets, columns, units, metadata keys, errors)
 * and the bundle header codec. The Arrow writer and reader live in domain/output/. Datasets, the
 * attribute catalogue, units and detail levels are the ones of results.ts, units.ts, constants.ts.
 */
import { DETAIL_LEVELS, INTERACTION_SUBSET_POINTS } from './constants.ts'
import { ATTRIBUTES, type AttributeName, type Dataset, type OutputObjectKind } from './results.ts'
import { QUANTITIES } from './units.ts'

/**
 * Major format version. Readers refuse a stream or bundle whose major is newer than theirs
 * (`unsupported_version`); a new major is needed for any change an old reader would misread.
 */
export const FORMAT_VERSION = 1
/**
 * Minor format version. Minor bumps only add things old readers may ignore: optional Float32
 * columns, optional metadata keys. Readers accept any minor of a major they know.
 */
export const FORMAT_MINOR_VERSION = 0

/** A format version as written in metadata (`"1.0"`) and in the bundle header (two uint16). */
export interface FormatVersion {
  major: number
  minor: number
}

/** Formats a version the way schema metadata stores it: `"major.minor"`. */
export function formatVersionString(version: FormatVersion): string {
  return `${version.major}.${version.minor}`
}

/** Parses `"major.minor"`; null when the text is not two non-negative integers. */
export function parseFormatVersion(text: string): FormatVersion | null {
  const match = /^(\d{1,5})\.(\d{1,5})$/.exec(text)
  if (!match) return null
  return { major: Number(match[1]), minor: Number(match[2]) }
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/**
 * Why bytes could not be read (or an output could not be written):
 * - `truncated`: the bytes end before the structure they announce;
 * - `corrupt`: the bytes are inconsistent (bad Arrow framing or flatbuffer, lengths that do not
 *   add up, unknown codes, more than one record batch, compressed bodies);
 * - `bad_magic`: a bundle that does not start with `DIVB`;
 * - `unsupported_version`: a major format version newer than this reader's;
 * - `missing_column`: a required column (x, y, z; `inside`; `index`) is absent;
 * - `wrong_column_type`: a column is not of its required Arrow type, or holds nulls;
 * - `invalid_metadata`: a required schema metadata key is absent or malformed;
 * - `invalid_input`: the writer was given inconsistent columns or metadata.
 */
export const OUTPUT_FORMAT_ERROR_CODES = [
  'truncated',
  'corrupt',
  'bad_magic',
  'unsupported_version',
  'missing_column',
  'wrong_column_type',
  'invalid_metadata',
  'invalid_input',
] as const
/** One reason an output could not be read or written. */
export type OutputFormatErrorCode = (typeof OUTPUT_FORMAT_ERROR_CODES)[number]

/**
 * The only error the output reader and writer throw on bad input. Readers wrap anything
 * unexpected as `corrupt`, so callers can branch on `code` alone.
 */
export class OutputFormatError extends Error {
  /** Machine-readable reason, one of {@link OUTPUT_FORMAT_ERROR_CODES}. */
  readonly code: OutputFormatErrorCode

  constructor(code: OutputFormatErrorCode, message: string) {
    super(message)
    this.name = 'OutputFormatError'
    this.code = code
  }
}

// ---------------------------------------------------------------------------------------------
// Objects, datasets, stream parts
// ---------------------------------------------------------------------------------------------

/**
 * Object kinds with data in the format (of results.ts OUTPUT_OBJECT_KINDS): a `fluid` is one
 * material's particles (the spec's "material" objects are these), a `volume_clip` is a mask over
 * one fluid. Sensors and air drag are not particle data and have no streams.
 */
export const FORMAT_OBJECT_KINDS = [
  'fluid',
  'wall_boundary',
  'open_boundary',
  'volume_clip',
] as const satisfies readonly OutputObjectKind[]
/** One object kind with data in the format. */
export type FormatObjectKind = (typeof FORMAT_OBJECT_KINDS)[number]

/** Object kinds whose primary stream is a particle table (x, y, z, attributes). */
export const PARTICLE_OBJECT_KINDS = ['fluid', 'wall_boundary', 'open_boundary'] as const
/** One object kind stored as particles. */
export type ParticleObjectKind = (typeof PARTICLE_OBJECT_KINDS)[number]

/**
 * Written datasets (of results.ts DATASETS): version 1 writes `full` (every particle) and `fast` (a prefix of
 * the same spatially stratified order, see {@link fastParticleCount}). `raw` names the data
 * statistics run on (`stats.calc` asks for it; in version 1 it is the `full` bytes); `surface`
 * (reconstructed free surfaces) and `static` (objects that do not change between outputs) have
 * bundle codes but are not written yet. These are the datasets a writer produces for every output.
 */
export const WRITTEN_DATASETS = ['full', 'fast'] as const satisfies readonly Dataset[]
/** One dataset the writer produces. */
export type WrittenDataset = (typeof WRITTEN_DATASETS)[number]

/**
 * What one Arrow stream inside an object's bytes holds (schema metadata `dive.part`). An object's
 * bytes are one to three streams back to back: the primary stream (`particles` or `mask`) and, for
 * an object with a triangle mesh, `mesh_vertices` then `mesh_indices`.
 */
export const STREAM_PARTS = ['particles', 'mask', 'mesh_vertices', 'mesh_indices'] as const
/** What one Arrow stream of an object payload holds. */
export type StreamPart = (typeof STREAM_PARTS)[number]

/**
 * Row orders: `stratified` means every prefix of the rows covers the object's space uniformly (so
 * detail levels and the fast dataset are prefixes); `as_given` promises nothing.
 */
export const ROW_ORDERINGS = ['stratified', 'as_given'] as const
/** One row order promise. */
export type RowOrdering = (typeof ROW_ORDERINGS)[number]

// ---------------------------------------------------------------------------------------------
// Columns, quantities, units
// ---------------------------------------------------------------------------------------------

/**
 * Float32 columns of each attribute of the catalogue (results.ts ATTRIBUTES): scalars are one
 * column named like the attribute; vectors one column per component: position x, y, z; velocity
 * vx, vy, vz; acceleration ax, ay, az; other vectors `<attribute>_x|_y|_z`. The SPH solver writes
 * position, velocity, pressure, density and mass for every fluid particle; the others are optional.
 * Material-dependent attributes (wetting) have one column in version 1.
 */
export const ATTRIBUTE_COLUMNS = {
  position: ['x', 'y', 'z'],
  velocity: ['vx', 'vy', 'vz'],
  pressure: ['pressure'],
  density: ['density'],
  mass: ['mass'],
  acceleration: ['ax', 'ay', 'az'],
  temperature: ['temperature'],
  heat_flux: ['heat_flux'],
  kinematic_viscosity: ['kinematic_viscosity'],
  mass_flux: ['mass_flux'],
  normal_stress: ['normal_stress'],
  shear_stress: ['shear_stress_x', 'shear_stress_y', 'shear_stress_z'],
  combined_stress: ['combined_stress_x', 'combined_stress_y', 'combined_stress_z'],
  power_density: ['power_density'],
  shear_rate: ['shear_rate'],
  volume: ['volume'],
  volume_flux: ['volume_flux'],
  shepard_summation: ['shepard_summation'],
  wetting: ['wetting'],
} as const satisfies Record<AttributeName, readonly string[]>

/**
 * Every known Float32 column in schema order (position first, then ATTRIBUTE_COLUMNS order), with
 * its attribute and stored unit: the SI unit of the attribute's quantity (units.ts QUANTITIES,
 * spec/results.md §3), '' for dimensionless ones. Values are stored in SI; only display converts
 * (volume: m³ stored, liters shown).
 */
export const COLUMN_UNITS: ReadonlyMap<string, { attribute: AttributeName; unit: string }> =
  new Map(
    (Object.entries(ATTRIBUTE_COLUMNS) as [AttributeName, readonly string[]][]).flatMap(
      ([attribute, columns]) =>
        columns.map((column) => [
          column,
          { attribute, unit: QUANTITIES[ATTRIBUTES[attribute].quantity].siUnit },
        ]),
    ),
  )

/** Position columns, required in every particle and mesh-vertex stream. */
export const POSITION_COLUMNS = ['x', 'y', 'z'] as const

/** The columns the SPH solver writes for every fluid particle, in schema order. */
export const SPH_PARTICLE_COLUMNS = [
  'x',
  'y',
  'z',
  'vx',
  'vy',
  'vz',
  'pressure',
  'density',
  'mass',
] as const

/** Column of a `mask` stream: Uint8, 1 where the target fluid's particle is inside the clip. */
export const MASK_COLUMN = 'inside'
/** Column of a `mesh_indices` stream: Uint32, three vertex indices per triangle. */
export const MESH_INDEX_COLUMN = 'index'

// ---------------------------------------------------------------------------------------------
// Metadata keys
// ---------------------------------------------------------------------------------------------

/**
 * Schema-level metadata keys (Arrow custom metadata; every value is a string). Numbers are written
 * with `String(n)`; a null id is the empty string.
 */
export const SCHEMA_METADATA_KEYS = {
  /** `"major.minor"`, e.g. `"1.0"`. */
  formatVersion: 'dive.format_version',
  /** Which part of the object this stream is: a {@link StreamPart}. */
  part: 'dive.part',
  simulationId: 'dive.simulation_id',
  /** Run id, empty when unknown. */
  runId: 'dive.run_id',
  outputNo: 'dive.output_no',
  /** Simulated time of the output in seconds. */
  timeS: 'dive.time_s',
  objectId: 'dive.object_id',
  objectKind: 'dive.object_kind',
  /** Material id of a fluid or of a mask's fluid, empty otherwise. */
  materialId: 'dive.material_id',
  /** Rows of the primary stream (particles, or mask entries). */
  particleCount: 'dive.particle_count',
  /** Rows of the same object in the `full` dataset (equals particleCount there). */
  fullParticleCount: 'dive.full_particle_count',
  dataset: 'dive.dataset',
  /** A {@link RowOrdering}. */
  ordering: 'dive.ordering',
  /** How many Arrow streams the object's bytes hold (1, or 3 with a mesh). Primary stream only. */
  streamCount: 'dive.stream_count',
  /** For a mask: the object id of the fluid it is aligned with. */
  targetObjectId: 'dive.target_object_id',
  /** For mesh streams: the number of triangles. */
  triangleCount: 'dive.triangle_count',
} as const

/**
 * Per-field metadata keys. `min` and `max` are computed over the finite values only (NaN and
 * ±Infinity ignored) and absent when a column has no finite value; `unit` is the stored unit.
 */
export const FIELD_METADATA_KEYS = {
  min: 'dive.min',
  max: 'dive.max',
  unit: 'dive.unit',
} as const

/** Smallest and largest finite value of a column. */
export interface ValueRange {
  min: number
  max: number
}

/** Everything the primary stream's schema metadata says about an object in one output. */
export interface ObjectMeta {
  formatVersion: FormatVersion
  simulationId: number
  runId: number | null
  outputNo: number
  timeS: number
  objectId: string
  objectKind: FormatObjectKind
  materialId: number | null
  dataset: Dataset
  particleCount: number
  fullParticleCount: number
  ordering: RowOrdering
  streamCount: number
  targetObjectId: string | null
}

// ---------------------------------------------------------------------------------------------
// Detail levels and the fast dataset
// ---------------------------------------------------------------------------------------------

/** The fast dataset keeps at least this many particles: enough for the interaction subset. */
export const FAST_DATASET_MIN_PARTICLES = INTERACTION_SUBSET_POINTS
/** The fast dataset keeps at least this fraction of an object's particles: the Low detail level. */
export const FAST_DATASET_FRACTION = DETAIL_LEVELS.Low ?? 0.1

/**
 * Rows to read for a detail level (constants.ts DETAIL_LEVELS: a fraction, null for All): because
 * rows are stored in a stratified order, a detail level is the first ceil(count × fraction) rows.
 */
export function prefixLength(count: number, fraction: number | null): number {
  if (fraction === null) return count
  return Math.min(count, Math.ceil(count * fraction))
}

/**
 * Particles an object keeps in the fast dataset: min(count, max(100,000, ceil(10 % of count))), so
 * the fast dataset can serve both the interaction subset and the Low detail level.
 */
export function fastParticleCount(count: number): number {
  return Math.min(
    count,
    Math.max(FAST_DATASET_MIN_PARTICLES, Math.ceil(count * FAST_DATASET_FRACTION)),
  )
}

// ---------------------------------------------------------------------------------------------
// Bundle header
// ---------------------------------------------------------------------------------------------

/** The four bytes a bundle starts with. */
export const BUNDLE_MAGIC = 'DIVB'
/** Every payload (and the header's end) starts at a multiple of this, so columns view in place. */
export const BUNDLE_ALIGNMENT = 8
/** Bytes before the first entry: magic, major, minor, entry count, header length. */
export const BUNDLE_PREAMBLE_BYTES = 16
/** Fixed bytes of one entry, before its UTF-8 object id and padding. */
export const BUNDLE_ENTRY_FIXED_BYTES = 24

/** Object kind codes in the bundle header (0 is never valid, so zeroed bytes are caught). */
export const OBJECT_KIND_CODES = {
  fluid: 1,
  wall_boundary: 2,
  open_boundary: 3,
  volume_clip: 4,
} as const satisfies Record<FormatObjectKind, number>

/** Dataset codes in the bundle header. */
export const DATASET_CODES = {
  full: 1,
  fast: 2,
  surface: 3,
  raw: 4,
  static: 5,
} as const satisfies Record<Dataset, number>

/** Where one object's bytes lie in a bundle, and what they are. */
export interface BundleEntryLocation {
  objectId: string
  kind: FormatObjectKind
  dataset: Dataset
  outputNo: number
  /** From the start of the bundle; a multiple of {@link BUNDLE_ALIGNMENT}. */
  byteOffset: number
  byteLength: number
}

/** What a header needs to know about an entry before the offsets are laid out. */
export type BundleEntryDescription = Omit<BundleEntryLocation, 'byteOffset'>

/** A decoded bundle header. */
export interface BundleHeader {
  version: FormatVersion
  /** Bytes of the header; the first payload starts here. */
  headerByteLength: number
  entries: BundleEntryLocation[]
}

/** Rounds up to the bundle alignment. */
export function alignBundleOffset(offset: number): number {
  return Math.ceil(offset / BUNDLE_ALIGNMENT) * BUNDLE_ALIGNMENT
}

const MAX_OBJECT_ID_BYTES = 0xffff

/**
 * Lays out a bundle: the header bytes and each payload's aligned offset. Payloads follow the
 * header in entry order, each padded with zeros to the next multiple of 8. A server can write the
 * header and then stream the payloads without ever concatenating them.
 */
export function encodeBundleHeader(entries: readonly BundleEntryDescription[]): {
  header: Uint8Array
  entries: BundleEntryLocation[]
  totalByteLength: number
} {
  const encoder = new TextEncoder()
  const ids = entries.map((entry) => encoder.encode(entry.objectId))
  let headerByteLength = BUNDLE_PREAMBLE_BYTES
  for (const id of ids) {
    if (id.length > MAX_OBJECT_ID_BYTES) {
      throw new OutputFormatError('invalid_input', 'An object id is longer than 65535 bytes.')
    }
    headerByteLength = alignBundleOffset(headerByteLength + BUNDLE_ENTRY_FIXED_BYTES + id.length)
  }
  const header = new Uint8Array(headerByteLength)
  const view = new DataView(header.buffer)
  header.set(encoder.encode(BUNDLE_MAGIC), 0)
  view.setUint16(4, FORMAT_VERSION, true)
  view.setUint16(6, FORMAT_MINOR_VERSION, true)
  view.setUint32(8, entries.length, true)
  view.setUint32(12, headerByteLength, true)
  const located: BundleEntryLocation[] = []
  let cursor = BUNDLE_PREAMBLE_BYTES
  let payloadOffset = headerByteLength
  entries.forEach((entry, index) => {
    const id = ids[index] ?? new Uint8Array(0)
    if (!Number.isInteger(entry.outputNo) || entry.outputNo < 0 || entry.outputNo > 0xffffffff) {
      throw new OutputFormatError('invalid_input', `Output number ${entry.outputNo} is invalid.`)
    }
    if (!Number.isSafeInteger(entry.byteLength) || entry.byteLength < 0) {
      throw new OutputFormatError('invalid_input', `Byte length ${entry.byteLength} is invalid.`)
    }
    view.setBigUint64(cursor, BigInt(payloadOffset), true)
    view.setBigUint64(cursor + 8, BigInt(entry.byteLength), true)
    view.setUint32(cursor + 16, entry.outputNo, true)
    view.setUint8(cursor + 20, OBJECT_KIND_CODES[entry.kind])
    view.setUint8(cursor + 21, DATASET_CODES[entry.dataset])
    view.setUint16(cursor + 22, id.length, true)
    header.set(id, cursor + BUNDLE_ENTRY_FIXED_BYTES)
    cursor = alignBundleOffset(cursor + BUNDLE_ENTRY_FIXED_BYTES + id.length)
    located.push({ ...entry, byteOffset: payloadOffset })
    payloadOffset = alignBundleOffset(payloadOffset + entry.byteLength)
  })
  const last = located.at(-1)
  const totalByteLength = last ? last.byteOffset + last.byteLength : headerByteLength
  return { header, entries: located, totalByteLength }
}

function codeToName<T extends string>(codes: Record<T, number>, code: number): T | null {
  for (const [name, value] of Object.entries(codes) as [T, number][]) {
    if (value === code) return name
  }
  return null
}

/**
 * Decodes and checks a bundle header: magic, major version, entry table, and that every payload is
 * aligned and lies inside `bytes`. Throws {@link OutputFormatError} (`bad_magic`,
 * `unsupported_version`, `truncated`, `corrupt`) and nothing else.
 */
export function decodeBundleHeader(bytes: Uint8Array): BundleHeader {
  if (bytes.length < 4) {
    throw new OutputFormatError('truncated', 'The bundle is shorter than its magic number.')
  }
  const magic = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0)
  if (magic !== BUNDLE_MAGIC) {
    throw new OutputFormatError('bad_magic', 'The bytes are not a Dive output bundle (no DIVB).')
  }
  if (bytes.length < BUNDLE_PREAMBLE_BYTES) {
    throw new OutputFormatError('truncated', 'The bundle ends inside its header.')
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = { major: view.getUint16(4, true), minor: view.getUint16(6, true) }
  if (version.major > FORMAT_VERSION || version.major < 1) {
    throw new OutputFormatError(
      'unsupported_version',
      `Bundle format ${formatVersionString(version)} is not supported (this reader knows ${FORMAT_VERSION}.x).`,
    )
  }
  const count = view.getUint32(8, true)
  const headerByteLength = view.getUint32(12, true)
  if (headerByteLength % BUNDLE_ALIGNMENT !== 0 || headerByteLength < BUNDLE_PREAMBLE_BYTES) {
    throw new OutputFormatError('corrupt', 'The bundle header length is invalid.')
  }
  if (count > (headerByteLength - BUNDLE_PREAMBLE_BYTES) / BUNDLE_ENTRY_FIXED_BYTES) {
    throw new OutputFormatError('corrupt', 'The bundle lists more entries than its header holds.')
  }
  if (headerByteLength > bytes.length) {
    throw new OutputFormatError('truncated', 'The bundle ends inside its header.')
  }
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const entries: BundleEntryLocation[] = []
  let cursor = BUNDLE_PREAMBLE_BYTES
  for (let index = 0; index < count; index++) {
    if (cursor + BUNDLE_ENTRY_FIXED_BYTES > headerByteLength) {
      throw new OutputFormatError('corrupt', 'The bundle entry table overruns its header.')
    }
    const byteOffset = view.getBigUint64(cursor, true)
    const byteLength = view.getBigUint64(cursor + 8, true)
    const outputNo = view.getUint32(cursor + 16, true)
    const kind = codeToName(OBJECT_KIND_CODES, view.getUint8(cursor + 20))
    const dataset = codeToName(DATASET_CODES, view.getUint8(cursor + 21))
    const idLength = view.getUint16(cursor + 22, true)
    const idStart = cursor + BUNDLE_ENTRY_FIXED_BYTES
    if (idStart + idLength > headerByteLength) {
      throw new OutputFormatError('corrupt', 'A bundle object id overruns the header.')
    }
    if (kind === null || dataset === null) {
      throw new OutputFormatError(
        'corrupt',
        `Bundle entry ${index} has an unknown kind or dataset.`,
      )
    }
    if (byteOffset % BigInt(BUNDLE_ALIGNMENT) !== 0n || byteOffset < BigInt(headerByteLength)) {
      throw new OutputFormatError('corrupt', `Bundle entry ${index} is not 8-byte aligned.`)
    }
    if (byteOffset + byteLength > BigInt(bytes.length)) {
      throw new OutputFormatError('truncated', `Bundle entry ${index} runs past the end.`)
    }
    let objectId: string
    try {
      objectId = decoder.decode(bytes.subarray(idStart, idStart + idLength))
    } catch {
      throw new OutputFormatError('corrupt', `Bundle entry ${index} has an invalid object id.`)
    }
    entries.push({
      objectId,
      kind,
      dataset,
      outputNo,
      byteOffset: Number(byteOffset),
      byteLength: Number(byteLength),
    })
    cursor = alignBundleOffset(idStart + idLength)
  }
  return { version, headerByteLength, entries }
}
