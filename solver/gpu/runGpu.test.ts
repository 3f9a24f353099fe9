/**
 * A run (solver/run runSimulation) on the GPU backend, as the job thread starts it: outputs,
 * checkpoints, log, stop and resume work as on the CPU, the outputs agree with a CPU run within
 * float32 tolerance, and what the GPU does not run is refused at the start with a message. Runs
 * on SwiftShader where no GPU is (vitest.config.ts); skipped, saying why, without an adapter.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDefaultMaterial } from '../../domain/materials.ts'
import { runLogFile, runNumericsFile } from '../../domain/output/layout.ts'
import type { RunNumerics } from '../../domain/runNumerics.ts'
import { defaultSettings } from '../../domain/settings.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { buildTankParticles, WATER_ID } from '../sph/scenarios.ts'
import { largestPositionDifference, readOutputPositions } from '../run/outputPositions.ts'
import { runSimulation } from '../run/runSimulation.ts'
import type { RunLogLine, RunSimulationOptions } from '../run/types.ts'
import { RUN_STOP_MESSAGES } from '../run/types.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import { tempDirectories } from '../run/testDirectories.ts'

let available = false
beforeAll(async () => {
  available = (await findGpu()) !== null
  if (!available) console.warn(`GPU run tests skipped: ${gpuUnavailableReason()}`)
})

const dataDirectory = tempDirectories('dive-gpu-run-')

const DP = 0.025
const SIMULATION = 7

/**
 * The small dam break of runSimulation.test.ts (4 × 4 × 6 fluid particles in an open tank), in a
 * shorter tank and for 4 ms (two outputs, a batch of steps for the second): SwiftShader takes
 * seconds a step on the shared machine.
 */
function runOptions(
  dataDir: string,
  extra: Partial<RunSimulationOptions> = {},
  settings: Partial<ReturnType<typeof defaultSettings>> = {},
): RunSimulationOptions {
  const water = { ...createDefaultMaterial(WATER_ID, 7, '2026-01-01T00:00:00Z'), speedOfSound: 1 }
  return {
    setup: {
      simulationId: SIMULATION,
      settings: {
        ...defaultSettings(),
        particleDiameter: DP,
        endTime: 0.004,
        outputTimeInterval: 0.002,
        ...settings,
      },
      materials: [water],
      parts: [],
      movements: [],
      meshes: {},
    },
    particles: buildTankParticles({
      dp: DP,
      tank: [0.2, 0.1, 0.2],
      fluidMin: [0, 0, 0],
      fluidMax: [0.1, 0.1, 0.15],
      closed: false,
      wallLayers: 3,
    }),
    dataDir,
    simulationId: SIMULATION,
    runId: 3,
    threads: 1,
    backend: 'gpu',
    signal: new AbortController().signal,
    ...extra,
  }
}

async function readLog(dataDir: string, runId = 3): Promise<RunLogLine[]> {
  const text = await readFile(join(dataDir, runLogFile(SIMULATION, runId)), 'utf8')
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunLogLine)
}

const fluidAt = (dataDir: string, runId: number, outputNo: number) =>
  readOutputPositions(dataDir, { simulationId: SIMULATION, runId, outputNo, objectId: 'fluid-1' })

