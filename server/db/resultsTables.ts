import type { Generated } from 'kysely'
import type { Flag } from './schema.ts'

/* Tables of meshes, sensors, volume clips and user exports (split from schema.ts). */

/** A mesh of a sensor, volume clip or refinement (domain/meshes.ts Mesh, stored as JSON). */
export interface MeshesTable {
  id: Generated<number>
  simulation_id: number
  /** A MeshKind. */
  kind: string
  /** JSON Mesh without id and nbrOfTriangles. */
  definition: string
  nbr_of_triangles: number | null
  created_at: string
  updated_at: string
}

/** A point sensor (position) or surface sensor (mesh_id). */
export interface SensorsTable {
  id: Generated<number>
  simulation_id: number
  name: string
  /** 'point' or 'surface'. */
  kind: string
  /** JSON LooseVec3 of a point sensor. */
  position: string | null
  mesh_id: number | null
  /** JSON { visibility }. */
  appearance: string
  /** 'every_step', a rate per second of simulated time as text, or null: from outputs only. */
  sample_rate: string | null
  created_at: string
  updated_at: string
}

/** A volume clip: a mesh that masks the particles of one material (or all). */
export interface VolumeClipsTable {
  id: Generated<number>
  simulation_id: number
  name: string
  mesh_id: number | null
  material_id: number | null
  inverted: Generated<Flag>
  /** JSON Appearance. */
  appearance: string
  created_at: string
  updated_at: string
}

/** The sensor state ('pending', 'ready', 'failed') of one output of a run; absent = pending. */
export interface SensorOutputStatesTable {
  simulation_id: number
  run_id: number
  output_no: number
  state: string
  updated_at: string
}

/** A user export (server/exports/); one live export per simulation, a new one replaces it. */
export interface UserExportsTable {
  id: Generated<number>
  simulation_id: number
  name: string
  /** A JobState: scheduled, running, completed, canceled, failed, expired. */
  state: string
  progress: Generated<number>
  /** JSON ExportRequest. */
  request: string
  /** JSON ExportError[]. */
  errors: Generated<string>
  warnings: Generated<string>
  /** Export directory relative to the data directory. */
  directory: string
  expires_at: string | null
  ended_at: string | null
  created_at: string
  updated_at: string
}

/** One completely written file of a user export (listed only after its rename into place). */
export interface UserExportFilesTable {
  id: Generated<number>
  export_id: number
  simulation_id: number
  filename: string
  /** Path relative to the export directory. */
  path: string
  size_bytes: number
  /** 'created': downloadable. */
  state: string
  created_at: string
}
