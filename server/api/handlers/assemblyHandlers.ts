import { isJobActive } from '../../../domain/jobs.ts'
import {
  NOTHING_TO_TESSELLATE_MESSAGE,
  TESSELLATION_ACTIVE_MESSAGE,
  type ASSEMBLY_ROUTES,
} from '../../../domain/rest/assemblyRoutes.ts'
import { checkMeshingParameters } from '../../../domain/tessellation.ts'
import { findAssembly, findTessellationJob } from '../../assemblies/access.ts'
import { assemblyRunnerFor, insertTessellationJob } from '../../assemblies/AssemblyRunner.ts'
import {
  ASSEMBLY_NOT_READ_MESSAGE,
  createAssemblyPart,
  deleteAssemblyParts,
  listAssemblyParts,
  updateAssemblyPart,
} from '../../assemblies/parts.ts'
import {
  listTessellationJobs,
  readJobState,
  readTessellationPayload,
  readTree,
  toAssembly,
  toTessellationRun,
} from '../../assemblies/records.ts'
import { findReadableSimulation } from '../../setup/access.ts'
import { refuseIssues } from '../../setup/issues.ts'
import { ApiError, notFound } from '../apiError.ts'
import type { AreaHandlers } from '../context.ts'

/*
 * Handlers of ASSEMBLY_ROUTES (spec/setup.md §7 "Assemblies"); the STEP upload is
 * server/assemblies/uploadRoute.ts. Reading needs the simulation readable; every change is a
 * setup edit (server/assemblies/access.ts). Edits run in one transaction each.
 */

export const assemblyHandlers: AreaHandlers<typeof ASSEMBLY_ROUTES> = {
  listAssemblies: async ({ params }, { db, user }) => {
    const simulation = await findReadableSimulation(db, user, params.id)
    const rows = await db
      .selectFrom('assemblies')
      .selectAll()
      .where('simulation_id', '=', simulation.id)
      .orderBy('id', 'desc')
      .execute()
    return Promise.all(rows.map((row) => toAssembly(db, row)))
  },

  getAssembly: async ({ params }, { db, user }) =>
    toAssembly(db, (await findAssembly(db, user, params.id, 'read')).assembly),

  listAssemblyParts: async ({ params }, { db, user }) =>
    listAssemblyParts(db, (await findAssembly(db, user, params.id, 'read')).assembly),

  createAssemblyPart: async ({ params, body }, { db, user, clock, dataDir }) =>
    db.transaction().execute(async (trx) => {
      const { assembly } = await findAssembly(trx, user, params.id, 'edit')
      return createAssemblyPart({ db: trx, dataDir, assembly, nowIso: clock.nowIso() }, body)
    }),

  updateAssemblyPart: async ({ params, body }, { db, user, clock, dataDir }) =>
    db.transaction().execute(async (trx) => {
      const { assembly } = await findAssembly(trx, user, params.id, 'edit')
      return updateAssemblyPart({ db: trx, dataDir, assembly, nowIso: clock.nowIso() }, body)
    }),

  deleteAssemblyParts: async ({ params, body }, { db, user }) =>
    db.transaction().execute(async (trx) => {
      const { assembly } = await findAssembly(trx, user, params.id, 'edit')
      return deleteAssemblyParts(trx, assembly, body.partIds)
    }),

  startTessellation: async ({ params, body }, { db, user, clock }) => {
    const job = await db.transaction().execute(async (trx) => {
      const { assembly, simulation } = await findAssembly(trx, user, params.id, 'edit')
      const nowIso = clock.nowIso()
      // Touching the row first makes a concurrent start of the same assembly wait for this one.
      await trx
        .updateTable('assemblies')
        .set({ updated_at: nowIso })
        .where('id', '=', assembly.id)
        .execute()
      if (!readTree(assembly)) throw new ApiError('conflict', ASSEMBLY_NOT_READ_MESSAGE)
      const running = (await listTessellationJobs(trx, simulation.id)).some(
        (job) =>
          isJobActive(readJobState(job.state)) &&
          readTessellationPayload(job).assemblyId === assembly.id,
      )
      if (running) throw new ApiError('conflict', TESSELLATION_ACTIVE_MESSAGE)
      const parts = await listAssemblyParts(trx, assembly)
      const chosen =
        body.partIds === undefined
          ? parts.filter((part) => part.needsTessellation)
          : body.partIds.map((id) => {
              const part = parts.find((p) => p.id === id)
              if (!part) throw notFound('Assembly part')
              return part
            })
      if (chosen.length === 0)
        throw new ApiError('validation_error', NOTHING_TO_TESSELLATE_MESSAGE, [
          { path: 'partIds', message: NOTHING_TO_TESSELLATE_MESSAGE },
        ])
      const issues = chosen.flatMap((part) =>
        checkMeshingParameters(part.meshingParameters, `parts.${part.id}.meshingParameters`),
      )
      if (issues.length > 0) throw refuseIssues(issues)
      return insertTessellationJob(
        trx,
        simulation.id,
        { assemblyId: assembly.id, partIds: chosen.map((part) => part.id), userId: user.id },
        nowIso,
      )
    })
    await assemblyRunnerFor(db).launch(job.id)
    return toTessellationRun(job)
  },

  listTessellationRuns: async ({ params }, { db, user }) => {
    const simulation = await findReadableSimulation(db, user, params.id)
    return (await listTessellationJobs(db, simulation.id)).map(toTessellationRun)
  },

  cancelTessellationRun: async ({ params }, { db, user }) => {
    const { job } = await findTessellationJob(db, user, params.id, 'edit')
    if (!isJobActive(readJobState(job.state)))
      throw new ApiError('conflict', 'The tessellation is not running.')
    const canceled = await assemblyRunnerFor(db).cancel(job.id)
    return toTessellationRun(canceled ?? job)
  },
}
