import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import type { WebSocket } from 'ws'
import type { Sensor, VolumeClip } from '../../../domain/meshes.ts'
import { encodeObjectId } from '../../../domain/resultsObjects.ts'
import { OUTPUT_MANIFEST_FILE, runDirectory } from '../../../domain/output/layout.ts'
import type { OutputInfo, OutputState } from '../../../domain/results.ts'
import {
  RESULTS_PROTOCOL_VERSION,
  ResultsClientFrameSchema,
  type ResultsClientFrame,
  type ResultsServerFrame,
} from '../../../domain/resultsProtocol.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'
import { findAccessibleSimulation } from '../../api/access.ts'
import type { SessionUser } from '../../api/context.ts'
import { authenticateAccessToken } from '../../auth/sessions.ts'
import type { Clock } from '../../clock.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import { readOutputManifest, resolveRunId } from '../outputFiles.ts'
import { BufferPool } from '../statistics/outputReader.ts'
import { runStatisticsCalc, type StatisticsContext } from '../statistics/statisticsCalc.ts'
import type { StatisticsThread } from '../statistics/statisticsThread.ts'
import { describeStatisticsAttributes } from '../statistics/statsInfo.ts'
import { runFetchData } from './fetchData.ts'
import { FrameSender, SocketClosedError } from './FrameSender.ts'
import { describeDatasetStats, describeMasks, describeOutputObjects } from './outputObjects.ts'

/** Close codes of /ws/results (4xxx: application codes). */
export const RESULTS_CLOSE_CODES = {
  /** No or a wrong access token, or a command before sys.hello. */
  unauthorized: 4401,
  /** The client speaks another protocol version. */
  protocolVersion: 4426,
  /** No sys.hello within HELLO_TIMEOUT_MS. */
  helloTimeout: 4408,
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
   * statistics thread reads them with server/sensors/store.ts). Default: none.
   */
  readSensorSamples?: StatisticsContext['readSensorSamples']
  /** Where stats.calc runs: this thread (null / absent) or the statistics thread. */
  statisticsThread?: StatisticsThread | null
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

const DEFAULT_HELLO_TIMEOUT_MS = 10_000
const DEFAULT_HEARTBEAT_MS = 30_000

/** Commands the session knows, for the "unknown command" error. */
const KNOWN_COMMANDS = new Set<string>(
  ResultsClientFrameSchema.options.map((o) => o.entries.type.literal),
)

function describeInvalidFrame(raw: unknown, issues: readonly v.BaseIssue<unknown>[]): string {
  const type = typeof raw === 'object' && raw !== null && 'type' in raw ? raw.type : null
  if (typeof type !== 'string') return 'The message has no command: a "type" string is required.'
  if (!KNOWN_COMMANDS.has(type))
    return `Unknown command ${type}. Known commands: ${[...KNOWN_COMMANDS].join(', ')}.`
  const issue = issues[0]
  const path = issue?.path?.map((item) => String(item.key)).join('.') ?? ''
  return `Invalid ${type} message${path ? ` at ${path}` : ''}: ${issue?.message ?? 'invalid'}`
}

function requestIdOf(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null || !('requestId' in raw)) return null
  const id = raw.requestId
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null
}

