/**
 * What the data workers compute over the shown output (engine/data): colour ranges, statistics and
 * histograms over the 5M fluid particles, against a streaming read of the bytes they scan; and
 * movement keyframe interpolation over the 5000-keyframe maximum.
 */
import { readBundle, readObjectStream } from '../../domain/output/reader.ts'
import type { Keyframe } from '../../domain/movements.ts'
import { computeHistogram } from '../../engine/data/histogram.ts'
import { interpolateKeyframes } from '../../engine/data/keyframes.ts'
import { computeSubsetRange, type RowSubset, type ValueSource } from '../../engine/data/ranges.ts'
import { computeStatistics } from '../../engine/data/statistics.ts'
import { benchSink, judgeRatio, measureStreamingReadMs, timeRuns } from '../lib/measure.ts'
import { buildSyntheticBundle, formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'

function readFluid(particles: number) {
  const { bundle } = buildSyntheticBundle(particles)
  const entries = readBundle(bundle)
  const fluid = entries.find((entry) => entry.objectId === 'fluid-0')
  const mask = entries.find((entry) => entry.objectId === 'clip-1@fluid-0')
  if (!fluid || !mask) throw new Error('The synthetic bundle lacks its fluid or its mask.')
  const view = readObjectStream(fluid.bytes)
  const inside = readObjectStream(mask.bytes).mask
  const { x, y, z, vx, vy, vz, pressure } = view.columns
  if (view.rowCount !== particles || !x || !y || !z || !vx || !vy || !vz || !pressure || !inside) {
    throw new Error('The synthetic fluid does not have the expected columns.')
  }
  return { x, y, z, vx, vy, vz, pressure, inside }
}

async function runAnalysis(context: BenchContext): Promise<void> {
  const particles = context.quick ? 200_000 : 5_000_000
  const label = formatCount(particles)
  const fluid = readFluid(particles)
  const clipped: RowSubset = {
    clip: { enabled: true, axis: 'x', offsetM: 2, flipped: false },
    positions: { x: fluid.x, y: fluid.y, z: fluid.z },
    mask: fluid.inside,
  }
  const velocity: ValueSource = [fluid.vx, fluid.vy, fluid.vz]
  const columnBytes = particles * 4
  const measure = async (
    name: string,
    task: () => unknown,
    scannedBytes: number,
  ): Promise<void> => {
    const timing = await timeRuns(task, { runs: 5 })
    context.report({
      case: `node/${name}.${label}`,
      value: timing.medianMs,
      unit: 'ms',
      ...judgeRatio(timing.medianMs, measureStreamingReadMs(scannedBytes), null, 'streaming read'),
    })
  }
  await measure('colourRange.scalar', () => computeSubsetRange(fluid.pressure), columnBytes)
  await measure('colourRange.magnitude', () => computeSubsetRange(velocity), 3 * columnBytes)
  // Clip on x plus a volume clip mask: the column, x, and one byte per row are read.
  await measure(
    'colourRange.clipAndMask',
    () => computeSubsetRange(fluid.pressure, clipped),
    2 * columnBytes + particles,
  )
  const scratch = new Float32Array(particles)
  await measure(
    'statistics.scalar',
    () => computeStatistics(fluid.pressure, {}, scratch),
    columnBytes,
  )
  await measure('histogram.scalar', () => computeHistogram(fluid.pressure, 256), columnBytes)
}

/** A part turning once a second while it moves along x: 5000 keyframes over 10 s. */
function buildKeyframes(count: number): Keyframe[] {
  return Array.from({ length: count }, (_, index) => {
    const time = (index / (count - 1)) * 10
    const half = Math.PI * time
    return {
      time,
      position: [0.1 * time, 0, Math.sin(time)],
      rotation: [0, 0, Math.sin(half), Math.cos(half)],
    }
  })
}

async function runKeyframes(context: BenchContext): Promise<void> {
  const keyframes = buildKeyframes(5000)
  const poses = context.quick ? 10_000 : 200_000
  const timing = await timeRuns(
    () => {
      for (let index = 0; index < poses; index++) {
        const pose = interpolateKeyframes(keyframes, ((index * 7919) % 100_000) / 10_000)
        benchSink.value += pose.position[0]
      }
    },
    { runs: 5 },
  )
  const perPoseMs = timing.medianMs / poses
  // One pose per moving part per frame: the share of a 60 fps frame 100 parts take.
  context.report({
    case: 'node/keyframes.5000.perPose',
    value: perPoseMs * 1000,
    unit: 'us',
    ratio: (perPoseMs * 100) / (1000 / 60),
    target: null,
    ok: null,
  })
}

export const cases: BenchCase[] = [
  {
    name: 'node/analysis',
    description:
      'Colour range (scalar, vector magnitude, clip plus volume-clip mask), statistics and a 256-bin histogram over 5M fluid particles, against a streaming read of the scanned bytes.',
    run: runAnalysis,
  },
  {
    name: 'node/keyframes',
    description:
      'Pose interpolation (binary search + slerp) in 5000 keyframes, µs per pose; ratio: the share of a 60 fps frame 100 moving parts take.',
    run: runKeyframes,
  },
]
