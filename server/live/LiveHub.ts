import type { Kysely } from 'kysely'
import {
  heartbeatIntervalMs,
  type LiveServerFrame,
  type StoreOperation,
} from '../../domain/liveProtocol.ts'
import type { OutputInfo } from '../../domain/results.ts'
import type { RunLogLine } from '../../solver/run/types.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { loadSimulationView } from '../jobs/views.ts'
import { findLatestDiscretization, toDiscretization, toRunRecord } from '../jobs/records.ts'
import type { JobEvents } from '../jobs/types.ts'

/** One open live connection as the hub sees it. */
export interface LiveClient {
  organizationId: number
  subscriptions: Set<number>
  send(frame: LiveServerFrame): void
}

/** Store paths of the live channel (StoreUpdate.path). */
export const LIVE_PATHS = {
  simulation: (id: number) => ['simulations', String(id)],
  runs: (id: number) => ['simulations', String(id), 'runs'],
  log: (id: number) => ['simulations', String(id), 'logs'],
  output: (id: number, outputNo: number) => [
    'simulations',
    String(id),
    'outputs',
    String(outputNo),
  ],
  discretization: (id: number) => ['simulations', String(id), 'discretization'],
} as const

/**
 * Fans job events out to the live connections subscribed to a simulation: store updates (SET /
 * REPLACE / DEL, each with the connection's next updateId), workload messages and credit
 * transactions (to the whole organization), and keeps their heartbeats.
 */
