import type { RESULTS_ROUTES } from '../../../domain/rest/resultsRoutes.ts'
import { listOutputManifests, resolveRunId } from '../../results/outputFiles.ts'
import { findAccessibleSimulation } from '../access.ts'
import type { AreaHandlers } from '../context.ts'

/** Handlers of RESULTS_ROUTES, one per route. */
export const resultsHandlers: AreaHandlers<typeof RESULTS_ROUTES> = {
  async listOutputManifests({ params, query }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    const runId = query.runId ?? (await resolveRunId(context.dataDir, simulation))
    if (runId === null) return { simulationId: simulation.id, runId: null, outputs: [] }
    const outputs = await listOutputManifests(context.dataDir, simulation.id, runId)
    return { simulationId: simulation.id, runId, outputs }
  },
}
