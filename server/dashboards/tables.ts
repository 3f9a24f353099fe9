import type { Generated, Selectable } from 'kysely'

/* The tables of migration 0010_dashboards (migration.ts), part of db/schema.ts Database. */

/** A view of a simulation's dashboard; is_default 1 on exactly one view per simulation. */
export interface DashboardViewsTable {
  id: Generated<number>
  simulation_id: number
  name: string
  /** The name trimmed and in lower case: unique within the simulation. */
  name_key: string
  is_default: Generated<number>
  created_at: string
  updated_at: string
}

/** A tile of a view; settings is JSON { graph?, text?, imageId? } as its type has them. */
export interface DashboardTilesTable {
  id: Generated<number>
  view_id: number
  type: string
  x: number
  y: number
  w: number
  h: number
  settings: Generated<string>
  created_at: string
  updated_at: string
}

/** A template of an organization: JSON TileSeed[]. */
export interface DashboardTemplatesTable {
  id: Generated<number>
  organization_id: number
  creator_id: number
  name: string
  name_key: string
  tiles: string
  created_at: string
  updated_at: string
}

/** A variable of a simulation. */
export interface DashboardVariablesTable {
  id: Generated<number>
  simulation_id: number
  name: string
  name_key: string
  value: string
  unit: Generated<string>
  created_at: string
  updated_at: string
}

/** A graph uploaded to a simulation's dashboard; points is JSON { x: number[], y: number[] }. */
export interface DashboardGraphsTable {
  id: Generated<number>
  simulation_id: number
  name: string
  x_label: string
  y_label: string
  points: string
  created_at: string
  updated_at: string
}

export type DashboardViewRow = Selectable<DashboardViewsTable>
export type DashboardTileRow = Selectable<DashboardTilesTable>
export type DashboardTemplateRow = Selectable<DashboardTemplatesTable>
export type DashboardVariableRow = Selectable<DashboardVariablesTable>
export type DashboardGraphRow = Selectable<DashboardGraphsTable>