export class LiveHub implements JobEvents {
  #db: Kysely<Database>
  #clock: Clock
  #clients = new Set<LiveClient>()
  #updateIds = new WeakMap<LiveClient, number>()
  #workloads = new Map<number, string>()

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db
    this.#clock = clock
  }

  add(client: LiveClient): void {
    this.#clients.add(client)
    this.#updateIds.set(client, 0)
  }

  remove(client: LiveClient): void {
    this.#clients.delete(client)
  }

  /** Whether a workload runs for one of the client's simulations (heartbeat period). */
  workloadConnected(client: LiveClient): boolean {
    return [...client.subscriptions].some((id) => this.#workloads.has(id))
  }

  heartbeatMs(client: LiveClient): number {
    return heartbeatIntervalMs(this.workloadConnected(client))
  }

  heartbeat(client: LiveClient): void {
    client.send({
      type: 'WorkloadHeartbeat',
      workloadConnected: this.workloadConnected(client),
      sentAt: this.#clock.nowIso(),
    })
  }

  /** Sends one store update to a client, numbering it. */
  sendUpdate(client: LiveClient, operation: StoreOperation, path: string[], value?: unknown): void {
    const updateId = (this.#updateIds.get(client) ?? 0) + 1
    this.#updateIds.set(client, updateId)
    client.send({ type: 'StoreUpdate', updateId, operation, path, value })
  }

  #subscribers(simulationId: number): LiveClient[] {
    return [...this.#clients].filter((client) => client.subscriptions.has(simulationId))
  }

  #broadcast(simulationId: number, operation: StoreOperation, path: string[], value?: unknown) {
    for (const client of this.#subscribers(simulationId))
      this.sendUpdate(client, operation, path, value)
  }

  /** The current state of a simulation for a new subscriber: the record, its runs, its workload. */
  async sendSnapshot(client: LiveClient, simulationId: number): Promise<void> {
    const simulation = await loadSimulationView(this.#db, simulationId)
    if (simulation === null) return
    this.sendUpdate(client, 'REPLACE', LIVE_PATHS.simulation(simulationId), simulation)
    const workloadId = this.#workloads.get(simulationId)
    client.send(
      workloadId === undefined
        ? { type: 'NoWorkload', simulationId }
        : { type: 'NewWorkload', workloadId, simulationId },
    )
  }

  #publish(task: () => Promise<void>) {
    task().catch((error: unknown) => console.error('Live update failed', error))
  }

  /**
   * A simulation was deleted (alone or with its project): its subscribers get DEL of its path and
   * stop following it.
   */
  simulationDeleted(simulationId: number): void {
    for (const client of this.#subscribers(simulationId)) {
      this.sendUpdate(client, 'DEL', LIVE_PATHS.simulation(simulationId))
      client.subscriptions.delete(simulationId)
    }
  }

  /**
   * After a delete (a simulation, or a project with its simulations): DEL for every watched
   * simulation that no longer exists. One query over the watched ids, only when someone watches.
   */
  async pruneDeleted(): Promise<void> {
    const watched = new Set([...this.#clients].flatMap((client) => [...client.subscriptions]))
    if (watched.size === 0) return
    const existing = await this.#db
      .selectFrom('simulations')
      .select('id')
      .where('id', 'in', [...watched])
      .execute()
    const alive = new Set(existing.map((row) => row.id))
    for (const simulationId of watched)
      if (!alive.has(simulationId)) this.simulationDeleted(simulationId)
  }

  simulationChanged(simulationId: number): void {
    if (this.#subscribers(simulationId).length === 0) return
    this.#publish(async () => {
      const simulation = await loadSimulationView(this.#db, simulationId)
      if (simulation === null) {
        this.#broadcast(simulationId, 'DEL', LIVE_PATHS.simulation(simulationId))
        return
      }
      this.#broadcast(simulationId, 'REPLACE', LIVE_PATHS.simulation(simulationId), simulation)
      const runs = await this.#db
        .selectFrom('runs')
        .selectAll()
        .where('simulation_id', '=', simulationId)
        .orderBy('id', 'desc')
        .execute()
      this.#broadcast(simulationId, 'REPLACE', LIVE_PATHS.runs(simulationId), runs.map(toRunRecord))
    })
  }

  runLog(simulationId: number, _runId: number, line: RunLogLine): void {
    this.#broadcast(simulationId, 'SET', LIVE_PATHS.log(simulationId), line)
  }

  outputWritten(simulationId: number, _runId: number, outputNo: number): void {
    const info: OutputInfo = {
      outputNo,
      states: { visualization: 'ready', sensor: 'pending' },
      wallSensorState: 'unknown',
    }
    this.#broadcast(simulationId, 'SET', LIVE_PATHS.output(simulationId, outputNo), info)
  }

  discretizationChanged(simulationId: number): void {
    if (this.#subscribers(simulationId).length === 0) return
    this.#publish(async () => {
      const row = await findLatestDiscretization(this.#db, simulationId)
      if (row)
        this.#broadcast(
          simulationId,
          'REPLACE',
          LIVE_PATHS.discretization(simulationId),
          toDiscretization(row),
        )
      else this.#broadcast(simulationId, 'DEL', LIVE_PATHS.discretization(simulationId))
    })
  }

  workloadStarted(simulationId: number, runId: number): void {
    const workloadId = `run-${runId}`
    this.#workloads.set(simulationId, workloadId)
    for (const client of this.#subscribers(simulationId))
      client.send({ type: 'NewWorkload', workloadId, simulationId })
  }

  workloadInitialized(simulationId: number, runId: number): void {
    for (const client of this.#subscribers(simulationId))
      client.send({ type: 'WorkloadInitialized', workloadId: `run-${runId}`, simulationId })
  }

  workloadEnded(simulationId: number): void {
    this.#workloads.delete(simulationId)
    for (const client of this.#subscribers(simulationId))
      client.send({ type: 'NoWorkload', simulationId })
  }

  creditsConsumed(
    organizationId: number,
    transactionId: number,
    credits: number,
    organizationCredits: number,
  ): void {
    for (const client of this.#clients)
      if (client.organizationId === organizationId)
        client.send({
          type: 'TransactionMessage',
          sequenceId: transactionId,
          kind: 'simulation',
          credits: -credits,
          organizationCredits,
        })
  }
}

const HUBS = new WeakMap<object, LiveHub>()

/** Makes an app's hub findable by its database handle (handlers get only the database). */
export function registerLiveHub(db: Kysely<Database>, hub: LiveHub): void {
  HUBS.set(db, hub)
}

/** The live hub of the app serving this database, if it runs one. */
export function liveHubFor(db: Kysely<Database>): LiveHub | undefined {
  return HUBS.get(db)
}
