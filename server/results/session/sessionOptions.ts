import type { Kysely } from 'kysely'
import type { Sensor, VolumeClip } from '../../../domain/meshes.ts'
import type { OutputState } from '../../../domain/results.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { StatisticsContext } from '../statistics/statisticsCalc.ts'
import type { StatisticsThreads } from '../statistics/statisticsThread.ts'

/** Close codes of /ws/results (4xxx: application codes). */
export const RESULTS_CLOSE_CODES = {
  /** No or a wrong access token, or a command before sys.hello. */
  unauthorized: 4401,
  /** The client speaks another protocol version. */
  protocolVersion: 4426,
  /** No sys.hello within HELLO_TIMEOUT_MS. */
  helloTimeout: 4408,
  /**
   * The session of the hello's token ended (logout, revocation, access token expired): the same
   * code as a refused token, so the client refreshes its tokens and reconnects, or logs in.
   */
  sessionEnded: 4401,
} as const

/** Sensor states per output, as the sensor store keeps them (server/sensors/store.ts). */
export type SensorOutputStates = { outputNo: number; state: OutputState }[]

/** Where the session reads what other modules own; each has a harmless default. */
export interface ResultsSessionSources {
  /** The simulation's volume clips (server/clips/store.ts). Default: none. */
  listVolumeClips?: (db: Kysely<Database>, simulationId: number) => Promise<VolumeClip[]>
  /** The simulation's sensors (server/sensors/store.ts), listed in fetch.info. Default: none. */
  listSensors?: (
    db: Kysely<Database>,
    dataDir: string,
    simulationId: number,
    runId: number | null,
  ) => Promise<Sensor[]>
  /**
   * A sensor's samples of one output, for statistics over sensors computed on this thread (the
   * statistics threads read them with server/sensors/store.ts). Default: none.
   */
  readSensorSamples?: StatisticsContext['readSensorSamples']
  /** Where stats.calc runs: this thread (null / absent) or the statistics threads. */
  statisticsThreads?: StatisticsThreads | null
  /** Sensor states of a run's outputs (server/sensors/store.ts). Default: none. */
  listSensorOutputStates?: (
    db: Kysely<Database>,
    simulationId: number,
    runId: number,
  ) => Promise<SensorOutputStates>
}

/** What every session of the channel shares. */
export interface ResultsSessionOptions extends ResultsSessionSources {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
  /** Close a socket that has not said sys.hello after this long. Default 10 s. */
  helloTimeoutMs?: number
  /** Ping interval; a socket that did not answer the previous ping is closed. Default 30 s. */
  heartbeatMs?: number
}
