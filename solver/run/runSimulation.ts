/**
 * runSimulation: one run of a simulation, as a job worker thread calls it. Creates the SPH solver
 * from the setup and the discretization's particles, writes output 0 (or restores the checkpoint
 * of the output it resumes from), then steps to every output time (k × outputTimeInterval, the
 * last one at endTime), writing each output, its checkpoint and a log line; progress log lines
 * in between. After every step it checks the abort signal, the conditions, the credits and the
 * fluid left. It yields to the event loop every few tens of milliseconds so that an abort (a
 * message to the worker) is seen.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { checkpointFile, runLogFile, runNumericsFile } from '../../domain/output/layout.ts'
import { runNumericsMessage, type RunNumerics } from '../../domain/runNumerics.ts'
import { formatNumber } from '../../domain/units.ts'
import { isConditionMet } from '../../domain/conditions.ts'
import { SolverSetupError } from '../sph/config.ts'
import type { SolverStepReport } from '../sph/SphSolver.ts'
import { addProfile } from '../sph/threads.ts'
import { rotatingFrameMessage } from '../sph/rotatingFrame.ts'
import { createRunBackend, type RunBackend, type RunSensorProbes } from './runBackend.ts'
import { describeRunNumerics } from './numerics.ts'
import { checkRunStart, createRunSolverConfig } from './runConfig.ts'
import { openSensorSampler, sensorPoints, type SensorSampler } from './sensorSeries.ts'
import { outputNames, writeFileAtomically } from './outputs.ts'
import { OutputQueue } from './outputQueue.ts'
import { decodeRunCheckpoint } from './runCheckpoint.ts'
import type {
  RunCondition,
  RunEndReason,
  RunEndState,
  RunLogLine,
  RunResult,
  RunSimulationOptions,
} from './types.ts'
import { RUN_STOP_MESSAGES } from './types.ts'

/** Longest stretch of stepping without yielding to the event loop. */
const YIELD_INTERVAL_MS = 50
const DEFAULT_LOG_INTERVAL_MS = 1000
const MS_PER_MINUTE = 60_000
const MS_PER_HOUR = 3_600_000

export { checkRunStart, createRunSolverConfig, solverMaterialOf } from './runConfig.ts'

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

interface RunState {
  outputNo: number
  runtimeOffsetMs: number
  creditsAtStart: number
  triggered: Set<number>
}

