import type { WebSocket } from 'ws'
import * as v from 'valibot'
import type { VolumeClip } from '../../../domain/meshes.ts'
import type { OutputInfo } from '../../../domain/results.ts'
import {
  RESULTS_PROTOCOL_VERSION,
  ResultsClientFrameSchema,
  type ResultsClientFrame,
  type ResultsServerFrame,
} from '../../../domain/resultsProtocol.ts'
import { findAccessibleSimulation } from '../../api/access.ts'
import type { SessionUser } from '../../api/context.ts'
import { sessionRegistryFor } from '../../auth/sessionRegistry.ts'
import { authenticateAccessToken } from '../../auth/sessions.ts'
import type { SimulationRow } from '../../db/schema.ts'
import { resolveRunId } from '../outputFiles.ts'
import { BufferPool } from '../statistics/outputReader.ts'
import { runStatisticsCalc } from '../statistics/statisticsCalc.ts'
import { REMOTE_STATISTICS_MIN_OUTPUTS, runRemoteStatistics } from '../statistics/statisticsTask.ts'
import { serverTaskQueueFor } from '../../jobs/queue/tasks.ts'
import { runFetchData } from './fetchData.ts'
import { FrameSender, SocketClosedError } from './FrameSender.ts'
import { describeInvalidFrame, logFrameFailure, messageOf, requestIdOf } from './frames.ts'
import { sendFetchInfo, sendStatsInfo } from './infoCommands.ts'
import { diffStates, listCompleteOutputNumbers, type SyncBaseline } from './outputStates.ts'
import {
  RESULTS_CLOSE_CODES,
  type ResultsSessionOptions,
  type SensorOutputStates,
} from './sessionOptions.ts'

export {
  RESULTS_CLOSE_CODES,
  type ResultsSessionOptions,
  type ResultsSessionSources,
  type SensorOutputStates,
} from './sessionOptions.ts'

const DEFAULT_HELLO_TIMEOUT_MS = 10_000
const DEFAULT_HEARTBEAT_MS = 30_000

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
  /** Stops watching the session the socket said hello with (SessionRegistry). */
  #unwatchSession: (() => void) | undefined
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
    this.#unwatchSession?.()
    this.#unwatchSession = undefined
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
      const { db, clock } = this.#options
      const auth = await authenticateAccessToken(db, clock, frame.accessToken)
      this.#user = auth.user
      // Logout, revocation or the token's expiry closes the socket (no query per message).
      this.#unwatchSession?.()
      this.#unwatchSession = sessionRegistryFor(db, clock).watch(
        auth.sessionId,
        auth.accessExpiresAtMs,
        () => this.#close(RESULTS_CLOSE_CODES.sessionEnded, 'Session ended'),
      )
      // The socket closed while the token was checked: #dispose has run already.
      if (this.#socket.readyState !== this.#socket.OPEN) this.#dispose()
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
        const sensors =
          (await this.#options.listSensors?.(this.#options.db, dataDir, simulationId, runId)) ?? []
        const place = { dataDir, simulationId, runId }
        const clips = await this.#clips(simulationId)
        await sendFetchInfo(frame, place, sensors, clips, (reply) => this.#send(reply))
        return
      }
      case 'stats.info': {
        const place = { dataDir, simulationId, runId }
        await sendStatsInfo(frame, place, (reply) => this.#send(reply))
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
        // Remote workers: a range goes to one of them (statisticsTask.ts says why).
        const queue = serverTaskQueueFor(this.#options.db)
        if (queue && frame.outputs.length >= REMOTE_STATISTICS_MIN_OUTPUTS) {
          const context = { simulationId, runId, clips: await this.#clips(simulationId) }
          await runRemoteStatistics(queue, frame, context, emit, signal)
          return
        }
        const thread = this.#options.statisticsThreads
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
