import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDefaultMaterial } from '../../domain/materials.ts'
import { runLogFile, sensorSeriesFile } from '../../domain/output/layout.ts'
import { defaultSettings } from '../../domain/settings.ts'
import { buildTankParticles, WATER_ID } from '../sph/scenarios.ts'
import type { RunSensor } from '../setup.ts'
import { runSimulation } from './runSimulation.ts'
import type { RunLogLine, RunSimulationOptions } from './types.ts'
import { tempDirectories } from './testDirectories.ts'

const dataDirectory = tempDirectories('dive-sensors-')

const DP = 0.025

/** Inside the water column, 0.1 m deep; above the water (dry); every step and 100 per second. */
const SENSORS: RunSensor[] = [
  { id: 11, kind: 'point', points: [0.05, 0.05, 0.05], sampleRate: 'every_step' },
  { id: 12, kind: 'point', points: [0.05, 0.05, 0.25], sampleRate: 'every_step' },
  { id: 13, kind: 'point', points: [0.05, 0.05, 0.05], sampleRate: 100 },
  // a surface sensor's triangle centroids: the mean over the wet ones
  { id: 14, kind: 'surface', points: [0.03, 0.05, 0.05, 0.07, 0.05, 0.05], sampleRate: 200 },
]

/** The small dam break of runSimulation.test.ts (4 × 4 × 6 fluid in an open tank) with sensors. */
function runOptions(
  dataDir: string,
  extra: Partial<RunSimulationOptions> = {},
): RunSimulationOptions {
  const water = { ...createDefaultMaterial(WATER_ID, 7, '2026-01-01T00:00:00Z'), speedOfSound: 1 }
  return {
    setup: {
      simulationId: 7,
      settings: {
        ...defaultSettings(),
        particleDiameter: DP,
        endTime: 0.04,
        outputTimeInterval: 0.02,
      },
      materials: [water],
      parts: [],
      movements: [],
      meshes: {},
      sensors: SENSORS,
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
    // the fluid starts at hydrostatic pressure, as a discretized setup does
    solverOptions: { hydrostaticInitialisation: true },
    ...extra,
  }
}

/** The records of a sensor: [time, pressure, vx, vy, vz] per sample. */
async function readSeries(dataDir: string, sensorId: number): Promise<number[][]> {
  const bytes = await readFile(join(dataDir, sensorSeriesFile(7, 3, sensorId, 'records')))
  expect(bytes.length % 40).toBe(0)
  const values = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8)
  const records: number[][] = []
  for (let r = 0; r < values.length / 5; r++) records.push([...values.subarray(r * 5, r * 5 + 5)])
  return records
}

async function readLog(dataDir: string): Promise<RunLogLine[]> {
  const text = await readFile(join(dataDir, runLogFile(7, 3)), 'utf8')
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunLogLine)
}

describe('sensors sampled while the run steps', () => {
  it('samples every step from the start, and a fixed rate at the first step after each period', async () => {
    const dataDir = await dataDirectory()
    const result = await runSimulation(runOptions(dataDir))
    expect(result.state).toBe('completed')
    const steps = (await readLog(dataDir)).at(-1)!.step
    const every = await readSeries(dataDir, 11)
    // one sample at t = 0 and one after each step
    expect(every.length).toBe(steps + 1)
    expect(every[0]![0]).toBe(0)
    expect(every.at(-1)![0]).toBeCloseTo(0.04, 12)
    for (let r = 1; r < every.length; r++) expect(every[r]![0]).toBeGreaterThan(every[r - 1]![0]!)
    // hydrostatic at the start: ρ g (0.15 − 0.05) = 981 Pa, the fluid at rest
    expect(every[0]![1]).toBeGreaterThan(0.95 * 981)
    expect(every[0]![1]).toBeLessThan(1.05 * 981)
    expect(Math.hypot(...every[0]!.slice(2))).toBeLessThan(1e-9)
    // the column starts to collapse: the fluid there moves
    expect(Math.hypot(...every.at(-1)!.slice(2))).toBeGreaterThan(0.01)
    // above the water: dry, no value
    const dry = await readSeries(dataDir, 12)
    expect(dry.length).toBe(every.length)
    expect(dry.every((record) => record.slice(1).every(Number.isNaN))).toBe(true)
    // 100 per second: t = 0, then the first step at or after 0.01, 0.02, 0.03, 0.04
    const rate = await readSeries(dataDir, 13)
    expect(rate.length).toBe(5)
    const dt = Math.max(...every.slice(1).map((r, k) => r[0]! - every[k]![0]!))
    rate.forEach((record, k) => {
      expect(record[0]).toBeGreaterThanOrEqual(k * 0.01 - 1e-12)
      expect(record[0]).toBeLessThan(k * 0.01 + dt + 1e-12)
      // the same point as the every-step sensor, read at the same step
      const same = every.find((r) => r[0] === record[0])!
      expect(record).toEqual(same)
    })
    // the surface sensor: the mean of its two wet points, 200 per second
    const surface = await readSeries(dataDir, 14)
    expect(surface.length).toBe(9)
    // at the same depth: within 5 % (the point nearer the side wall sees its unset wall pressure)
    expect(Math.abs(surface[0]![1]! / every[0]![1]! - 1)).toBeLessThan(0.05)
  }, 60_000)

  it('goes on after a resume exactly as an uninterrupted run', async () => {
    const straightDir = await dataDirectory()
    await runSimulation(runOptions(straightDir))
    const stoppedDir = await dataDirectory()
    const controller = new AbortController()
    const stopped = await runSimulation({
      ...runOptions(stoppedDir, { signal: controller.signal }),
      onOutput: (manifest) => {
        if (manifest.outputNo === 1) controller.abort()
      },
    })
    expect(stopped).toMatchObject({ state: 'stopped', lastOutputNo: 1 })
    const partial = await readSeries(stoppedDir, 11)
    expect(partial.at(-1)![0]).toBeCloseTo(0.02, 12)
    await runSimulation(runOptions(stoppedDir, { resumeFromOutput: 1 }))
    for (const id of [11, 12, 13, 14]) {
      const expected = await readFile(join(straightDir, sensorSeriesFile(7, 3, id, 'records')))
      const actual = await readFile(join(stoppedDir, sensorSeriesFile(7, 3, id, 'records')))
      expect(actual.equals(expected), `sensor ${id}`).toBe(true)
    }
    const header = JSON.parse(
      await readFile(join(stoppedDir, sensorSeriesFile(7, 3, 13, 'header')), 'utf8'),
    ) as unknown
    expect(header).toEqual({
      version: 1,
      sensorId: 13,
      kind: 'point',
      sampleRate: 100,
      columns: ['timeS', 'pressure', 'vx', 'vy', 'vz'],
      pointCount: 1,
    })
  }, 60_000)
})
