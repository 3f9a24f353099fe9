import type { Generated, Kysely, Selectable } from 'kysely'
import type { Database } from '../db/schema.ts'

/* The table of migration 0016_compressions (migration.ts). */

/** The latest compressed archive of a simulation (one row per simulation at most). */
export interface SimulationCompressionsTable {
  id: Generated<number>
  simulation_id: number
  creator_id: number
  state: string
  progress: Generated<number>
  filename: string
  /** The archive, relative to the data directory; written as `{path}.partial` until complete. */
  path: string
  input_bytes: Generated<number>
  size_bytes: Generated<number>
  file_count: Generated<number>
  error: string | null
  created_at: string
  updated_at: string
  ended_at: string | null
}

export type SimulationCompressionRow = Selectable<SimulationCompressionsTable>

/** The database with the compression table (kept beside db/schema.ts's Database). */
export type CompressionDatabase = Database & {
  simulation_compressions: SimulationCompressionsTable
}

/** The same handle, typed with the compression table. */
export function withCompressions(db: Kysely<Database>): Kysely<CompressionDatabase> {
  return db.withTables<{ simulation_compressions: SimulationCompressionsTable }>()
}
