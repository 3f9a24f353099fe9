/**
 * Test doubles of the job machinery: scripted in-process executors that write the run files the
 * solver would (log lines, manifests, checkpoints), a complete setup, and a server built on them.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { createDefaultMaterial } from '../../domain/materials.ts'
import {
  OUTPUT_MANIFEST_FILE,
  checkpointFile,
  outputDirectory,
  runLogFile,
  type OutputManifest,
} from '../../domain/output/layout.ts'
import {
  PART_WITHOUT_FILES,
  defaultAppearance,
  defaultComponent,
  type Part,
} from '../../domain/parts.ts'
import { defaultSettings } from '../../domain/settings.ts'
import { RUN_STOP_MESSAGES, type RunLogLine, type RunResult } from '../../solver/run/types.ts'
import type { RunSetup } from '../../solver/setup.ts'
import { buildApp } from '../app.ts'
import { createClock } from '../clock.ts'
import type { DatabaseHandle } from '../db/connect.ts'
import { encodePartPointClouds, type PartPointCloud } from '../storage/pointClouds.ts'
import type { JobExecutors, SimulationJobInput } from './types.ts'

/** How the fake solver behaves; tests change it between runs. */
export interface FakeScript {
  /** Outputs to write before completing (output numbers continue after a resume). */
  outputs: number
  stepMs: number
  /** Delay before the run reports it started (the launch). */
  startDelayMs: number
  /** Credits each step consumes. */
  creditsPerStep: number
  /** The job thread fails before the run starts, with this message. */
  failBeforeStart?: string
  /** Fail at this step with this message. */
  failAtStep?: { step: number; message: string }
  /** Discretization: delay, errors, warnings. */
  discretizeMs: number
  discretizationErrors: string[]
  discretizationWarnings: string[]
  /** Particles the fake discretizer gives each part (a row along x from the part's translation). */
  pointsPerPart: number
}

