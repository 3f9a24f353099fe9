import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createDefaultMaterial } from '../../domain/materials.ts'
import type { OutputManifest } from '../../domain/output/layout.ts'
import {
  checkpointFile,
  objectFile,
  OUTPUT_MANIFEST_FILE,
  outputDirectory,
  runLogFile,
  runNumericsFile,
} from '../../domain/output/layout.ts'
import { RunNumericsSchema, type RunNumerics } from '../../domain/runNumerics.ts'
import { defaultSettings, type SimulationSettings } from '../../domain/settings.ts'
import { buildTankParticles, WATER_ID } from '../sph/scenarios.ts'
import { runSimulation } from './runSimulation.ts'
import type { RunCondition, RunLogLine, RunSimulationOptions } from './types.ts'
import { RUN_STOP_MESSAGES } from './types.ts'
import { tempDirectories } from './testDirectories.ts'

const dataDirectory = tempDirectories('dive-run-')

const DP = 0.025

/** A small dam break: 4 × 4 × 6 fluid particles in an open tank, water with c0 from 10√(gH). */
function runOptions(
  dataDir: string,
  settings: Partial<SimulationSettings> = {},
  extra: Partial<RunSimulationOptions> = {},
): RunSimulationOptions {
  const water = { ...createDefaultMaterial(WATER_ID, 7, '2026-01-01T00:00:00Z'), speedOfSound: 1 }
  return {
    setup: {
      simulationId: 7,
      settings: {
        ...defaultSettings(),
        particleDiameter: DP,
        endTime: 0.06,
        outputTimeInterval: 0.02,
        ...settings,
      },
      materials: [water],
      parts: [],
      movements: [],
      meshes: {},
    },
    particles: buildTankParticles({
      dp: DP,
      tank: [0.3, 0.1, 0.2],
      fluidMin: [0, 0, 0],
      fluidMax: [0.1, 0.1, 0.15],
      closed: false,
      wallLayers: 3,
    }),
    dataDir,
    simulationId: 7,
    runId: 3,
    threads: 1,
    signal: new AbortController().signal,
    ...extra,
  }
}

async function readManifest(dataDir: string, outputNo: number): Promise<OutputManifest> {
  const path = join(dataDir, outputDirectory(7, 3, outputNo), OUTPUT_MANIFEST_FILE)
  return JSON.parse(await readFile(path, 'utf8')) as OutputManifest
}

async function readLog(dataDir: string): Promise<RunLogLine[]> {
  const text = await readFile(join(dataDir, runLogFile(7, 3)), 'utf8')
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunLogLine)
}

