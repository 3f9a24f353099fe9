/**
 * Sensors beside a moving part on the GPU (issue 21): a piston, then a paddle turning about its
 * foot (the tank's wall layers at x < 0, a spec movement through runSimulation, as a user sets
 * it) pushes a small column while point and surface sensors at its face sample every step; the
 * piston's GPU run is stopped after its first output and resumed. The GPU's records agree with
 * the CPU run's sample by sample, at the same steps; and they see the part move: the same CPU run with the part at rest reads far more apart than the two backends
 * do. A sensor that read the walls where they stood half a step before (placed at t + dt/2, not
 * t + dt) fails this by 2.4e-3 (piston) and 5.3e-4 (paddle) of the largest pressure. Runs on SwiftShader where no GPU is
 * (vitest.config.ts); skipped, saying why, without an adapter.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { createDefaultMaterial } from '../../domain/materials.ts'
import type { Movement } from '../../domain/movements.ts'
import { defaultSettings } from '../../domain/settings.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { buildTankParticles, WATER_ID } from '../sph/scenarios.ts'
import { runSimulation } from '../run/runSimulation.ts'
import { tempDirectories } from '../run/testDirectories.ts'
import type { RunSimulationOptions } from '../run/types.ts'
import type { RunSensor } from '../setup.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import { compareSeries, readSeries, seriesDistance } from './sensorRecords.ts'

let available = false
beforeAll(async () => {
  available = (await findGpu()) !== null
  if (!available) console.warn(`GPU moving-part sensor tests skipped: ${gpuUnavailableReason()}`)
})

const dataDirectory = tempDirectories('dive-gpu-moving-sensors-')

const DP = 0.01
const SIMULATION = 7
const RUN = 3
const PISTON = 9
/** The column's hydrostatic pressure at the floor, Pa. */
const RHO_G_H = 1000 * 9.81 * 0.08

/**
 * At the piston's face (x = 0), low and mid-height; in the first fluid layer in front of it; in
 * the piston's wall layers (the walls' extrapolated pressure, the fluid within 2h); 1000 per
 * second at the face (only the due steps read back); a surface of three points on the face.
 */
const SENSORS: RunSensor[] = [
  { id: 21, kind: 'point', points: [0, 0.03, 0.015], sampleRate: 'every_step' },
  { id: 22, kind: 'point', points: [0.005, 0.03, 0.035], sampleRate: 'every_step' },
  { id: 23, kind: 'point', points: [-0.008, 0.03, 0.025], sampleRate: 'every_step' },
  { id: 24, kind: 'point', points: [0, 0.02, 0.045], sampleRate: 1000 },
  {
    id: 25,
    kind: 'surface',
    points: [0, 0.015, 0.02, 0, 0.045, 0.02, 0, 0.03, 0.06],
    sampleRate: 'every_step',
  },
]

/** The piston's spec movement: along +x from the start, accelerating. */
const PISTON_MOVEMENT: Movement = {
  id: 1,
  partId: PISTON,
  type: 'translatory',
  name: 'piston',
  start: 0,
  end: null,
  // 0.2 m/s at the start, 0.4 m/s at 10 ms
  vel: 0.2,
  acc: 20,
  virtualMovement: false,
  direction: [1, 0, 0],
  parents: [],
  followers: [],
}

/**
 * The same wall layers as a paddle hinged at the floor (the y axis through x = 0, z = 0), its top
 * turning into the water: 2 rad/s at the start, 4 rad/s at 10 ms (0.3 m/s at the water's top).
 */
const PADDLE_MOVEMENT: Movement = {
  id: 2,
  partId: PISTON,
  type: 'rotatory',
  name: 'paddle',
  start: 0,
  end: null,
  vel: 2,
  acc: 200,
  virtualMovement: false,
  axis: [0, 1, 0],
  center: [0, 0.03, 0],
  parents: [],
  followers: [],
}

/**
 * wallMotion.test.ts's piston: a column 6 × 6 × 8 (dp 1 cm) in an open tank 12 × 6 × 12 whose
 * x < 0 layers are the piston, hydrostatic, for 10 ms (about 20 steps, two outputs) with the
 * default settings (dual-step RK4, lyu21 shifting).
 */
function runOptions(
  dataDir: string,
  backend: 'cpu' | 'gpu',
  movements: Movement[],
): RunSimulationOptions {
  const water = { ...createDefaultMaterial(WATER_ID, 7, '2026-01-01T00:00:00Z'), speedOfSound: 1 }
  const particles = buildTankParticles({
    dp: DP,
    tank: [0.12, 0.06, 0.12],
    fluidMin: [0, 0, 0],
    fluidMax: [0.06, 0.06, 0.08],
    closed: false,
    wallLayers: 3,
  })
  const partIds = Int32Array.from(particles.partIds)
  for (let i = 0; i < partIds.length; i++)
    if (particles.kinds[i] === PARTICLE_KIND.wall && particles.positions[3 * i]! < 0)
      partIds[i] = PISTON
  return {
    setup: {
      simulationId: SIMULATION,
      settings: {
        ...defaultSettings(),
        particleDiameter: DP,
        endTime: 0.01,
        outputTimeInterval: 0.005,
      },
      materials: [water],
      parts: [],
      movements,
      meshes: {},
      sensors: SENSORS,
    },
    particles: { ...particles, partIds },
    dataDir,
    simulationId: SIMULATION,
    runId: RUN,
    threads: 1,
    backend,
    signal: new AbortController().signal,
    solverOptions: { hydrostaticInitialisation: true },
  }
}

