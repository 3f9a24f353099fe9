import type { Kysely } from 'kysely'
import { autoShutdownTime, type VirtualMachine } from '../../domain/accountVm.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { Clock } from '../clock.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { MissingProgramError, type MachineHandle, type MachineProvider } from './provider.ts'
import {
  ACTIVE_VM_STATES,
  parseHandle,
  readVmView,
  vmHoursLeft,
  type RemoteVmRow,
} from './vmRecords.ts'
import { writeVmOutputs } from './vmOutputs.ts'
import { organizationStorageDirectory, refreshVmStorageBytes } from './storageUsage.ts'
import { randomBytes } from 'node:crypto'

type Db = Kysely<Database>

/** Messages of the VM service (the UI shows them under 'Error launching VM'). */
export const VM_SERVICE_MESSAGES = {
  noHours: 'No VM hours left.',
  notStarted: 'The simulation has not started: there are no outputs to post-process.',
  exists: 'The simulation already has a VM.',
  failedExists: 'The VM of this simulation failed: delete it before launching a new one.',
  full: (max: number) =>
    `All ${max} virtual machines of this server are in use. Please try again later.`,
  missing: (programs: readonly string[]) =>
    `The server cannot run virtual machines: ${programs.join(', ')} ${programs.length > 1 ? 'are' : 'is'} not installed.`,
  notRunning: 'The VM is not running.',
  gone: 'The VM process ended.',
  timedOut: 'The VM did not start in time.',
} as const

export interface VmServiceOptions {
  db: Db
  clock: Clock
  dataDir: string
  provider: MachineProvider
  /** Most VMs this server runs at once (launching, running or stopping). */
  maxConcurrent: number
  /** How often the supervisor checks machines, accrues hours and shuts down. */
  tickMs: number
  /** A VM still starting after this is failed. */
  launchTimeoutMs: number
  /** Lines for the server log. */
  log: (line: string) => void
  /** The SFTP address of a running VM, null when there is none. */
  sftpUrl?: (row: RemoteVmRow) => string | null
  /** The VM stopped running (stopping, failed or deleted): its SFTP sessions end. */
  onMachineEnded?: (vmId: number) => void
}

const HOUR_MS = 3600_000

/**
 * The remote VMs of every organization: launch, read, auto shutdown, stop and delete, and the
 * supervisor that follows each machine (launching → running when its VNC answers, failed when its
 * process ends), accrues hoursConsumed while it runs (the organization's vmHours shrink by as
 * much), stops it at shutdownTime or when the hours run out, and after a restart finds running
 * machines again or marks them stopped.
 */
export class VmService {
  readonly options: VmServiceOptions
  #timer: NodeJS.Timeout | null = null
  #ticking: Promise<void> | null = null
  readonly #pending = new Set<Promise<unknown>>()

  constructor(options: VmServiceOptions) {
    this.options = options
  }

  get provider(): MachineProvider {
    return this.options.provider
  }

  view(row: RemoteVmRow): Promise<VirtualMachine> {
    return readVmView(this.options.db, row, this.options.sftpUrl ?? (() => null))
  }