describe('runSimulation', () => {
  it('runs the default settings to the end time, writing every output, checkpoint and log line', async () => {
    const dataDir = await dataDirectory()
    const manifests: OutputManifest[] = []
    const result = await runSimulation({
      ...runOptions(dataDir),
      onOutput: (manifest) => manifests.push(manifest),
    })
    expect(result).toMatchObject({
      state: 'completed',
      reason: 'end_time',
      message: RUN_STOP_MESSAGES.endTime,
      lastOutputNo: 3,
    })
    expect(result.timeS).toBeCloseTo(0.06, 12)
    expect(manifests.map((m) => m.outputNo)).toEqual([0, 1, 2, 3])
    expect(manifests.map((m) => m.timeS)).toEqual(
      [0, 0.02, 0.04, 0.06].map((t): unknown => expect.closeTo(t, 12)),
    )
    const manifest = await readManifest(dataDir, 2)
    expect(manifest.objects.map((o) => [o.objectId, o.kind, o.name])).toEqual([
      ['fluid-1', 'fluid', 'Fluid 2'],
      ['wall-2', 'wall_boundary', 'Part 2'],
    ])
    const fluid = manifest.objects[0]!
    expect(fluid.columns).toEqual(['vx', 'vy', 'vz', 'pressure', 'density', 'mass'])
    expect(fluid.particleCount.full).toBe(4 * 4 * 6)
    for (const object of manifest.objects) {
      for (const dataset of ['full', 'fast'] as const) {
        const bytes = await readFile(join(dataDir, objectFile(7, 3, 2, object.objectId, dataset)))
        expect(bytes.length).toBe(object.sizeBytes[dataset])
      }
    }
    const checkpoints = await readdir(join(dataDir, 'simulations/7/runs/3/checkpoints'))
    expect(checkpoints.sort()).toEqual(['000000.ckpt', '000001.ckpt', '000002.ckpt', '000003.ckpt'])
    const log = await readLog(dataDir)
    const lastLine = log.at(-1)!
    expect(lastLine).toMatchObject({
      level: 'SUCCESS',
      progress: 1,
      output: 3,
      particles: result.particles,
    })
    expect(lastLine.time).toBeCloseTo(60, 9)
    expect(lastLine.dt).toBeGreaterThan(0)
    expect(log.filter((line) => line.message?.startsWith('Output ')).length).toBe(4)
  }, 30_000)

  it('names the rotating frame in the log and counts its centrifugal head in c0', async () => {
    const dataDir = await dataDirectory()
    const rotation = {
      rotatingSystem: true,
      rotationVelocity: 4,
      rotationAxis: [0, 0, 1] as [number, number, number],
      rotationCenter: [0, 0, 0] as [number, number, number],
    }
    await runSimulation(runOptions(dataDir, { endTime: 0.02, ...rotation }))
    const log = await readLog(dataDir)
    expect(log[2]!.message).toBe(
      'Rotating system: positions and velocities are in the frame turning at 4 rad/s about the axis (0, 0, 1) through (0, 0, 0) m; walls are at rest in it.',
    )
    // the farthest fluid particle is at (0.0875, 0.0875): H = 0.15 + Ω²R²/(2g) = 0.162487 m
    const numerics = log[1]!.numerics!
    expect(numerics.fluidHeight).toBeCloseTo(0.15 + (16 * 2 * 0.0875 ** 2) / (2 * 9.81), 9)
    expect(numerics.speedOfSoundRule).toBe('gravity_wave')
    expect(numerics.speedOfSound).toBeCloseTo(10 * Math.sqrt(9.81 * numerics.fluidHeight), 9)
  })

  it('logs and stores the numerical parameters it runs with, and how c0 was chosen', async () => {
    const dataDir = await dataDirectory()
    await runSimulation(runOptions(dataDir, { endTime: 0.02 }, { threads: 2 }))
    const log = await readLog(dataDir)
    expect(log[0]!.message).toBe('Simulation started.')
    const stored = v.parse(
      RunNumericsSchema,
      JSON.parse(await readFile(join(dataDir, runNumericsFile(7, 3)), 'utf8')),
    )
    // the end adds the cores the run kept busy (issue 22 item 4) to what the start logged
    const { coresBusy, cpuSeconds, wallSeconds, ...atStart } = stored
    expect(log[1]!.numerics).toEqual(atStart)
    expect(coresBusy).toBeGreaterThan(0)
    expect(coresBusy).toBeCloseTo(cpuSeconds! / wallSeconds!, 9)
    const busyLine = log.find((line) => line.message?.startsWith('Cores busy: '))
    expect(busyLine?.message).toMatch(
      /^Cores busy: [0-9.]+ of 2 \([0-9.e-]+ s of CPU time in [0-9.e-]+ s of stepping\); the work split expected a speedup of [0-9.]+ × on 2 threads\.$/,
    )
    expect(log.at(-1)!.coresBusy).toBeGreaterThan(0)
    // 4 × 4 × 6 fluid particles 0.025 m apart: H = 0.15 m, 10·√(9.81 · 0.15) = 12.1305 m/s
    expect(stored).toEqual<RunNumerics>({
      kernel: 'wendland',
      smoothingLengthFactor: 1.5,
      smoothingLength: expect.closeTo(0.0375, 12) as number,
      particleDiameter: DP,
      speedOfSound: expect.closeTo(12.1305, 4) as number,
      speedOfSoundRule: 'gravity_wave',
      speedOfSoundCandidates: {
        material: 1,
        gravityWave: expect.closeTo(12.1305, 4) as number,
        initialSpeed: 0,
      },
      speedOfSoundCoefficient: 10,
      fluidHeight: expect.closeTo(0.15, 9) as number,
      viscosity: 'artificial+laminar',
      artificialViscosityAlpha: 0.01,
      laminarViscosity: 1e-6,
      densityDiffusion: 'fourtakas',
      densityDiffusionDelta: 0.1,
      cfl: 0.2,
      acousticCfl: 0.4,
      integrator: 'rk4_dual_step',
      integrationScheme: 'dual_timestep_rk_4',
      fixedTimeStepS: null,
      shifting: 'lyu21',
      wall: 'riemann',
      densityThreshold: 0.3,
      fluidParticles: 96,
      wallParticles: stored.wallParticles,
      threads: 2,
      expectedSpeedup: expect.any(Number) as number,
      coresBusy,
      cpuSeconds,
      wallSeconds,
    })
    // the work split: 2 threads with at most 5 % more than their mean share of the force pass
    expect(stored.expectedSpeedup).toBeGreaterThan(2 / 1.05)
    expect(stored.expectedSpeedup).toBeLessThanOrEqual(2)
    expect(stored.wallParticles).toBeGreaterThan(500)
    expect(log[1]!.message).toContain(
      'Numerical parameters: Kernel Wendland C2; Smoothing length h = 1.5 dp = 0.0375 m;',
    )
    expect(log[1]!.message).toContain(
      'Speed of sound c0 = 12.13 m/s: 10·√(g·H), H = 0.15 m (material 1 m/s); Viscosity artificial α = 0.01, laminar ν = 1e-6 m²/s; Density diffusion Fourtakas, δ = 0.1; Time step variable, CFL 0.2 (acoustic 0.4); Integrator dual-step RK4 (dual_timestep_rk_4); Shifting lyu21; Walls Riemann wall; Density limiter ±30 %; Particles 96 fluid + ',
    )
  }, 30_000)

  it('resumes from a checkpoint and writes the same output as an uninterrupted run', async () => {
    const straightDir = await dataDirectory()
    await runSimulation(runOptions(straightDir, { shifting: 'lyu21' }))
    const stoppedDir = await dataDirectory()
    const controller = new AbortController()
    const stopped = await runSimulation({
      ...runOptions(stoppedDir, { shifting: 'lyu21' }, { signal: controller.signal }),
      onOutput: (manifest) => {
        if (manifest.outputNo === 1) controller.abort()
      },
    })
    expect(stopped).toMatchObject({ state: 'stopped', reason: 'user', lastOutputNo: 1 })
    expect(stopped.message).toBe(RUN_STOP_MESSAGES.user)
    const resumed = await runSimulation(
      runOptions(stoppedDir, { shifting: 'lyu21' }, { resumeFromOutput: 1 }),
    )
    expect(resumed).toMatchObject({ state: 'completed', lastOutputNo: 3 })
    for (const outputNo of [2, 3]) {
      const file = objectFile(7, 3, outputNo, 'fluid-1', 'full')
      const expected = await readFile(join(straightDir, file))
      const actual = await readFile(join(stoppedDir, file))
      expect(actual.equals(expected)).toBe(true)
    }
  }, 60_000)

  it('stops at a stop condition with its message and reports warning conditions once', async () => {
    const dataDir = await dataDirectory()
    const conditions: RunCondition[] = [
      { id: 1, action: 'warning', valueType: 'time', operator: '>=', threshold: 10 },
      { id: 2, action: 'stop', valueType: 'time', operator: '>=', threshold: 30 },
    ]
    const triggered: number[] = []
    const result = await runSimulation({
      ...runOptions(dataDir, {}, { conditions }),
      onCondition: (condition) => triggered.push(condition.id),
    })
    expect(result).toMatchObject({
      state: 'stopped',
      reason: 'condition',
      message: RUN_STOP_MESSAGES.condition.time,
      condition: conditions[1],
      lastOutputNo: 1,
    })
    expect(result.timeS).toBeGreaterThanOrEqual(0.03)
    expect(result.timeS).toBeLessThan(0.031)
    expect(triggered).toEqual([1, 2])
    const warnings = (await readLog(dataDir)).filter((line) => line.level === 'WARN')
    expect(warnings.map((line) => line.message)).toEqual([RUN_STOP_MESSAGES.warning.time])
  }, 30_000)

  it('stops when the organization runs out of credits, and on a particle-count condition', async () => {
    const broke = await runSimulation(
      runOptions(
        await dataDirectory(),
        {},
        {
          credits: { consumedAtStart: 5, perCoreHour: 3600, available: 1e-9 },
        },
      ),
    )
    expect(broke).toMatchObject({
      state: 'stopped',
      reason: 'credits',
      message: 'Not enough credits left...',
    })
    expect(broke.creditsConsumed).toBeGreaterThan(5)
    const crowded = await runSimulation(
      runOptions(
        await dataDirectory(),
        {},
        {
          conditions: [
            { id: 9, action: 'stop', valueType: 'particle_nbr', operator: '>=', threshold: 10 },
          ],
        },
      ),
    )
    expect(crowded).toMatchObject({
      reason: 'condition',
      message: RUN_STOP_MESSAGES.condition.particle_nbr,
    })
  }, 30_000)

  it('refuses unsupported settings at the start, naming them, and writes no output', async () => {
    const dataDir = await dataDirectory()
    const result = await runSimulation(runOptions(dataDir, { surfaceTension: true, airDrag: true }))
    expect(result.state).toBe('failed')
    expect(result.reason).toBe('unsupported')
    expect(result.message).toBe(
      'Unsupported simulation settings: surfaceTension without multiphase. Air drag needs the air drag domain.',
    )
    expect(result.lastOutputNo).toBeNull()
    await expect(readFile(join(dataDir, checkpointFile(7, 3, 0)))).rejects.toThrow()
    expect((await readLog(dataDir)).at(-1)).toMatchObject({
      level: 'ERROR',
      message: result.message,
    })
  })

  it('runs two materials under multiphase: the setup’s materials reach the solver, one fluid object each', async () => {
    const dataDir = await dataDirectory()
    const options = runOptions(dataDir, { multiphase: true, densityLimiter: false, endTime: 0.02 })
    const oil = {
      ...createDefaultMaterial(2, 7, '2026-01-01T00:00:00Z'),
      name: 'Oil',
      density: 800,
      speedOfSound: 1,
    }
    const { particles } = options
    // the upper half of the column is oil
    const materialIds = Int32Array.from(particles.kinds, (kind, i) =>
      kind !== 0 ? -1 : particles.positions[3 * i + 2]! > 0.075 ? oil.id : WATER_ID,
    )
    const result = await runSimulation({
      ...options,
      setup: { ...options.setup, materials: [...options.setup.materials, oil] },
      particles: { ...particles, materialIds },
    })
    expect(result).toMatchObject({ state: 'completed', lastOutputNo: 1 })
    const manifest = await readManifest(dataDir, 1)
    const fluids = manifest.objects.filter((o) => o.kind === 'fluid')
    expect(fluids.map((o) => [o.objectId, o.name, o.particleCount.full])).toEqual([
      ['fluid-1', 'Fluid 2', 4 * 4 * 3],
      ['fluid-2', 'Oil', 4 * 4 * 3],
    ])
  })

  it('fails with a clear message when the checkpoint to resume from is missing', async () => {
    const result = await runSimulation(
      runOptions(await dataDirectory(), {}, { resumeFromOutput: 4 }),
    )
    expect(result.state).toBe('failed')
    expect(result.message).toMatch(/^Cannot resume from output 4: /)
  })

  it('deletes fluid leaving the calculation domain and stops when none is left', async () => {
    const result = await runSimulation(
      runOptions(await dataDirectory(), {
        calcDomainActive: true,
        calcDomainMin: [-1, -1, 0.2],
        calcDomainMax: [1, 1, 1],
      }),
    )
    expect(result).toMatchObject({
      state: 'stopped',
      reason: 'no_fluid',
      message: RUN_STOP_MESSAGES.noFluid,
    })
    expect(result.deletedParticles).toBe(4 * 4 * 6)
  })
})
