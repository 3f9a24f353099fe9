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

/**
 * Reads the kernel-weighted pressure and fluid velocity at point `index` of the run's sensor points
 * (sensorPoints: every sensor's points in order) into `out` (p, vx, vy, vz); false when dry.
 */
export type SensorPointReader = (index: number, point: Readonly<Vec3>, out: Float64Array) => boolean

/** Every sensor's points in order, three numbers each: the indices a SensorPointReader takes. */
export function sensorPoints(sensors: readonly RunSensor[]): Float64Array {
  const out = new Float64Array(sensors.reduce((n, sensor) => n + sensor.points.length, 0))
  let at = 0
  for (const sensor of sensors) {
    out.set(sensor.points, at)
    at += sensor.points.length
  }
  return out
}

/** The CPU solver's probes (probes.ts, velocityProbe.ts) as a point reader. */
export function cpuSensorReader(solver: Solver): SensorPointReader {
  const velocity: Vec3 = [0, 0, 0]
  return (_index, point, out) => {
    if (!probeVelocity(solver, point, velocity)) return false
    out[0] = probePressure(solver, point)
    out[1] = velocity[0]
    out[2] = velocity[1]
    out[3] = velocity[2]
    return true
  }
}

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
  /**
   * Whether sample() would take a sample of some sensor at each of these times, called in this
   * order (the state is left as it is): the steps of a GPU batch whose probes to read back.
   */
  due(timesS: readonly number[]): boolean[]
  /** Appends the buffered samples to the files. */
  flush(): Promise<void>
  /** Samples taken of a sensor so far (on disk and buffered). */
  sampleCount(sensorId: number): number
}

interface Track {
  sensor: RunSensor
  path: string
  points: Vec3[]
  /** Index of the first point in sensorPoints(). */
  firstPoint: number
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
  source: Solver | SensorPointReader,
  input: SensorSamplerInput,
): Promise<SensorSampler | null> {
  if (input.sensors.length === 0) return null
  const { dataDir, simulationId, runId } = input
  const readPoint = typeof source === 'function' ? source : cpuSensorReader(source)
  const tracks: Track[] = []
  let firstPoint = 0
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
      firstPoint,
      buffer: new Float64Array(FLUSH_SAMPLES * RECORD_LENGTH),
      buffered: 0,
      written,
      // a resumed run has its sample at the start already; a new one takes it now
      nextTimeS: input.resumed ? Number.NaN : input.startTimeS,
      tail: Promise.resolve(),
      failure: null,
    })
    firstPoint += points.length
  }
  const values = new Float64Array(4)

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
    track.points.forEach((point, k) => {
      if (!readPoint(track.firstPoint + k, point, values)) return
      wet++
      pressure += values[0]!
      vx += values[1]!
      vy += values[2]!
      vz += values[3]!
    })
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

  /** Whether `track` samples at timeS, given the time of its next sample; that time after. */
  const dueAt = (
    track: Track,
    nextTimeS: number,
    timeS: number,
  ): { due: boolean; nextTimeS: number } => {
    const rate = track.sensor.sampleRate
    if (rate === 'every_step') return { due: true, nextTimeS }
    let next = nextTimeS
    if (Number.isNaN(next)) next = (Math.floor(timeS * rate + 1e-9) + 1) / rate
    if (timeS < next - 1e-9 / rate) return { due: false, nextTimeS: next }
    // the first step at or after k / rate takes the sample; the next one is due at (k + 1) / rate
    return { due: true, nextTimeS: (Math.floor(timeS * rate + 1e-9) + 1) / rate }
  }

  const due = (track: Track, timeS: number): boolean => {
    const answer = dueAt(track, track.nextTimeS, timeS)
    track.nextTimeS = answer.nextTimeS
    return answer.due
  }

  return {
    sample(timeS) {
      for (const track of tracks) if (due(track, timeS)) read(track, timeS)
    },
    due(timesS) {
      const next = tracks.map((track) => track.nextTimeS)
      return timesS.map((timeS) => {
        let any = false
        tracks.forEach((track, k) => {
          const answer = dueAt(track, next[k]!, timeS)
          next[k] = answer.nextTimeS
          any ||= answer.due
        })
        return any
      })
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