describe('a run on the GPU backend', () => {
  it('writes every output, checkpoint and log line, naming the adapter, and agrees with the CPU', async (context) => {
    if (!available) context.skip()
    const gpuDir = await dataDirectory()
    const outputs: number[] = []
    const result = await runSimulation({
      ...runOptions(gpuDir),
      onOutput: (manifest) => outputs.push(manifest.outputNo),
    })
    expect(result).toMatchObject({ state: 'completed', reason: 'end_time', lastOutputNo: 2 })
    expect(result.timeS).toBeCloseTo(0.004, 12)
    expect(outputs).toEqual([0, 1, 2])
    const log = await readLog(gpuDir)
    const adapter = (await findGpu())!.info.name
    expect(log.map((line) => line.message)).toContain(`Running on the GPU: ${adapter}.`)
    const numerics = JSON.parse(
      await readFile(join(gpuDir, runNumericsFile(SIMULATION, 3)), 'utf8'),
    ) as RunNumerics
    expect(numerics).toMatchObject({ gpu: adapter, threads: 1, integrator: 'rk4_dual_step' })
    expect(numerics.expectedSpeedup).toBeUndefined()
    expect(log.at(-1)).toMatchObject({ level: 'SUCCESS', message: RUN_STOP_MESSAGES.endTime })

    const cpuDir = await dataDirectory()
    await runSimulation(runOptions(cpuDir, { backend: 'cpu' }))
    for (const outputNo of [0, 1, 2]) {
      const difference = largestPositionDifference(
        await fluidAt(gpuDir, 3, outputNo),
        await fluidAt(cpuDir, 3, outputNo),
      )
      // float32 against float64 over the steps to 4 ms (NUMERICS.md 'The GPU backend')
      expect(difference / DP, `output ${outputNo}`).toBeLessThan(1e-4)
    }
    // outputs are written while the next steps run: one holding a later state would differ by
    // the steps between outputs (2.4e-3 dp here), over ten times the tolerance above
    const between = largestPositionDifference(
      await fluidAt(gpuDir, 3, 1),
      await fluidAt(cpuDir, 3, 2),
    )
    expect(between / DP).toBeGreaterThan(10 * 1e-4)
    const written = log.filter((line) => line.message?.startsWith('Output '))
    expect(written.map((line) => [line.message, line.output, line.time])).toEqual(
      [0, 1, 2].map((k) => [`Output ${k} written.`, k, expect.closeTo(2 * k, 9) as unknown]),
    )
  }, 400_000)

  it('stops after an output and resumes on the GPU from its checkpoint to the same end', async (context) => {
    if (!available) context.skip()
    // four outputs after the start: the stop asked for at output 1 lands at output 1 or, where
    // the steps run ahead of the writes (outputs overlap them), at the next one
    const longer = { endTime: 0.008 }
    const straightDir = await dataDirectory()
    await runSimulation(runOptions(straightDir, {}, longer))
    const stoppedDir = await dataDirectory()
    const controller = new AbortController()
    const stopped = await runSimulation({
      ...runOptions(stoppedDir, { signal: controller.signal }, longer),
      onOutput: (manifest) => {
        if (manifest.outputNo === 1) controller.abort()
      },
    })
    expect(stopped).toMatchObject({ state: 'stopped', reason: 'user' })
    const stopAt = stopped.lastOutputNo!
    expect([1, 2]).toContain(stopAt)
    const resumed = await runSimulation(
      runOptions(stoppedDir, { resumeFromOutput: stopAt }, longer),
    )
    expect(resumed).toMatchObject({ state: 'completed', lastOutputNo: 4 })
    const log = await readLog(stoppedDir)
    expect(log.map((line) => line.message)).toContain(
      `Resumed from output ${stopAt} at 0.00${2 * stopAt} s.`,
    )
    const difference = largestPositionDifference(
      await fluidAt(stoppedDir, 3, 4),
      await fluidAt(straightDir, 3, 4),
    )
    // the GPU's sort is not deterministic within a cell: float32 summation order, no more
    expect(difference / DP).toBeLessThan(1e-4)
  }, 400_000)

  it('writes a multiphase run one fluid object per material, as the CPU', async (context) => {
    if (!available) context.skip()
    // the column's upper half a second fluid, a tenth as dense
    const base = runOptions(await dataDirectory(), {}, { multiphase: true, densityLimiter: false })
    const light = { ...base.setup.materials[0]!, id: 2, density: 100 }
    const { kinds, positions } = base.particles
    const materialIds = new Int32Array(kinds.length).fill(WATER_ID)
    for (let i = 0; i < kinds.length; i++)
      if (kinds[i] === PARTICLE_KIND.fluid && positions[3 * i + 2]! > 0.075) materialIds[i] = 2
    const two = (dataDir: string, backend: 'cpu' | 'gpu'): RunSimulationOptions => ({
      ...base,
      setup: { ...base.setup, materials: [...base.setup.materials, light] },
      particles: { ...base.particles, materialIds },
      dataDir,
      backend,
    })
    const gpuDir = await dataDirectory()
    const cpuDir = await dataDirectory()
    expect(await runSimulation(two(gpuDir, 'gpu'))).toMatchObject({ state: 'completed' })
    expect(await runSimulation(two(cpuDir, 'cpu'))).toMatchObject({ state: 'completed' })
    for (const objectId of ['fluid-1', 'fluid-2']) {
      const at = (dataDir: string) =>
        readOutputPositions(dataDir, { simulationId: SIMULATION, runId: 3, outputNo: 2, objectId })
      const [onGpu, onCpu] = [await at(gpuDir), await at(cpuDir)]
      expect(onGpu.length, objectId).toBeGreaterThan(0)
      expect(largestPositionDifference(onGpu, onCpu) / DP, objectId).toBeLessThan(1e-4)
    }
  }, 400_000)

  it('refuses settings it does not run, with a message', async (context) => {
    if (!available) context.skip()
    // particles of two spacings (a refinement zone's)
    const base = runOptions(await dataDirectory())
    const spacings = new Float64Array(base.particles.kinds.length).fill(DP)
    spacings[Array.from(base.particles.kinds).indexOf(PARTICLE_KIND.fluid)] = DP / 2
    const refined = await runSimulation({ ...base, particles: { ...base.particles, spacings } })
    expect(refined).toMatchObject({ state: 'failed', reason: 'unsupported' })
    expect(refined.message).toContain('Unsupported on the GPU: refinement (not yet on GPU)')
  }, 60_000)
})
