import type { VM_ROUTES } from '../../domain/rest/vmRoutes.ts'
import { canViewAllProjects, findAccessibleSimulation } from '../api/access.ts'
import type { AreaHandlers, AuthedContext } from '../api/context.ts'
import { notFound } from '../api/apiError.ts'
import { VmService } from './VmService.ts'
import { vmServiceFor } from './vmRegistry.ts'
import type { RemoteVmRow } from './vmRecords.ts'

/** The VM of the id if the user may see its simulation, else 404. */
export async function findAccessibleVm(context: AuthedContext, vmId: number): Promise<RemoteVmRow> {
  const service = vmServiceFor(context.db)
  const row = await service.findById(vmId)
  if (!row || row.organization_id !== context.user.organization_id)
    throw notFound('Virtual machine')
  await findAccessibleSimulation(context.db, context.user, row.simulation_id)
  return row
}

/** Handlers of VM_ROUTES: every VM is reached through a simulation the user may see (else 404). */
export const vmHandlers: AreaHandlers<typeof VM_ROUTES> = {
  async listRemoteVms(_request, context) {
    const { db, user } = context
    let query = db
      .selectFrom('remote_vms')
      .innerJoin('simulations', 'simulations.id', 'remote_vms.simulation_id')
      .innerJoin('projects', 'projects.id', 'simulations.project_id')
      .selectAll('remote_vms')
      .where('remote_vms.organization_id', '=', user.organization_id)
      .where('remote_vms.deleted_at', 'is', null)
    if (!canViewAllProjects(user)) query = query.where('projects.creator_id', '=', user.id)
    const rows = await query.orderBy('remote_vms.id', 'desc').execute()
    const service = vmServiceFor(db)
    return Promise.all(rows.map((row) => service.view(row)))
  },
  async launchRemoteVm({ params }, context) {
    const simulation = await findAccessibleSimulation(context.db, context.user, params.id)
    const service = vmServiceFor(context.db)
    return service.view(await service.launch(simulation, context.user.id))
  },
  async getRemoteVm({ params }, context) {
    await findAccessibleSimulation(context.db, context.user, params.id)
    const service = vmServiceFor(context.db)
    return service.view(VmService.require(await service.findForSimulation(params.id)))
  },
  async updateRemoteVm({ params, body }, context) {
    await findAccessibleSimulation(context.db, context.user, params.id)
    const service = vmServiceFor(context.db)
    const row = VmService.require(await service.findForSimulation(params.id))
    return service.view(await service.setShutdownTime(row, body.shutdownTime))
  },
  async deleteRemoteVm({ params }, context) {
    await findAccessibleSimulation(context.db, context.user, params.id)
    const service = vmServiceFor(context.db)
    const row = VmService.require(await service.findForSimulation(params.id))
    return service.view(await service.stopOrDelete(row))
  },
  async listVmStorage({ params }, context) {
    const row = await findAccessibleVm(context, params.id)
    return vmServiceFor(context.db).provider.listStorage(row.id)
  },
}
