import type { Generated } from 'kysely'

/*
 * The tables of migration 0007_assemblies (migration.ts), part of db/schema.ts Database. The
 * reading of a file and its tessellation runs are rows of `jobs` (kinds 'assembly', 'tessellation').
 */

/** An uploaded CAD (STEP) file; its reading is the `jobs` row import_job_id (kind 'assembly'). */
export interface AssembliesTable {
  id: Generated<number>
  simulation_id: number
  uploader_id: number | null
  filename: string
  /** The STEP file as uploaded, relative to the data directory. */
  stored_path: string
  size_bytes: Generated<number>
  import_job_id: number | null
  latest_tessellation_job_id: number | null
  /** JSON AssemblyNode[] once the file is read, else null. */
  tree: string | null
  /** JSON NodeFacts (cadTree.ts): the meshes under each tree node and their bounding box. */
  node_facts: Generated<string>
  created_at: string
  updated_at: string
}

/** A part the import wizard groups from tree nodes; setup_part_id is the setup part made of it. */
export interface AssemblyPartsTable {
  id: Generated<number>
  assembly_id: number
  name: string
  /** JSON string[] of tree entry ids. */
  node_ids: string
  /** A ComponentType. */
  component_type: string
  /** JSON MeshingParameters. */
  meshing_parameters: string
  setup_part_id: number | null
  /** The nodes and meshing parameters of the last tessellation (JSON); null before the first. */
  tessellated_key: string | null
  /** Triangles of the last tessellation. */
  triangle_count: number | null
  /** JSON TessellationWarning[] of the last tessellation. */
  warnings: Generated<string>
  created_at: string
  updated_at: string
}