/** Logs what went wrong with one frame; the socket may already be gone, so nothing is sent. */
function logFrameFailure(error: unknown): void {
  if (error instanceof SocketClosedError) return
  console.error('results session: a frame failed', error)
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Output numbers whose manifest is on disk (complete outputs), ascending. */
async function listCompleteOutputNumbers(
  dataDir: string,
  simulationId: number,
  runId: number,
): Promise<number[]> {
  const directory = join(dataDir, runDirectory(simulationId, runId), 'outputs')
  let names: string[]
  try {
    names = await readdir(directory)
  } catch {
    return []
  }
  const numbers = await Promise.all(
    names
      .filter((name) => /^\d{1,12}$/.test(name))
      .map(async (name) => {
        try {
          await stat(join(directory, name, OUTPUT_MANIFEST_FILE))
          return Number(name)
        } catch {
          return null
        }
      }),
  )
  return numbers.filter((n): n is number => n !== null).sort((a, b) => a - b)
}

/** What sys.sync compares against: the states the client was last told, per simulation. */
interface SyncBaseline {
  runId: number | null
  viz: Map<number, OutputState>
  sensor: Map<number, OutputState>
}

function diffStates(
  baseline: Map<number, OutputState>,
  current: readonly { outputNo: number; state: OutputState }[],
): { outputNo: number; state: OutputState }[] {
  const changed = current.filter((entry) => baseline.get(entry.outputNo) !== entry.state)
  for (const entry of current) baseline.set(entry.outputNo, entry.state)
  return changed
}

/**
 * One /ws/results connection: sys.hello with the bearer access token first, then any number of
 * commands, each answered with frames carrying its requestId (spec/results.md §7 "Realtime
 * channels"). fetch.data and stats.calc run concurrently and are cancelable; bad messages get an
 * `error` frame and the session stays open; a closed socket aborts everything the session runs.
 */
export class ResultsSession {
  readonly #socket: WebSocket
  readonly #options: ResultsSessionOptions
  readonly #sender: FrameSender
  readonly #running = new Map<number, AbortController>()
  readonly #baselines = new Map<number, SyncBaseline>()
  readonly #pool = new BufferPool(4)
  #user: SessionUser | null = null
  #helloTimer: NodeJS.Timeout | undefined
  #heartbeat: NodeJS.Timeout | undefined
  #alive = true
  #queue: Promise<void> = Promise.resolve()

  constructor(socket: WebSocket, options: ResultsSessionOptions) {
    this.#socket = socket
    this.#options = options
    this.#sender = new FrameSender(socket)
  }

  /** Starts listening: hello timeout, heartbeat, messages, close. */
  start(): void {
    const socket = this.#socket
    this.#helloTimer = setTimeout(
      () => this.#close(RESULTS_CLOSE_CODES.helloTimeout, 'No sys.hello'),
      this.#options.helloTimeoutMs ?? DEFAULT_HELLO_TIMEOUT_MS,
    )
    this.#heartbeat = setInterval(() => {
      if (!this.#alive) {
        socket.terminate()
        return
      }
      this.#alive = false
      socket.ping()
    }, this.#options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS)
    socket.on('pong', () => {
      this.#alive = true
    })
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      this.#alive = true
      // Hello must finish (token checked) before the next message is looked at.
      // A failure inside one frame ends that frame only: the session (and the server) go on.
      const receive = () => this.#receive(data, isBinary).catch(logFrameFailure)
      if (this.#user === null) this.#queue = this.#queue.then(receive)
      else void this.#queue.then(receive)
    })
    socket.on('close', () => this.#dispose())
    socket.on('error', () => this.#dispose())
  }

  #dispose(): void {
    clearTimeout(this.#helloTimer)
    clearInterval(this.#heartbeat)
    for (const controller of this.#running.values()) controller.abort()
    this.#running.clear()
  }

  #close(code: number, reason: string): void {
    const socket = this.#socket
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
      socket.close(code, reason)
  }

  async #send(frame: ResultsServerFrame): Promise<void> {
    try {
      await this.#sender.sendJson(frame)
    } catch (error) {
      if (!(error instanceof SocketClosedError)) throw error
    }
  }

  async #receive(data: Buffer, isBinary: boolean): Promise<void> {
    let raw: unknown
    if (isBinary) {
      await this.#send({
        type: 'error',
        requestId: null,
        message: 'Binary messages are not accepted; send JSON text.',
      })
      return
    }
    try {
      raw = JSON.parse(data.toString('utf8'))
    } catch {
      await this.#send({
        type: 'error',
        requestId: null,
        message: 'The message is not valid JSON.',
      })
      return
    }
    const parsed = v.safeParse(ResultsClientFrameSchema, raw)
    if (!parsed.success) {
      await this.#send({
        type: 'error',
        requestId: requestIdOf(raw),
        message: describeInvalidFrame(raw, parsed.issues),
      })
      return
    }
    const frame = parsed.output
    if (frame.type === 'sys.heartbeat') {
      await this.#send({ type: 'sys.heartbeat.resp', requestId: frame.requestId })
      return
    }
    if (frame.type === 'sys.hello') {
      await this.#hello(frame)
      return
    }
    if (this.#user === null) {
      await this.#send({
        type: 'error',
        requestId: frame.requestId,
        message: 'Send sys.hello with an access token first.',
      })
      this.#close(RESULTS_CLOSE_CODES.unauthorized, 'Say sys.hello first')
      return
    }
    await this.#dispatch(frame, this.#user)
  }

  async #hello(frame: Extract<ResultsClientFrame, { type: 'sys.hello' }>): Promise<void> {
    if (frame.protocolVersion !== RESULTS_PROTOCOL_VERSION) {
      await this.#send({
        type: 'error',
        requestId: frame.requestId,
        message: `Protocol version ${RESULTS_PROTOCOL_VERSION} is required, not ${frame.protocolVersion}.`,
      })
      this.#close(RESULTS_CLOSE_CODES.protocolVersion, 'Protocol version')
      return
    }
    try {
      const { user } = await authenticateAccessToken(
        this.#options.db,
        this.#options.clock,
        frame.accessToken,
      )
      this.#user = user
    } catch (error) {
      await this.#send({ type: 'error', requestId: frame.requestId, message: messageOf(error) })
      this.#close(RESULTS_CLOSE_CODES.unauthorized, 'Unauthorized')
      return
    }
    clearTimeout(this.#helloTimer)
    await this.#send({
      type: 'sys.hello.resp',
      requestId: frame.requestId,
      protocolVersion: RESULTS_PROTOCOL_VERSION,
    })
  }

  /** Runs a command without holding up the next message; failures become `error` frames. */
  async #dispatch(frame: ResultsClientFrame, user: SessionUser): Promise<void> {
    if (frame.type === 'cancel') {
      const controller = this.#running.get(frame.targetRequestId)
      controller?.abort()
      await this.#send({
        type: 'cancel.resp',
        requestId: frame.requestId,
        targetRequestId: frame.targetRequestId,
        canceled: controller !== undefined,
      })
      return
    }
    if (frame.type === 'sys.heartbeat') {
      // The client's heartbeat (engine/results/ResultsSession.ts): any answer proves the session lives.
      await this.#send({ type: 'sys.heartbeat.resp', requestId: frame.requestId })
      return
    }
    if (!('simId' in frame)) return
    const controller = new AbortController()
    const requestId = frame.requestId
    if (frame.type === 'fetch.data' || frame.type === 'stats.calc') {
      if (this.#running.has(requestId)) {
        await this.#send({
          type: 'error',
          requestId,
          message: `Request ${requestId} is still running; use another requestId.`,
        })
        return
      }
      this.#running.set(requestId, controller)
    }
    void this.#runCommand(frame, user, controller.signal)
      .catch(async (error: unknown) => {
        if (error instanceof SocketClosedError) return
        await this.#send({ type: 'error', requestId, message: messageOf(error) })
      })
      .catch(logFrameFailure)
      .finally(() => {
        if (this.#running.get(requestId) === controller) this.#running.delete(requestId)
      })
  }

  async #simulation(
    user: SessionUser,
    simId: number,
  ): Promise<{
    simulation: SimulationRow
    runId: number | null
  }> {
    const simulation = await findAccessibleSimulation(this.#options.db, user, simId)
    return { simulation, runId: await resolveRunId(this.#options.dataDir, simulation) }
  }

  async #clips(simulationId: number): Promise<VolumeClip[]> {
    return (await this.#options.listVolumeClips?.(this.#options.db, simulationId)) ?? []
  }

  async #sensorStates(simulationId: number, runId: number | null): Promise<SensorOutputStates> {
    if (runId === null || !this.#options.listSensorOutputStates) return []
    return this.#options.listSensorOutputStates(this.#options.db, simulationId, runId)
  }

  async #outputInfos(simulationId: number, runId: number | null): Promise<OutputInfo[]> {
    if (runId === null) return []
    const [numbers, sensors] = await Promise.all([
      listCompleteOutputNumbers(this.#options.dataDir, simulationId, runId),
      this.#sensorStates(simulationId, runId),
    ])
    const sensorState = new Map(sensors.map((entry) => [entry.outputNo, entry.state]))
    return numbers.map((outputNo) => ({
      outputNo,
      states: { visualization: 'ready', sensor: sensorState.get(outputNo) ?? 'pending' },
      wallSensorState: 'unknown',
    }))
  }

  #baseline(simulationId: number, runId: number | null): SyncBaseline {
    const existing = this.#baselines.get(simulationId)
    if (existing && existing.runId === runId) return existing
    const fresh: SyncBaseline = { runId, viz: new Map(), sensor: new Map() }
    this.#baselines.set(simulationId, fresh)
    return fresh
  }

  async #runCommand(
    frame: Extract<ResultsClientFrame, { simId: number }>,
    user: SessionUser,
    signal: AbortSignal,
  ): Promise<void> {
    const { requestId } = frame
    const { simulation, runId } = await this.#simulation(user, frame.simId)
    const simulationId = simulation.id
    const dataDir = this.#options.dataDir
    switch (frame.type) {
      case 'fetch.available_outputs': {
        const outputs = await this.#outputInfos(simulationId, runId)
        const baseline = this.#baseline(simulationId, runId)
        diffStates(
          baseline.viz,
          outputs.map((o) => ({ outputNo: o.outputNo, state: o.states.visualization })),
        )
        diffStates(
          baseline.sensor,
          outputs.map((o) => ({ outputNo: o.outputNo, state: o.states.sensor })),
        )
        await this.#send({ type: 'fetch.available_outputs.resp', requestId, outputs })
        return
      }
      case 'sys.sync': {
        const outputs = await this.#outputInfos(simulationId, runId)
        const sensors = await this.#sensorStates(simulationId, runId)
        const baseline = this.#baseline(simulationId, runId)
        const vizUpdates = diffStates(
          baseline.viz,
          outputs.map((o) => ({ outputNo: o.outputNo, state: o.states.visualization })),
        )
        const sensorUpdates = diffStates(baseline.sensor, sensors)
        await this.#send({ type: 'sys.sync.resp', requestId, vizUpdates, sensorUpdates })
        return
      }
      case 'fetch.info': {
        const clips = await this.#clips(simulationId)
        const sensors =
          (await this.#options.listSensors?.(this.#options.db, dataDir, simulationId, runId)) ?? []
        const sensorObjects = sensors.map((sensor) => ({
          id: encodeObjectId('sensor', sensor.id),
          kind: 'sensor' as const,
          name: sensor.name,
        }))
        for (const outputNo of frame.outputs) {
          const manifest =
            runId === null ? null : await readOutputManifest(dataDir, simulationId, runId, outputNo)
          if (!manifest) {
            await this.#send({ type: 'fetch.info.missing_output', requestId, outputNo })
            continue
          }
          await this.#send({
            type: 'fetch.info.resp',
            requestId,
            outputNo,
            timeS: manifest.timeS,
            objects: [...describeOutputObjects(manifest), ...sensorObjects],
            masks: describeMasks(manifest, clips),
            stats: describeDatasetStats(manifest),
          })
        }
        return
      }
      case 'stats.info': {
        const numbers =
          runId === null ? [] : await listCompleteOutputNumbers(dataDir, simulationId, runId)
        // The first and last outputs name every object of the run (sets of objects do not change).
        const sample: OutputManifestInfo[] = []
        for (const outputNo of new Set([numbers[0], numbers.at(-1)])) {
          if (outputNo === undefined || runId === null) continue
          const manifest = await readOutputManifest(dataDir, simulationId, runId, outputNo)
          if (manifest) sample.push(manifest)
        }
        await this.#send({
          type: 'stats.info.resp',
          requestId,
          attributes: describeStatisticsAttributes(sample),
        })
        return
      }
      case 'fetch.data': {
        if (!frame.bundle) {
          await this.#send({
            type: 'error',
            requestId,
            message: 'fetch.data needs bundle true: attributes are served in bundles only.',
          })
          await this.#send({ type: 'fetch.data.done', requestId })
          return
        }
        await runFetchData(frame, {
          dataDir,
          simulationId,
          runId,
          clips: await this.#clips(simulationId),
          signal,
          sender: this.#sender,
          pool: this.#pool,
        })
        return
      }
      case 'stats.calc': {
        const emit = (statsFrame: ResultsServerFrame) => this.#sender.sendJson(statsFrame)
        const thread = this.#options.statisticsThread
        if (thread) {
          const clips = await this.#clips(simulationId)
          await thread.run(frame, { dataDir, simulationId, runId, clips }, emit, signal)
          return
        }
        await runStatisticsCalc(
          frame,
          {
            dataDir,
            simulationId,
            runId,
            clips: await this.#clips(simulationId),
            signal,
            pool: this.#pool,
            readSensorSamples: this.#options.readSensorSamples,
          },
          emit,
        )
        return
      }
    }
  }
}
