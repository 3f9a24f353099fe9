/**
 * Sensors sampled while the run steps (domain/sensorSampling.ts): after every step, each sensor
 * due (every step, or at the first step at or after each 1/rate of simulated time) reads the
 * kernel-weighted pressure (solver/sph probes.ts: fluid and extrapolated wall pressures, so a
 * point on a wall reads the wall pressure) and fluid velocity (velocityProbe.ts) at its points; a
 * surface sensor keeps the mean over its wet points. Samples are buffered and appended to the
 * sensor's records file in batches (when the buffer fills, with every output, at the end), so a
 * sample costs no database row and no file operation of its own. A resumed run first cuts the
 * records back to the time of the checkpoint it resumes from.
 */
import { appendFile, mkdir, open, readFile, truncate } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  SENSOR_SERIES_RECORD,
  sensorSeriesFile,
  type SensorSeriesHeader,
} from '../../domain/output/layout.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { probePressure } from '../sph/probes.ts'
import type { Solver } from '../sph/solverTypes.ts'
import { probeVelocity } from '../sph/velocityProbe.ts'
import type { RunSensor } from '../setup.ts'
import { writeFileAtomically } from './outputs.ts'

/** Samples a sensor buffers before they are appended to its file. */
export const FLUSH_SAMPLES = 2048
/** Numbers per record: time, pressure, vx, vy, vz. */
const RECORD_LENGTH = SENSOR_SERIES_RECORD.length
const BYTES_PER_RECORD = RECORD_LENGTH * 8

/** What a run's sensors need besides the solver. */
export interface SensorSamplerInput {
  dataDir: string
  simulationId: number
  runId: number
  sensors: readonly RunSensor[]
  /** The simulated time the run starts (or resumes) from, s. */
  startTimeS: number
  /** Resuming: keep the records up to startTimeS and go on after them. */
  resumed: boolean
}

/** The sensors of a run, sampled after its steps. */
export interface SensorSampler {
  /** Takes the samples due at the solver's time `timeS` (call after every step). */
  sample(timeS: number): void
  /** Appends the buffered samples to the files. */
  flush(): Promise<void>
  /** Samples taken of a sensor so far (on disk and buffered). */
  sampleCount(sensorId: number): number
}

interface Track {
  sensor: RunSensor
  path: string
  points: Vec3[]
  buffer: Float64Array
  buffered: number
  written: number
  /** Time of the next sample of a fixed rate, s. */
  nextTimeS: number
  /** The appends under way, one after the other (their order is the records' order). */
  tail: Promise<void>
  /** The first append that failed: flush() throws it. */
  failure: unknown
}

/** Keeps the records of the file at `path` whose time is at most `timeS`; returns how many. */
async function cutRecords(path: string, timeS: number): Promise<number> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch {
    return 0
  }
  const whole = Math.floor(bytes.length / BYTES_PER_RECORD)
  const view = new DataView(bytes.buffer, bytes.byteOffset, whole * BYTES_PER_RECORD)
  let keep = whole
  const tolerance = 1e-9 * Math.max(1, Math.abs(timeS))
  while (keep > 0 && view.getFloat64((keep - 1) * BYTES_PER_RECORD, true) > timeS + tolerance)
    keep--
  if (keep * BYTES_PER_RECORD !== bytes.length) await truncate(path, keep * BYTES_PER_RECORD)
  return keep
}

/** The sensors' files opened for this run; null without sensors. */
export async function openSensorSampler(
  solver: Solver,
  input: SensorSamplerInput,
): Promise<SensorSampler | null> {
  if (input.sensors.length === 0) return null
  const { dataDir, simulationId, runId } = input
  const tracks: Track[] = []
  for (const sensor of input.sensors) {
    const path = join(dataDir, sensorSeriesFile(simulationId, runId, sensor.id, 'records'))
    await mkdir(dirname(path), { recursive: true })
    const header: SensorSeriesHeader = {
      version: 1,
      sensorId: sensor.id,
      kind: sensor.kind,
      sampleRate: sensor.sampleRate,
      columns: SENSOR_SERIES_RECORD,
      pointCount: sensor.points.length / 3,
    }
    await writeFileAtomically(
      join(dataDir, sensorSeriesFile(simulationId, runId, sensor.id, 'header')),
      JSON.stringify(header),
    )
    let written = 0
    if (input.resumed) written = await cutRecords(path, input.startTimeS)
    else await (await open(path, 'w')).close()
    const points: Vec3[] = []
    for (let k = 0; k + 2 < sensor.points.length; k += 3)
      points.push([sensor.points[k]!, sensor.points[k + 1]!, sensor.points[k + 2]!])
    tracks.push({
      sensor,
      path,
      points,
      buffer: new Float64Array(FLUSH_SAMPLES * RECORD_LENGTH),
      buffered: 0,
      written,
      // a resumed run has its sample at the start already; a new one takes it now
      nextTimeS: input.resumed ? Number.NaN : input.startTimeS,
      tail: Promise.resolve(),
      failure: null,
    })
  }
  const velocity: Vec3 = [0, 0, 0]

  /** Queues the buffered samples for appending and empties the buffer. */
  const append = (track: Track): Promise<void> => {
    if (track.buffered === 0) return track.tail
    const bytes = new Uint8Array(track.buffer.buffer, 0, track.buffered * BYTES_PER_RECORD).slice()
    track.written += track.buffered
    track.buffered = 0
    track.tail = track.tail
      .then(() => appendFile(track.path, bytes))
      .catch((error: unknown) => {
        track.failure ??= error
      })
    return track.tail
  }

  const read = (track: Track, timeS: number) => {
    let wet = 0
    let pressure = 0
    let vx = 0
    let vy = 0
    let vz = 0
    for (const point of track.points) {
      if (!probeVelocity(solver, point, velocity)) continue
      wet++
      pressure += probePressure(solver, point)
      vx += velocity[0]
      vy += velocity[1]
      vz += velocity[2]
    }
    const record = track.buffered * RECORD_LENGTH
    const b = track.buffer
    b[record] = timeS
    b[record + 1] = wet > 0 ? pressure / wet : Number.NaN
    b[record + 2] = wet > 0 ? vx / wet : Number.NaN
    b[record + 3] = wet > 0 ? vy / wet : Number.NaN
    b[record + 4] = wet > 0 ? vz / wet : Number.NaN
    track.buffered++
    // a full buffer is appended in the background; flush() waits for it
    if (track.buffered === FLUSH_SAMPLES) void append(track)
  }

  const due = (track: Track, timeS: number): boolean => {
    const rate = track.sensor.sampleRate
    if (rate === 'every_step') return true
    if (Number.isNaN(track.nextTimeS))
      track.nextTimeS = (Math.floor(timeS * rate + 1e-9) + 1) / rate
    if (timeS < track.nextTimeS - 1e-9 / rate) return false
    // the first step at or after k / rate takes the sample; the next one is due at (k + 1) / rate
    track.nextTimeS = (Math.floor(timeS * rate + 1e-9) + 1) / rate
    return true
  }

  return {
    sample(timeS) {
      for (const track of tracks) if (due(track, timeS)) read(track, timeS)
    },
    async flush() {
      await Promise.all(tracks.map(append))
      const failed = tracks.find((track) => track.failure !== null)
      if (failed) throw failed.failure
    },
    sampleCount(sensorId) {
      const track = tracks.find((t) => t.sensor.id === sensorId)
      return track ? track.written + track.buffered : 0
    },
  }
}
