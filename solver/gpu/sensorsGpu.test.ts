/**
 * Sensors sampled during a run on the GPU backend (solver/gpu/probes.ts through runSimulation):
 * the records land where the CPU's do, at the same steps, and agree with the CPU run's within
 * float32 tolerance. Runs on SwiftShader where no GPU is (vitest.config.ts); skipped, saying why,
 * without an adapter.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { createDefaultMaterial } from '../../domain/materials.ts'
import { defaultSettings } from '../../domain/settings.ts'
import { buildTankParticles, WATER_ID } from '../sph/scenarios.ts'
import { runSimulation } from '../run/runSimulation.ts'
import type { RunSimulationOptions } from '../run/types.ts'
import type { RunSensor } from '../setup.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import { tempDirectories } from '../run/testDirectories.ts'
import { compareSeries, readSeries as readRunSeries } from './sensorRecords.ts'

let available = false
beforeAll(async () => {
  available = (await findGpu()) !== null
  if (!available) console.warn(`GPU sensor tests skipped: ${gpuUnavailableReason()}`)
})

const dataDirectory = tempDirectories('dive-gpu-sensors-')

const DP = 0.025
const SIMULATION = 7
const RUN = 3
const RHO_G_H = 1000 * 9.81 * 0.15

/**
 * In the water; on the floor among the walls; above the water (dry); 200 per second (every few
 * steps); a surface sensor of two wet points and a dry one, every step.
 */
const SENSORS: RunSensor[] = [
  { id: 11, kind: 'point', points: [0.05, 0.05, 0.05], sampleRate: 'every_step' },
  { id: 12, kind: 'point', points: [0.08, 0.05, 0], sampleRate: 'every_step' },
  { id: 13, kind: 'point', points: [0.05, 0.05, 0.3], sampleRate: 'every_step' },
  { id: 14, kind: 'point', points: [0.09, 0.05, 0.02], sampleRate: 200 },
  {
    id: 15,
    kind: 'surface',
    points: [0.03, 0.05, 0.1, 0.07, 0.02, 0.1, 0.05, 0.05, 0.3],
    sampleRate: 'every_step',
  },
]

/**
 * runGpu.test.ts's small dam break (4 × 4 × 6 fluid particles), hydrostatic, for 20 ms (about 16
 * steps, two outputs: a batch each).
 */
function runOptions(
  dataDir: string,
  backend: 'cpu' | 'gpu',
  sensors: RunSensor[] = SENSORS,
): RunSimulationOptions {
  const water = { ...createDefaultMaterial(WATER_ID, 7, '2026-01-01T00:00:00Z'), speedOfSound: 1 }
  return {
    setup: {
      simulationId: SIMULATION,
      settings: {
        ...defaultSettings(),
        particleDiameter: DP,
        endTime: 0.02,
        outputTimeInterval: 0.01,
      },
      materials: [water],
      parts: [],
      movements: [],
      meshes: {},
      sensors,
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
    runId: RUN,
    threads: 1,
    backend,
    signal: new AbortController().signal,
    solverOptions: { hydrostaticInitialisation: true },
  }
}

/** The records of a sensor in a run's data directory. */
function readSeries(dataDir: string, sensorId: number): Promise<number[][]> {
  return readRunSeries(dataDir, SIMULATION, RUN, sensorId)
}

describe('sensors sampled during a run on the GPU', () => {
  it('samples at the same steps as the CPU, within float32 tolerance of its values', async (context) => {
    if (!available) context.skip()
    const gpuDir = await dataDirectory()
    const cpuDir = await dataDirectory()
    expect(await runSimulation(runOptions(gpuDir, 'gpu'))).toMatchObject({ state: 'completed' })
    expect(await runSimulation(runOptions(cpuDir, 'cpu'))).toMatchObject({ state: 'completed' })
    const every = await readSeries(cpuDir, 11)
    const dtMin = Math.min(...every.slice(1).map((r, k) => r[0]! - every[k]![0]!))
    // the fixed rate: t = 0 and the first step at or after each 5 ms, fewer than the steps
    const rate = await readSeries(gpuDir, 14)
    expect(rate.length).toBe(5)
    expect(rate.length).toBeLessThan(every.length - 5)
    // alone, only its due steps are read back from the GPU: the same samples
    const aloneDir = await dataDirectory()
    const alone = runOptions(aloneDir, 'gpu', [SENSORS[3]!])
    expect(await runSimulation(alone)).toMatchObject({ state: 'completed' })
    const worst = { pressure: 0, velocity: 0, speed: 0 }
    const series: [number[][], number[][], string][] = [
      [await readSeries(aloneDir, 14), await readSeries(cpuDir, 14), 'sensor 14 alone'],
    ]
    for (const sensor of SENSORS)
      series.push([
        await readSeries(gpuDir, sensor.id),
        await readSeries(cpuDir, sensor.id),
        `sensor ${sensor.id}`,
      ])
    for (const [gpu, cpu, what] of series) {
      const d = compareSeries(gpu, cpu, dtMin, what)
      worst.pressure = Math.max(worst.pressure, d.pressure)
      worst.velocity = Math.max(worst.velocity, d.velocity)
      worst.speed = Math.max(worst.speed, d.speed)
    }
    // the dry point reads nothing on either
    expect((await readSeries(gpuDir, 13)).every((r) => r.slice(1).every(Number.isNaN))).toBe(true)
    console.info(
      `GPU sensors against the CPU over ${every.length} samples: pressure ` +
        `${(worst.pressure / RHO_G_H).toExponential(2)} ρgH, velocity ` +
        `${(worst.velocity / worst.speed).toExponential(2)} of the fastest sample`,
    )
    expect(worst.speed).toBeGreaterThan(0.01)
    expect(worst.pressure / RHO_G_H).toBeLessThan(1e-5)
    expect(worst.velocity / worst.speed).toBeLessThan(1e-4)
  }, 400_000)

  it('goes on after a resume on the GPU: the records cut at the checkpoint, then sampled on', async (context) => {
    if (!available) context.skip()
    const cpuDir = await dataDirectory()
    expect(await runSimulation(runOptions(cpuDir, 'cpu'))).toMatchObject({ state: 'completed' })
    const gpuDir = await dataDirectory()
    const controller = new AbortController()
    const stopped = await runSimulation({
      ...runOptions(gpuDir, 'gpu'),
      signal: controller.signal,
      onOutput: (manifest) => {
        if (manifest.outputNo === 1) controller.abort()
      },
    })
    expect(stopped).toMatchObject({ state: 'stopped', lastOutputNo: 1 })
    const resumed = await runSimulation({ ...runOptions(gpuDir, 'gpu'), resumeFromOutput: 1 })
    expect(resumed).toMatchObject({ state: 'completed', lastOutputNo: 2 })
    const every = await readSeries(cpuDir, 11)
    const dtMin = Math.min(...every.slice(1).map((r, k) => r[0]! - every[k]![0]!))
    for (const sensor of [SENSORS[0]!, SENSORS[3]!]) {
      const d = compareSeries(
        await readSeries(gpuDir, sensor.id),
        await readSeries(cpuDir, sensor.id),
        dtMin,
        `sensor ${sensor.id}`,
      )
      expect(d.pressure / RHO_G_H).toBeLessThan(1e-5)
      expect(d.velocity / d.speed).toBeLessThan(1e-4)
    }
  }, 400_000)
})