  /** The simulation's current (not deleted) VM. */
  async findForSimulation(simulationId: number): Promise<RemoteVmRow | undefined> {
    return this.options.db
      .selectFrom('remote_vms')
      .selectAll()
      .where('simulation_id', '=', simulationId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirst()
  }

  async findById(id: number): Promise<RemoteVmRow | undefined> {
    return this.options.db
      .selectFrom('remote_vms')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
  }

  async #update(id: number, changes: Partial<Omit<RemoteVmRow, 'id'>>): Promise<RemoteVmRow> {
    return this.options.db
      .updateTable('remote_vms')
      .set({ ...changes, updated_at: this.options.clock.nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  /** Launches a VM on the simulation for `userId` (the simulation's access is checked before). */
  async launch(simulation: SimulationRow, userId: number): Promise<RemoteVmRow> {
    const { db, clock } = this.options
    if (simulation.state === 'not started')
      throw new ApiError('conflict', VM_SERVICE_MESSAGES.notStarted)
    if (!((await vmHoursLeft(db, simulation.organization_id, clock.nowMs())) > 0))
      throw new ApiError('forbidden', VM_SERVICE_MESSAGES.noHours)
    const existing = await this.findForSimulation(simulation.id)
    if (existing?.state === 'failed')
      throw new ApiError('conflict', VM_SERVICE_MESSAGES.failedExists)
    if (existing && existing.state !== 'stopped')
      throw new ApiError('conflict', VM_SERVICE_MESSAGES.exists)
    const active = await db
      .selectFrom('remote_vms')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('state', 'in', [...ACTIVE_VM_STATES])
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    if (Number(active?.count ?? 0) >= this.options.maxConcurrent)
      throw new ApiError('too_many_requests', VM_SERVICE_MESSAGES.full(this.options.maxConcurrent))
    const missing = await this.provider.missingPrograms()
    if (missing.length > 0) {
      this.options.log(`VM launch refused: missing program ${missing.join(', ')}`)
      throw new ApiError('unknown_error', VM_SERVICE_MESSAGES.missing(missing))
    }
    const nowIso = clock.nowIso()
    if (existing) {
      // The stopped VM gives way: its storage folder goes with it (it no longer counts).
      await this.provider.delete(existing.id)
      await this.#update(existing.id, { deleted_at: nowIso })
    }
    const row = await db
      .insertInto('remote_vms')
      .values({
        organization_id: simulation.organization_id,
        simulation_id: simulation.id,
        creator_id: userId,
        name: `${simulation.name} VM`,
        state: 'launching',
        hours_consumed: 0,
        running_since: null,
        // Auto shutdown is on from the launch (the toggle reads enabled while launching).
        shutdown_time: autoShutdownTime(clock.nowMs()),
        accounted_at: null,
        password: randomBytes(6).toString('base64url'),
        handle: null,
        failure: null,
        created_at: nowIso,
        updated_at: nowIso,
        deleted_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    this.#track(this.#start(row, simulation))
    return row
  }

  #track(work: Promise<unknown>): void {
    this.#pending.add(work)
    void work.finally(() => this.#pending.delete(work))
  }

  async #start(row: RemoteVmRow, simulation: SimulationRow): Promise<void> {
    const { dataDir, log } = this.options
    let handle: MachineHandle
    try {
      handle = await this.provider.launch({
        vmId: row.id,
        password: row.password,
        writeOutputs: (directory) => writeVmOutputs(dataDir, simulation, directory),
        organizationStorage: organizationStorageDirectory(dataDir, simulation.organization_id),
      })
    } catch (error) {
      const reason =
        error instanceof MissingProgramError
          ? VM_SERVICE_MESSAGES.missing(error.programs)
          : error instanceof Error
            ? error.message
            : String(error)
      log(`VM ${row.id}: launching failed: ${reason}`)
      await this.#update(row.id, { state: 'failed', failure: reason })
      return
    }
    const current = await this.findById(row.id)
    await this.#update(row.id, { handle: JSON.stringify(handle) })
    // Stopped or deleted while it started: end the machine at once.
    if (!current || current.state !== 'launching') await this.#stopMachine(row.id, handle)
  }

  /** Turns auto shutdown on (a time) or off (null); only while running. */
  async setShutdownTime(row: RemoteVmRow, shutdownTime: string | null): Promise<RemoteVmRow> {
    if (row.state !== 'running') throw new ApiError('conflict', VM_SERVICE_MESSAGES.notRunning)
    if (shutdownTime !== null && Number.isNaN(Date.parse(shutdownTime)))
      throw new ApiError('validation_error', 'shutdownTime must be an ISO date', [
        { path: 'shutdownTime', message: 'shutdownTime must be an ISO date' },
      ])
    return this.#update(row.id, {
      shutdown_time: shutdownTime === null ? null : new Date(shutdownTime).toISOString(),
    })
  }

  /** DELETE: shuts a launching or running VM down; deletes a stopped or failed one. */
  async stopOrDelete(row: RemoteVmRow): Promise<RemoteVmRow> {
    if (row.state === 'stopping') return row
    if (row.state === 'launching' || row.state === 'running') return this.#beginStop(row)
    this.options.onMachineEnded?.(row.id)
    await this.provider.delete(row.id)
    return this.#update(row.id, { deleted_at: this.options.clock.nowIso() })
  }

  /** Accrues the hours up to now; answers the updated row. */
  async #accrue(row: RemoteVmRow): Promise<RemoteVmRow> {
    if (row.state !== 'running' || row.accounted_at === null) return row
    const nowMs = this.options.clock.nowMs()
    const elapsedMs = Math.max(0, nowMs - Date.parse(row.accounted_at))
    return this.#update(row.id, {
      hours_consumed: Number(row.hours_consumed) + elapsedMs / HOUR_MS,
      accounted_at: new Date(nowMs).toISOString(),
    })
  }

  async #beginStop(row: RemoteVmRow): Promise<RemoteVmRow> {
    const accrued = await this.#accrue(row)
    const stopping = await this.#update(row.id, { state: 'stopping', accounted_at: null })
    this.options.onMachineEnded?.(row.id)
    const handle = parseHandle(accrued)
    this.#track(
      (async () => {
        if (handle) await this.#stopMachine(row.id, handle)
        else await this.#update(row.id, { state: 'stopped' })
      })(),
    )
    return stopping
  }

  async #stopMachine(id: number, handle: MachineHandle): Promise<void> {
    try {
      await this.provider.stop(id, handle)
    } catch (error) {
      this.options.log(`VM ${id}: stopping failed: ${String(error)}`)
    }
    const row = await this.findById(id)
    if (row && row.state !== 'failed') await this.#update(id, { state: 'stopped' })
    // What the desktop wrote into its home counts once it stops.
    await refreshVmStorageBytes(this.options.db, this.options.dataDir, id).catch(() => 0)
  }

  /** One pass of the supervisor over every active VM. */
  async tick(): Promise<void> {
    if (this.#ticking) return this.#ticking
    this.#ticking = this.#tick().finally(() => {
      this.#ticking = null
    })
    return this.#ticking
  }

  async #tick(): Promise<void> {
    const { db, clock, log } = this.options
    const rows = await db
      .selectFrom('remote_vms')
      .selectAll()
      .where('state', 'in', ['launching', 'running'])
      .where('deleted_at', 'is', null)
      .execute()
    for (const row of rows) {
      const handle = parseHandle(row)
      if (row.state === 'launching') {
        if (!handle) {
          if (clock.nowMs() - Date.parse(row.created_at) > this.options.launchTimeoutMs)
            await this.#fail(row, VM_SERVICE_MESSAGES.timedOut)
          continue
        }
        const state = await this.provider.state(row.id, handle)
        if (state === 'ready')
          await this.#update(row.id, {
            state: 'running',
            running_since: clock.nowIso(),
            accounted_at: clock.nowIso(),
          })
        else if (state === 'gone') await this.#fail(row, VM_SERVICE_MESSAGES.gone)
        else if (clock.nowMs() - Date.parse(row.created_at) > this.options.launchTimeoutMs) {
          await this.provider.stop(row.id, handle)
          await this.#fail(row, VM_SERVICE_MESSAGES.timedOut)
        }
        continue
      }
      const accrued = await this.#accrue(row)
      if (!handle || (await this.provider.state(row.id, handle)) === 'gone') {
        await this.#fail(accrued, VM_SERVICE_MESSAGES.gone)
        continue
      }
      const shutdownDue =
        accrued.shutdown_time !== null && Date.parse(accrued.shutdown_time) <= clock.nowMs()
      const hoursLeft = await vmHoursLeft(db, accrued.organization_id, clock.nowMs())
      if (shutdownDue || !(hoursLeft > 0)) {
        log(`VM ${row.id}: ${shutdownDue ? 'auto shutdown' : 'no VM hours left'}: stopping`)
        await this.#beginStop(accrued)
      }
    }
  }

  async #fail(row: RemoteVmRow, reason: string): Promise<void> {
    this.options.log(`VM ${row.id}: failed: ${reason}`)
    await this.#update(row.id, { state: 'failed', failure: reason, accounted_at: null })
    this.options.onMachineEnded?.(row.id)
  }

  /**
   * After a server restart: a machine still alive is found again (its hours count on from where
   * they were counted); one that is gone is marked stopped, and one caught stopping is stopped.
   */
  async recover(): Promise<void> {
    const rows = await this.options.db
      .selectFrom('remote_vms')
      .selectAll()
      .where('state', 'in', [...ACTIVE_VM_STATES])
      .where('deleted_at', 'is', null)
      .execute()
    for (const row of rows) {
      const handle = parseHandle(row)
      const alive = handle !== null && (await this.provider.state(row.id, handle)) !== 'gone'
      if (row.state === 'stopping' && handle && alive) await this.#stopMachine(row.id, handle)
      else if (!alive) {
        this.options.log(`VM ${row.id}: not found after the restart: stopped`)
        await this.#update(row.id, { state: 'stopped', accounted_at: null })
      } else this.options.log(`VM ${row.id}: found again after the restart (${row.state})`)
    }
  }

  /** Starts the supervisor (after recover()). */
  start(): void {
    if (this.#timer) return
    this.#timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.options.log(`VM supervisor: ${String(error)}`))
    }, this.options.tickMs)
    this.#timer.unref()
  }

  /** Stops the supervisor; machines keep running (a next server finds them). */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
    await this.#ticking
    await Promise.allSettled([...this.#pending])
  }

  /** Throws 404 unless the row exists (a deleted VM reads as none). */
  static require(row: RemoteVmRow | undefined): RemoteVmRow {
    if (!row) throw notFound('Virtual machine')
    return row
  }
}
