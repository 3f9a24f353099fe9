import type { Generated } from 'kysely'

/* Tables of the setup objects of issue 16: refinement zones, the air drag domain, periodic boundaries. */

/** A refinement zone (domain/meshes.ts Refinement): a mesh and a level. */
export interface RefinementsTable {
  id: Generated<number>
  simulation_id: number
  name: string
  /** 'chiron'. */
  kind: string
  level: number | null
  mesh_id: number | null
  /** JSON Appearance. */
  appearance: string
  created_at: string
  updated_at: string
}

/** The air drag domain of a simulation (one at most; domain/airDrag.ts AirDragDomain without id, as JSON). */
export interface AirDragDomainsTable {
  id: Generated<number>
  simulation_id: number
  definition: string
  created_at: string
  updated_at: string
}

/** A periodic boundary (domain/periodic.ts PeriodicBoundary without id, as JSON). */
export interface PeriodicsTable {
  id: Generated<number>
  simulation_id: number
  definition: string
  created_at: string
  updated_at: string
}
