import type { Kysely, Selectable } from 'kysely'
import type { VirtualMachine, VmState } from '../../domain/accountVm.ts'
import { routePath } from '../../domain/rest.ts'
import { VM_SOCKET_PATH } from '../../domain/rest/vmRoutes.ts'
import type { Database } from '../db/schema.ts'
import type { MachineHandle } from './provider.ts'
import type { RemoteVmsTable } from './tables.ts'

type Db = Kysely<Database>
export type RemoteVmRow = Selectable<RemoteVmsTable>

/** States in which a VM holds a machine. */
export const ACTIVE_VM_STATES: readonly VmState[] = ['launching', 'running', 'stopping']

export function parseHandle(row: RemoteVmRow): MachineHandle | null {
  if (row.handle === null) return null
  try {
    return JSON.parse(row.handle) as MachineHandle
  } catch {
    return null
  }
}

/** The start of the UTC calendar month of `nowMs` (ISO): VM hours are a monthly allowance. */
export function monthStartIso(nowMs: number): string {
  const now = new Date(nowMs)
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString()
}

/**
 * The organization's VM hours left this month: the subscription's vmHoursPerMonth less the hours
 * its VMs (deleted ones too) consumed since the month began.
 */
export async function vmHoursLeft(db: Db, organizationId: number, nowMs: number): Promise<number> {
  const organization = await db
    .selectFrom('organizations')
    .select('subscription_vm_hours_per_month')
    .where('id', '=', organizationId)
    .executeTakeFirst()
  const allowance = Number(organization?.subscription_vm_hours_per_month ?? 0)
  const used = await db
    .selectFrom('remote_vms')
    .select((eb) => eb.fn.sum<number | string | null>('hours_consumed').as('used'))
    .where('organization_id', '=', organizationId)
    .where('created_at', '>=', monthStartIso(nowMs))
    .executeTakeFirst()
  return allowance - Number(used?.used ?? 0)
}

/** The VM as the API shows it; the password, sockets and SFTP only while it runs. */
export function toVirtualMachine(
  row: RemoteVmRow,
  simulation: { name: string; projectName: string },
  sftpUrl: string | null,
): VirtualMachine {
  const running = row.state === 'running'
  return {
    id: row.id,
    name: row.name,
    state: row.state as VmState,
    hoursConsumed: Number(row.hours_consumed),
    runningSince: row.running_since,
    shutdownTime: row.shutdown_time,
    createdAt: row.created_at,
    sftpUrl: running ? sftpUrl : null,
    websocketUrl: running ? routePath(VM_SOCKET_PATH, { id: row.id }) : null,
    password: running ? row.password : null,
    simulation: { id: row.simulation_id, ...simulation },
  }
}

/** Reads one VM with its simulation's and project's names. */
export async function readVmView(
  db: Db,
  row: RemoteVmRow,
  sftpUrl: (row: RemoteVmRow) => string | null,
): Promise<VirtualMachine> {
  const names = await db
    .selectFrom('simulations')
    .innerJoin('projects', 'projects.id', 'simulations.project_id')
    .select(['simulations.name as name', 'projects.name as projectName'])
    .where('simulations.id', '=', row.simulation_id)
    .executeTakeFirst()
  return toVirtualMachine(row, names ?? { name: '', projectName: '' }, sftpUrl(row))
}
