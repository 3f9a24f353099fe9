import { hasPermission } from '../../domain/account.ts'
import { COMPRESSION_TEXTS, type COMPRESSION_ROUTES } from '../../domain/rest/compressionRoutes.ts'
import { ApiError } from '../api/apiError.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import type { AreaHandlers, SessionUser } from '../api/context.ts'
import { loadSimulation } from '../api/views.ts'
import { assertStorageAvailable } from '../storage/usage.ts'
import { listArchiveEntries } from './archiveSources.ts'
import type { SimulationCompressionRow } from './tables.ts'
import { compressionRunnerFor } from './registerCompression.ts'

/**
 * Whoever sees a simulation may compress it and download the archive; replacing or deleting an
 * archive someone else made needs a role that sees every project (a manager), as with templates.
 */
function assertMayChange(user: SessionUser, row: SimulationCompressionRow | undefined): void {
  if (!row || row.creator_id === user.id || hasPermission(user.role, 'PROJECTS_VIEW_ALL')) return
  throw new ApiError('forbidden', COMPRESSION_TEXTS.notOwner)
}

/** Handlers of COMPRESSION_ROUTES. */
export const compressionHandlers: AreaHandlers<typeof COMPRESSION_ROUTES> = {
  async getCompression({ params }, { db, user }) {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    return { compression: await compressionRunnerFor(db).read(simulation.id) }
  },

  async startCompression({ params }, { db, user, dataDir }) {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    if (simulation.state === 'not started')
      throw new ApiError('conflict', COMPRESSION_TEXTS.notStarted)
    const runner = compressionRunnerFor(db)
    assertMayChange(user, await runner.findRow(simulation.id))
    // An archive takes storage: refused while the organization's storage is full.
    await assertStorageAvailable(db, simulation.organization_id, 0)
    const record = await loadSimulation(db, simulation)
    const entries = await listArchiveEntries(dataDir, simulation, record)
    return runner.start(simulation, user.id, entries)
  },

  async deleteCompression({ params }, { db, user }) {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    const runner = compressionRunnerFor(db)
    assertMayChange(user, await runner.findRow(simulation.id))
    return { compression: await runner.delete(simulation.id) }
  },
}