/** Runs a simulation; see the module comment and RunSimulationOptions. */
export async function runSimulation(options: RunSimulationOptions): Promise<RunResult> {
  const wallStart = performance.now()
  const { setup, dataDir, simulationId, runId, signal } = options
  const settings = setup.settings
  const logPath = join(dataDir, runLogFile(simulationId, runId))
  await mkdir(dirname(logPath), { recursive: true })
  const credits = options.credits ?? null
  const state: RunState = {
    outputNo: -1,
    runtimeOffsetMs: 0,
    creditsAtStart: credits?.consumedAtStart ?? 0,
    triggered: new Set(),
  }
  let last: SolverStepReport | null = null
  let startTimeS = 0
  /** The run's outputs, the one in flight among them. */
  const outputs = new OutputQueue({
    dataDir,
    simulationId,
    runId,
    names: outputNames(setup),
    flush: async () => {
      await sampler?.flush()
    },
  })
  /** The sensors sampled while stepping (null: none asked for it). */
  let sampler: SensorSampler | null = null
  /** Process CPU time and wall clock when the stepping began (null before). */
  let busySince: { cpu: NodeJS.CpuUsage; wallMs: number } | null = null
  /** The numerical parameters logged at the start (rewritten with the cores busy at the end). */
  let startNumerics: RunNumerics | null = null
  let busyLogged = false
  const busy = () => {
    if (!busySince) return null
    const cpu = process.cpuUsage(busySince.cpu)
    const cpuS = (cpu.user + cpu.system) / 1e6
    const wallS = (performance.now() - busySince.wallMs) / 1000
    return { cpuS, wallS, coresBusy: wallS > 0 ? cpuS / wallS : 0 }
  }

  const runtimeMs = () => state.runtimeOffsetMs + (performance.now() - wallStart)
  const creditsThisRun = () =>
    credits
      ? (options.threads * (performance.now() - wallStart) * credits.perCoreHour) / MS_PER_HOUR
      : 0
  const creditsConsumed = () => state.creditsAtStart + creditsThisRun()

  const endTimeS = settings.endTime ?? 0
  const logLine = (
    level: RunLogLine['level'],
    message?: string,
    numerics?: RunNumerics,
    at: SolverStepReport | null = last,
  ): RunLogLine => {
    const timeS = at?.timeS ?? startTimeS
    const elapsedWallMs = performance.now() - wallStart
    const advancedS = timeS - startTimeS
    const runtimeLeft =
      advancedS > 0 ? Math.max(0, (elapsedWallMs / advancedS) * (endTimeS - timeS)) : null
    return {
      progress: endTimeS > 0 ? Math.min(1, Math.max(0, timeS / endTimeS)) : 0,
      time: timeS * 1000,
      runtime: runtimeMs(),
      runtimeLeft,
      particles: at?.particleCount ?? options.particles.kinds.length,
      output: state.outputNo,
      dt: at?.dtS ?? 0,
      step: at?.step ?? 0,
      fluidParticles: at?.fluidCount ?? 0,
      deletedParticles: at ? at.deletedOutside + at.deletedInvalid : 0,
      creditsConsumed: creditsConsumed(),
      at: new Date().toISOString(),
      level,
      ...(message === undefined ? {} : { message }),
      ...(numerics === undefined ? {} : { numerics }),
      ...(busySince === null ? {} : { coresBusy: busy()!.coresBusy }),
    }
  }
  const log = async (
    level: RunLogLine['level'],
    message?: string,
    numerics?: RunNumerics,
    at: SolverStepReport | null = last,
  ): Promise<void> => {
    const line = logLine(level, message, numerics, at)
    await appendFile(logPath, `${JSON.stringify(line)}\n`)
    options.onLog?.(line)
  }
  const finish = async (
    endState: RunEndState,
    reason: RunEndReason,
    message: string,
    condition: RunCondition | null = null,
  ): Promise<RunResult> => {
    // the output in flight is written before the run ends (its number is the result's)
    await outputs.settle()
    await sampler?.flush()
    await logCoresBusy()
    await log(
      endState === 'completed' ? 'SUCCESS' : endState === 'failed' ? 'ERROR' : 'INFO',
      message,
    )
    return {
      state: endState,
      reason,
      message,
      condition,
      timeS: last?.timeS ?? startTimeS,
      runtimeMs: runtimeMs(),
      lastOutputNo: state.outputNo >= 0 ? state.outputNo : null,
      particles: last?.particleCount ?? options.particles.kinds.length,
      creditsConsumed: creditsConsumed(),
      deletedParticles: last ? last.deletedOutside + last.deletedInvalid : 0,
    }
  }

  const backendKind = options.backend ?? 'cpu'
  const problems = checkRunStart(options)
  if (problems.length > 0) {
    const reason = problems.some((p) => p.startsWith('Unsupported')) ? 'unsupported' : 'error'
    return finish('failed', reason, problems.join(' '))
  }
  let solver: RunBackend
  try {
    solver = await createRunBackend(backendKind, createRunSolverConfig(options))
  } catch (error) {
    if (error instanceof SolverSetupError) return finish('failed', 'unsupported', error.message)
    throw error
  }
  try {
    last = solver.report()
    return await runSolver(solver)
  } finally {
    // an output still in flight (the run failed) reads the solver's buffers: let it end first
    await outputs.settle().catch(() => {})
    await solver.dispose()
  }

  /** The numerical parameters: stored beside the log and logged as its second line. */
  async function logNumerics(solver: RunBackend): Promise<void> {
    const numerics = describeRunNumerics(solver, options)
    startNumerics = numerics
    await writeFileAtomically(
      join(dataDir, runNumericsFile(simulationId, runId)),
      JSON.stringify(numerics),
    )
    await log('INFO', runNumericsMessage(numerics), numerics)
    const frame = rotatingFrameMessage(solver.describe().constants.rotation)
    if (frame) await log('INFO', frame)
  }

  /**
   * At the end of a run that stepped: the cores it kept busy, logged against the speedup its work
   * split expected, and added to the numerical parameters (the run's details).
   */
  async function logCoresBusy(): Promise<void> {
    const measured = busy()
    if (!measured || !startNumerics || busyLogged || measured.wallS <= 0) return
    const { threads, expectedSpeedup } = startNumerics
    const numerics: RunNumerics = {
      ...startNumerics,
      coresBusy: measured.coresBusy,
      cpuSeconds: measured.cpuS,
      wallSeconds: measured.wallS,
    }
    await writeFileAtomically(
      join(dataDir, runNumericsFile(simulationId, runId)),
      JSON.stringify(numerics),
    )
    const expected =
      expectedSpeedup !== undefined && threads > 1
        ? `; the work split expected a speedup of ${formatNumber(expectedSpeedup, 3)} × on ${threads} threads`
        : ''
    await log(
      'INFO',
      `Cores busy: ${formatNumber(measured.coresBusy, 3)} of ${threads} (${formatNumber(measured.cpuS, 3)} s of CPU time in ${formatNumber(measured.wallS, 3)} s of stepping)${expected}.`,
    )
    busyLogged = true
  }

  async function runSolver(solver: RunBackend): Promise<RunResult> {
    const interval = settings.outputTimeInterval!
    /** The next output's number: captured ones count, written or not (state.outputNo: written). */
    let nextOutputNo = 0
    const writeOutputAndCheckpoint = async (): Promise<void> => {
      const started = performance.now()
      const outputNo = nextOutputNo++
      await outputs.start(
        solver,
        (capture) => ({
          version: 1,
          outputNo,
          timeS: capture.report.timeS,
          runtimeMs: runtimeMs(),
          creditsConsumed: creditsConsumed(),
          triggeredConditionIds: [...state.triggered],
        }),
        async (manifest, capture) => {
          state.outputNo = outputNo
          options.onOutput?.(manifest)
          await log('INFO', `Output ${outputNo} written.`, undefined, capture.report)
        },
      )
      addProfile('output', performance.now() - started)
    }

    if (options.resumeFromOutput != null) {
      const fromRun = options.resumeFromRunId ?? runId
      const path = join(dataDir, checkpointFile(simulationId, fromRun, options.resumeFromOutput))
      let checkpoint: ReturnType<typeof decodeRunCheckpoint>
      try {
        checkpoint = decodeRunCheckpoint(new Uint8Array(await readFile(path)))
        solver.restore(checkpoint.solverBytes)
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        return finish(
          'failed',
          'error',
          `Cannot resume from output ${options.resumeFromOutput}: ${reason}`,
        )
      }
      const { header } = checkpoint
      state.outputNo = header.outputNo
      state.runtimeOffsetMs = header.runtimeMs
      state.creditsAtStart = credits?.consumedAtStart ?? header.creditsConsumed
      for (const id of header.triggeredConditionIds) state.triggered.add(id)
      nextOutputNo = header.outputNo + 1
      startTimeS = header.timeS
      last = solver.report()
      await log('INFO', `Resumed from output ${header.outputNo} at ${header.timeS} s.`)
      await logNumerics(solver)
    } else {
      await log('INFO', 'Simulation started.')
      await logNumerics(solver)
    }
    if (solver.adapter !== null) await log('INFO', `Running on the GPU: ${solver.adapter}.`)
    const resumed = options.resumeFromOutput != null
    const sensors = setup.sensors ?? []
    // the sensors' points probed at the solver's rate (on the GPU: read back where a sample is due)
    const probes: RunSensorProbes | null =
      sensors.length > 0 ? solver.sensors(sensorPoints(sensors)) : null
    sampler = probes
      ? await openSensorSampler(probes.read, {
          dataDir,
          simulationId,
          runId,
          sensors,
          startTimeS,
          resumed,
        })
      : null
    if (!resumed) {
      probes?.select(-1)
      sampler?.sample(startTimeS)
      await writeOutputAndCheckpoint()
    }

    busySince = { cpu: process.cpuUsage(), wallMs: performance.now() }
    const logIntervalMs = options.logIntervalMs ?? DEFAULT_LOG_INTERVAL_MS
    let lastLogMs = performance.now()
    let lastYieldMs = performance.now()
    const conditions = options.conditions ?? []

    // values of the watched quantities in THRESHOLD_UNITS
    const watched = (report: SolverStepReport) => ({
      time: report.timeS * 1000,
      runtime: runtimeMs() / MS_PER_MINUTE,
      credits: creditsConsumed(),
      particle_nbr: report.particleCount,
    })

    /** The reason to stop after this step, or null. */
    const checkStop = async (report: SolverStepReport): Promise<RunResult | null> => {
      if (signal.aborted) return finish('stopped', 'user', RUN_STOP_MESSAGES.user)
      const values = watched(report)
      for (const condition of conditions) {
        if (state.triggered.has(condition.id)) continue
        const value = values[condition.valueType]
        if (!isConditionMet(condition, value)) continue
        state.triggered.add(condition.id)
        options.onCondition?.(condition, value)
        if (condition.action === 'warning') {
          await log('WARN', RUN_STOP_MESSAGES.warning[condition.valueType])
          continue
        }
        return finish(
          'stopped',
          'condition',
          RUN_STOP_MESSAGES.condition[condition.valueType],
          condition,
        )
      }
      if (credits?.available != null && creditsThisRun() >= credits.available)
        return finish('stopped', 'credits', RUN_STOP_MESSAGES.credits)
      if (report.fluidCount === 0) return finish('stopped', 'no_fluid', RUN_STOP_MESSAGES.noFluid)
      return null
    }

    for (;;) {
      const targetS = Math.min(nextOutputNo * interval, endTimeS)
      const timeS = last?.timeS ?? startTimeS
      if (timeS >= endTimeS - 1e-12 * Math.max(1, endTimeS)) break
      // a remainder below 1e-9 of a step is rounding, not a step to take
      while (targetS - (last?.timeS ?? startTimeS) > 1e-9 * Math.max(last?.dtS ?? 0, 1e-12)) {
        const stepStarted = performance.now()
        const reports = await solver.advance(targetS)
        const stepEnded = performance.now()
        addProfile('step', stepEnded - stepStarted)
        // the GPU's probes of the batch's steps where a sample is due
        if (sampler && probes && solver.kind === 'gpu')
          await probes.load(sampler.due(reports.map((report) => report.timeS)))
        // the GPU reports a batch of steps: conditions see each (the state is the batch's end)
        for (const [k, report] of reports.entries()) {
          last = report
          probes?.select(k)
          sampler?.sample(report.timeS)
          const stop = await checkStop(report)
          if (stop) return stop
        }
        addProfile('afterStep', performance.now() - stepEnded)
        const now = performance.now()
        if (now - lastLogMs >= logIntervalMs) {
          lastLogMs = now
          await log('INFO')
        }
        if (now - lastYieldMs >= YIELD_INTERVAL_MS) {
          await yieldToEventLoop()
          lastYieldMs = performance.now()
          if (signal.aborted) return finish('stopped', 'user', RUN_STOP_MESSAGES.user)
        }
      }
      await writeOutputAndCheckpoint()
      lastLogMs = performance.now()
      if (signal.aborted) return finish('stopped', 'user', RUN_STOP_MESSAGES.user)
    }
    return finish('completed', 'end_time', RUN_STOP_MESSAGES.endTime)
  }
}