/** Runs made once for the file's tests, by backend and movements: their data directories. */
const runs = new Map<string, Promise<string>>()
function completedRun(backend: 'cpu' | 'gpu', movements: Movement[]): Promise<string> {
  const key = `${backend}: ${movements.map((movement) => movement.name).join(', ')}`
  let run = runs.get(key)
  if (!run) {
    run = dataDirectory().then(async (dir) => {
      const result = await runSimulation(runOptions(dir, backend, movements))
      expect(result).toMatchObject({ state: 'completed' })
      return dir
    })
    runs.set(key, run)
  }
  return run
}

/**
 * A GPU run stopped after output 1 (5 ms) and resumed on the GPU from its checkpoint, as a user
 * stops and resumes a run: the records cut at the checkpoint, then sampled on. The walls must
 * stand where the part was at the checkpoint when the first step sorts them (placed at t = 0
 * instead, sensor 23 in the piston's wall layers parts from the CPU by 280 Pa, 0.36 ρgH).
 */
async function stoppedAndResumedOnGpu(movement: Movement): Promise<string> {
  const dir = await dataDirectory()
  const controller = new AbortController()
  const stopped = await runSimulation({
    ...runOptions(dir, 'gpu', [movement]),
    signal: controller.signal,
    onOutput: (manifest) => {
      if (manifest.outputNo === 1) controller.abort()
    },
  })
  expect(stopped).toMatchObject({ state: 'stopped', lastOutputNo: 1 })
  const resumed = await runSimulation({
    ...runOptions(dir, 'gpu', [movement]),
    resumeFromOutput: 1,
  })
  expect(resumed).toMatchObject({ state: 'completed', lastOutputNo: 2 })
  return dir
}

/**
 * The moving part's sensors of the GPU run in `gpuDir` against the CPU's run straight through, at
 * the same steps, and the part's motion in them (the CPU's run with the part at rest).
 */
async function checkMovingPart(movement: Movement, label: string, gpuDir: string): Promise<void> {
  const cpuDir = await completedRun('cpu', [movement])
  const restDir = await completedRun('cpu', [])
  const series = (dir: string, sensorId: number) => readSeries(dir, SIMULATION, RUN, sensorId)
  const every = await series(cpuDir, 21)
  expect(every.length).toBeGreaterThan(10)
  const dtMin = Math.min(...every.slice(1).map((r, k) => r[0]! - every[k]![0]!))
  // the fixed rate: t = 0 and the first step at or after each 1 ms
  expect((await series(gpuDir, 24)).length).toBe(11)
  const backends = { pressure: 0, velocity: 0, peak: 0, speed: 0 }
  const motion = { pressure: 0, velocity: 0 }
  for (const sensor of SENSORS) {
    const what = `${label}, sensor ${sensor.id}`
    const cpu = await series(cpuDir, sensor.id)
    const d = compareSeries(await series(gpuDir, sensor.id), cpu, dtMin, what)
    backends.pressure = Math.max(backends.pressure, d.pressure)
    backends.velocity = Math.max(backends.velocity, d.velocity)
    backends.peak = Math.max(backends.peak, d.peak)
    backends.speed = Math.max(backends.speed, d.speed)
    // every sensor sees the part move: its records part from the part at rest's by far more
    const m = seriesDistance(cpu, await series(restDir, sensor.id), what)
    expect(m.pressure, what).toBeGreaterThan(100 * d.pressure)
    expect(m.velocity, what).toBeGreaterThan(100 * d.velocity)
    motion.pressure = Math.max(motion.pressure, m.pressure)
    motion.velocity = Math.max(motion.velocity, m.velocity)
  }
  console.info(
    `GPU sensors beside a ${label} against the CPU over ${every.length} samples: pressure ` +
      `${(backends.pressure / backends.peak).toExponential(2)} of the largest ` +
      `(${(backends.peak / RHO_G_H).toFixed(2)} ρgH), velocity ` +
      `${(backends.velocity / backends.speed).toExponential(2)} of the fastest sample ` +
      `(${backends.speed.toFixed(3)} m/s); the part at rest parts them by up to ` +
      `${(motion.pressure / RHO_G_H).toFixed(2)} ρgH and ${motion.velocity.toFixed(3)} m/s`,
  )
  expect(backends.speed).toBeGreaterThan(0.05)
  // the push raises the pressures to a few ρgH: float32 rounding of the largest
  expect(backends.pressure / backends.peak).toBeLessThan(1e-5)
  expect(backends.velocity / backends.speed).toBeLessThan(1e-4)
}

describe('sensors beside a moving part on the GPU', () => {
  it('sample a piston every step as the CPU does, and see it move, across a resume', async (context) => {
    if (!available) context.skip()
    await checkMovingPart(PISTON_MOVEMENT, 'piston', await stoppedAndResumedOnGpu(PISTON_MOVEMENT))
  }, 400_000)

  it('sample a paddle turning about its foot as the CPU does, and see it turn', async (context) => {
    if (!available) context.skip()
    await checkMovingPart(PADDLE_MOVEMENT, 'paddle', await completedRun('gpu', [PADDLE_MOVEMENT]))
  }, 400_000)
})
