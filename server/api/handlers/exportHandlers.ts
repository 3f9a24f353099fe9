import type { EXPORT_ROUTES } from '../../../domain/rest/exportRoutes.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'
import {
  checkExportRequest,
  isAttributeName,
  unknownAttributeMessage,
} from '../../../domain/results.ts'
import { exportRunnerFor } from '../../exports/exportRegistry.ts'
import { listOutputManifests, resolveRunId } from '../../results/outputFiles.ts'
import { assertStorageAvailable } from '../../storage/usage.ts'
import { ApiError } from '../apiError.ts'
import { findAccessibleSimulation } from '../access.ts'
import type { AreaHandlers } from '../context.ts'

/** The body names another simulation than the path. */
export const EXPORT_SIMULATION_MISMATCH = 'simulationId must be the simulation of the path'

/** Handlers of EXPORT_ROUTES, one per route. */
export const exportHandlers: AreaHandlers<typeof EXPORT_ROUTES> = {
  async startUserExport({ params, body }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    if (body.simulationId !== simulation.id)
      throw new ApiError('validation_error', EXPORT_SIMULATION_MISMATCH, [
        { path: 'simulationId', message: EXPORT_SIMULATION_MISMATCH },
      ])
    const unknown = body.attributes.find((name) => !isAttributeName(name))
    if (unknown !== undefined) {
      const message = unknownAttributeMessage(unknown)
      throw new ApiError('validation_error', message, [{ path: 'attributes', message }])
    }
    const runId = await resolveRunId(context.dataDir, simulation)
    const manifests: OutputManifestInfo[] =
      runId === null ? [] : await listOutputManifests(context.dataDir, simulation.id, runId)
    const fluidMaterialIds = [
      ...new Set(
        manifests.flatMap((m) =>
          m.objects.filter((o) => o.kind === 'fluid').map((o) => o.sourceId),
        ),
      ),
    ]
    const errors = checkExportRequest(body, {
      availableOutputs: manifests.map((m) => m.outputNo),
      fluidMaterialIds,
    }).filter((issue) => issue.level === 'error')
    if (errors.length > 0)
      throw new ApiError(
        'validation_error',
        errors[0]!.message,
        errors.map((issue) => ({ path: issue.field, message: issue.message })),
      )
    let sensorQuery = context.db
      .selectFrom('sensors')
      .select(['id', 'name'])
      .where('simulation_id', '=', simulation.id)
    if (!body.allObjects) sensorQuery = sensorQuery.where('id', 'in', [0, ...body.sensors])
    const sensors = await sensorQuery.orderBy('id').execute()
    // An export writes files: refused while the organization's storage is full.
    await assertStorageAvailable(context.db, simulation.organization_id, 0)
    return exportRunnerFor(context.db).startExport(simulation, runId, manifests, body, sensors)
  },

  async getUserExport({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return { export: await exportRunnerFor(context.db).readExport(simulation.id) }
  },

  async cancelUserExport({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    return { export: await exportRunnerFor(context.db).cancelExport(simulation.id) }
  },
}
