/** The output format's vocabulary: versions, errors, kinds, datasets, columns, units, metadata keys and the fast dataset (see outputFormat.ts). */
import { DETAIL_LEVELS, INTERACTION_SUBSET_POINTS } from '../constants.ts'
import { ATTRIBUTES, type AttributeName, type Dataset, type OutputObjectKind } from '../results.ts'
import { QUANTITIES } from '../units.ts'

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
