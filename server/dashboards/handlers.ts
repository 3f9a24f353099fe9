import type { DASHBOARD_ROUTES } from '../../domain/rest/dashboardRoutes.ts'
import { buildLogGraphs } from '../../domain/logGraphs.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { readRunLog } from '../api/handlers/runHandlers.ts'
import type { AreaHandlers } from '../api/context.ts'
import { deleteGraph, listGraphs } from './graphs.ts'
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  listTemplates,
  tilesOfTemplate,
} from './templates.ts'
import { createTile, updateTile } from './tiles.ts'
import { createVariable, deleteVariable, listVariables } from './variables.ts'
import {
  createView,
  deleteView,
  findAccessibleTile,
  findAccessibleView,
  listViews,
  readView,
  toTile,
  updateView,
} from './views.ts'

/** Handlers of DASHBOARD_ROUTES (spec/results.md §7 dashboards, tiles, templates, variables, graphs). */
export const dashboardHandlers: AreaHandlers<typeof DASHBOARD_ROUTES> = {
  async listDashboards({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return listViews(context.db, simulation, context.clock.nowIso())
  },
  async createDashboard({ params, body }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    const tiles =
      body.templateId !== undefined && body.templateId !== null
        ? tilesOfTemplate(await findTemplate(context.db, context.user, body.templateId))
        : (body.tiles ?? [])
    return createView(
      context.db,
      context.user,
      simulation,
      { name: body.name, tiles, makeDefault: body.default ?? false },
      context.clock.nowIso(),
    )
  },
  async updateDashboard({ params, body }, context) {
    const { view } = await findAccessibleView(context.db, context.user, params.id)
    return updateView(context.db, view, body, context.clock.nowIso())
  },
  async deleteDashboard({ params }, context) {
    const { view } = await findAccessibleView(context.db, context.user, params.id)
    await deleteView(context.db, view)
    return { id: view.id }
  },
  async listDashboardTiles({ params }, context) {
    const { view } = await findAccessibleView(context.db, context.user, params.id)
    return (await readView(context.db, view.id)).tiles
  },
  async createDashboardTile({ params, body }, context) {
    const { view } = await findAccessibleView(context.db, context.user, params.id)
    return createTile(context.db, context.user, view, body, context.clock.nowIso())
  },
  async updateDashboardTile({ params, body }, context) {
    const { tile, simulation } = await findAccessibleTile(context.db, context.user, params.id)
    return updateTile(context.db, context.user, tile, simulation.id, body, context.clock.nowIso())
  },
  async deleteDashboardTile({ params }, context) {
    const { tile } = await findAccessibleTile(context.db, context.user, params.id)
    await context.db.deleteFrom('dashboard_tiles').where('id', '=', tile.id).execute()
    return { id: toTile(tile).id }
  },
  async listDashboardTemplates(_request, context) {
    return listTemplates(context.db, context.user)
  },
  async createDashboardTemplate({ body }, context) {
    const { view } = await findAccessibleView(context.db, context.user, body.dashboardId)
    return createTemplate(
      context.db,
      context.user,
      { name: body.name, viewId: view.id, copyCustom: body.copyCustom },
      context.clock.nowIso(),
    )
  },
  async deleteDashboardTemplate({ params }, context) {
    await deleteTemplate(context.db, context.user, params.id)
    return { id: params.id }
  },
  async listVariables({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return listVariables(context.db, simulation.id)
  },
  async createVariable({ params, body }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return createVariable(context.db, simulation.id, body, context.clock.nowIso())
  },
  async deleteVariable({ params }, context) {
    await deleteVariable(context.db, context.user, params.id)
    return { id: params.id }
  },
  async listGraphs({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return listGraphs(context.db, simulation.id)
  },
  async getLogGraphs({ params, query }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    const runId = simulation.active_run_id
    const lines = runId === null ? [] : readRunLog(context.dataDir, simulation.id, runId)
    return { runId, lineCount: lines.length, graphs: buildLogGraphs(lines, query.maxPoints) }
  },
  async deleteGraph({ params }, context) {
    await deleteGraph(context.db, context.user, params.id)
    return { id: params.id }
  },
}
