import type { VIEWPORT_ROUTES } from '../../../domain/rest/viewportRoutes.ts'
import { deleteViewportState, readViewportState, writeViewportState } from '../../viewport/store.ts'
import { findAccessibleSimulation } from '../access.ts'
import type { AreaHandlers } from '../context.ts'

/** Handlers of VIEWPORT_ROUTES: pre (setup) and post (results) viewport states. */
export const viewportHandlers: AreaHandlers<typeof VIEWPORT_ROUTES> = {
  async getViewportState({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return readViewportState(context.db, simulation.id, 'pre')
  },
  async updateViewportState({ params, body }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return writeViewportState(context.db, simulation.id, 'pre', body, context.clock.nowIso())
  },
  async deleteViewportState({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return deleteViewportState(context.db, simulation.id, 'pre')
  },
  async getRunViewportState({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return readViewportState(context.db, simulation.id, 'post')
  },
  async updateRunViewportState({ params, body }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return writeViewportState(context.db, simulation.id, 'post', body, context.clock.nowIso())
  },
  async deleteRunViewportState({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return deleteViewportState(context.db, simulation.id, 'post')
  },
}