export const DEFAULT_SCRIPT: FakeScript = {
  outputs: 3,
  stepMs: 30,
  startDelayMs: 20,
  creditsPerStep: 0.5,
  discretizeMs: 20,
  discretizationErrors: [],
  discretizationWarnings: [],
  pointsPerPart: 4,
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function writeRunFile(dataDir: string, relative: string, text: string, append = false) {
  const path = join(dataDir, relative)
  mkdirSync(dirname(path), { recursive: true })
  if (append) appendFileSync(path, text)
  else writeFileSync(path, text)
}

/** `count` particles per part in a row along x from its translation, as the job thread encodes them. */
function fakePointClouds(setup: RunSetup, count: number): PartPointCloud[] {
  const positions: number[] = []
  const partIds: number[] = []
  for (const part of setup.parts) {
    const [x, y, z] = part.shape.translation.map((c) => c ?? 0) as [number, number, number]
    for (let i = 0; i < count; i++) {
      positions.push(x + i * 0.01, y, z)
      partIds.push(part.id)
    }
  }
  return encodePartPointClouds(positions, partIds)
}

/** A discretizer summary (solver/discretizer DiscretizationSummary's counts) of fake clouds. */
function fakeSummary(setup: RunSetup, clouds: readonly PartPointCloud[]) {
  const parts = setup.parts.map((part) => {
    const fluid = part.component.type !== 'rigid'
    return {
      partId: part.id,
      name: part.name,
      role: fluid ? 'fluid' : 'wall',
      particleCount: clouds.find((c) => c.partId === part.id)?.count ?? 0,
    }
  })
  const count = (role: string) =>
    parts.filter((p) => p.role === role).reduce((sum, p) => sum + p.particleCount, 0)
  return {
    particleCount: count('fluid') + count('wall'),
    fluidCount: count('fluid'),
    wallCount: count('wall'),
    parts,
  }
}

/** Scripted executors; `calls` and `signals` record every simulation's input and abort signal. */
export function createFakeExecutors(script: FakeScript) {
  const calls: SimulationJobInput[] = []
  const signals: AbortSignal[] = []
  const executors: JobExecutors = {
    async simulation(input, callbacks, signal) {
      calls.push(input)
      signals.push(signal)
      const stopped = (lastOutputNo: number | null): RunResult => ({
        state: 'stopped',
        reason: 'user',
        message: RUN_STOP_MESSAGES.user,
        condition: null,
        timeS: 0,
        runtimeMs: 0,
        lastOutputNo,
        particles: 100,
        creditsConsumed: input.credits.consumedAtStart,
        deletedParticles: 0,
      })
      await delay(script.startDelayMs)
      if (signal.aborted) return stopped(null)
      if (script.failBeforeStart !== undefined) throw new Error(script.failBeforeStart)
      callbacks.onStarted()
      const first = (input.resumeFromOutput ?? -1) + 1
      let lastOutputNo: number | null = input.resumeFromOutput
      let credits = input.credits.consumedAtStart
      for (let outputNo = first; outputNo < script.outputs; outputNo++) {
        await delay(script.stepMs)
        if (signal.aborted) return { ...stopped(lastOutputNo), creditsConsumed: credits }
        if (script.failAtStep?.step === outputNo) throw new Error(script.failAtStep.message)
        credits += script.creditsPerStep
        const line: RunLogLine = {
          progress: (outputNo + 1) / script.outputs,
          time: (outputNo + 1) * 100,
          runtime: (outputNo + 1) * 1000,
          runtimeLeft: (script.outputs - outputNo - 1) * 1000,
          particles: 100,
          output: outputNo,
          dt: 1e-4,
          step: outputNo * 10,
          fluidParticles: 80,
          deletedParticles: 0,
          creditsConsumed: credits,
          at: new Date().toISOString(),
          level: 'INFO',
        }
        const manifest: OutputManifest = {
          formatVersion: '1',
          simulationId: input.simulationId,
          runId: input.runId,
          outputNo,
          timeS: line.time / 1000,
          objects: [],
        }
        const { simulationId, runId, dataDir } = input
        writeRunFile(dataDir, checkpointFile(simulationId, runId, outputNo), 'checkpoint')
        writeRunFile(
          dataDir,
          join(outputDirectory(simulationId, runId, outputNo), OUTPUT_MANIFEST_FILE),
          JSON.stringify(manifest),
        )
        lastOutputNo = outputNo
        callbacks.onOutput(manifest)
        writeRunFile(dataDir, runLogFile(simulationId, runId), `${JSON.stringify(line)}\n`, true)
        callbacks.onLog(line)
        const available = input.credits.available
        if (available !== null && credits - input.credits.consumedAtStart >= available)
          return {
            ...stopped(lastOutputNo),
            reason: 'credits',
            message: RUN_STOP_MESSAGES.credits,
            creditsConsumed: credits,
          }
      }
      return {
        state: 'completed',
        reason: 'end_time',
        message: RUN_STOP_MESSAGES.endTime,
        condition: null,
        timeS: script.outputs * 0.1,
        runtimeMs: script.outputs * 1000,
        lastOutputNo,
        particles: 100,
        creditsConsumed: credits,
        deletedParticles: 0,
      }
    },
    async discretization(setup, signal, onProgress) {
      const steps = 5
      for (let i = 0; i < steps; i++) {
        await delay(script.discretizeMs / steps)
        if (signal.aborted) throw new Error('canceled')
        onProgress((i + 1) / steps)
      }
      const failed = script.discretizationErrors.length > 0
      const clouds = failed ? [] : fakePointClouds(setup, script.pointsPerPart)
      return {
        errors: script.discretizationErrors.map((description) => ({ description, partId: 1 })),
        warnings: script.discretizationWarnings.map((description) => ({ description, partId: 1 })),
        summary: failed ? null : fakeSummary(setup, clouds),
        pointClouds: clouds,
      }
    },
  }
  return { executors, calls, signals }
}

/** A setup the checklist passes: water, one fluid cube. */
export function completeSetup(simulationId: number): RunSetup {
  const part: Part = {
    id: 1,
    simulationId,
    name: 'Water column',
    kind: 'fluid',
    createdAt: '',
    updatedAt: '',
    createdBy: null,
    organizationId: null,
    seedPoint: null,
    materialId: 0,
    component: defaultComponent('filling'),
    appearance: defaultAppearance(1),
    shape: {
      type: 'stl_cube',
      translation: [0, 0, 0],
      scale: [1, 1, 1],
      rotation: [0, 0, 0],
      flipNormals: false,
      dimensions: [1, 1, 1],
      info: null,
    },
    hasWarnings: false,
    warnings: [],
    ...PART_WITHOUT_FILES,
  }
  return {
    simulationId,
    settings: { ...defaultSettings(), calcDomainActive: true },
    materials: [createDefaultMaterial(0, 1, 'now')],
    parts: [part],
    movements: [],
    meshes: {},
  }
}

/** A setup the checklist refuses: no parts ('Add your first object'). */
export function emptySetup(simulationId: number): RunSetup {
  return { ...completeSetup(simulationId), parts: [] }
}

export interface JobsTestServer {
  app: FastifyInstance
  baseUrl: string
  dataDir: string
  close(): Promise<void>
}

/** An app on an existing, migrated database with the given job options. */
export async function startJobsApp(
  handle: DatabaseHandle,
  options: {
    executors: JobExecutors
    loadSetup?: (simulationId: number) => Promise<RunSetup>
    dataDir?: string
  },
): Promise<JobsTestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'dive-jobs-'))
  const app = await buildApp({
    db: handle.db,
    dataDir,
    clock: createClock(),
    checkResponses: true,
    distDir: join(dataDir, 'no-dist'),
    jobs: {
      executors: options.executors,
      loadSetup: options.loadSetup ?? ((id) => Promise.resolve(completeSetup(id))),
    },
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  return {
    app,
    baseUrl,
    dataDir,
    close: async () => {
      await app.close()
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
