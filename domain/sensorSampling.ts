/**
 * Sensors sampled while the simulation runs (issue 12): besides the values computed from outputs
 * (Compute Sensors), a sensor may be sampled by the running solver at its own rate, so that an
 * event lasting a few milliseconds between two outputs shows. spec/setup.md §3 "Sensor" names no
 * rate field, so `sampleRate` is ours: null (from outputs only, the default), 'every_step' (after
 * every solver step) or samples per second of simulated time (at the first step at or after each
 * 1/rate, at most one per step). The run writes each sensor's samples to a file of its own under
 * the run's directory (domain/output/layout.ts sensorSeriesFile), appended in batches; they are
 * read back with GET /custom_sensors/{id}/series.
 */
import * as v from 'valibot'
import { formatNumber } from './units.ts'
import { checkNumber, type Issue } from './validation.ts'

/** The sampleRate of a sensor sampled after every solver step. */
export const EVERY_STEP = 'every_step'

/** The fastest fixed rate, samples per second of simulated time. */
export const MAX_SAMPLE_RATE_HZ = 1_000_000

/** How often the run samples a sensor: null (outputs only), 'every_step' or a rate in 1/s. */
export const SensorSampleRateSchema = v.nullable(
  v.union([
    v.literal(EVERY_STEP),
    v.pipe(
      v.number('Sample rate must be a valid number.'),
      v.check((value: number) => Number.isFinite(value), 'Sample rate must be a valid number.'),
      v.gtValue(0, 'Sample rate must be greater than 0.'),
      v.maxValue(MAX_SAMPLE_RATE_HZ, `Sample rate must be at most ${MAX_SAMPLE_RATE_HZ}.`),
    ),
  ]),
)
/** How often the run samples a sensor. */
export type SensorSampleRate = v.InferOutput<typeof SensorSampleRateSchema>

/** The rules of a typed sample rate (a form's number), as checkNumber gives them. */
export function checkSampleRate(field: string, value: unknown): Issue[] {
  return checkNumber(field, 'Sample rate', value, {
    min: 0,
    exclusiveMin: true,
    max: MAX_SAMPLE_RATE_HZ,
  })
}

/** 'From outputs', 'Every solver step' or '1000 per second'. */
export function sampleRateLabel(rate: SensorSampleRate): string {
  if (rate === null) return 'From outputs'
  if (rate === EVERY_STEP) return 'Every solver step'
  return `${formatNumber(rate)} per second`
}

/** The quantities a run samples at a sensor (Shepard-weighted over the kernel support). */
export const SERIES_QUANTITIES = ['pressure', 'vx', 'vy', 'vz'] as const
/** One sampled quantity. */
export type SeriesQuantity = (typeof SERIES_QUANTITIES)[number]

/**
 * GET /custom_sensors/{id}/series: the samples a run took of a sensor, in time order. Values are
 * null where no fluid lay within the kernel support of the sensor (dry). A surface sensor's value
 * is the mean over its sample points (triangle centroids) that have fluid. Long series come
 * thinned to about `maxPoints`, keeping each bucket's lowest and highest pressure, so that a short
 * peak survives.
 */
export const SensorSeriesSchema = v.object({
  sensorId: v.number(),
  /** The run sampled; null when the simulation has no run. */
  runId: v.nullable(v.number()),
  /** The rate the run sampled at; null when it did not sample this sensor. */
  sampleRate: SensorSampleRateSchema,
  /** Samples the run took. */
  sampleCount: v.number(),
  /** Samples in this reply (fewer than sampleCount when thinned). */
  count: v.number(),
  /** Simulated times, s. */
  timeS: v.array(v.number()),
  /** Pa. */
  pressure: v.array(v.nullable(v.number())),
  /** m/s. */
  vx: v.array(v.nullable(v.number())),
  vy: v.array(v.nullable(v.number())),
  vz: v.array(v.nullable(v.number())),
})
/** A sensor's samples of one run. */
export type SensorSeries = v.InferOutput<typeof SensorSeriesSchema>

/** Default and largest `maxPoints` of the series call. */
export const DEFAULT_SERIES_POINTS = 5000
export const MAX_SERIES_POINTS = 200_000
