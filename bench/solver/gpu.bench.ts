/**
 * The SPH solver on the GPU (solver/gpu, issue 21 item 4) on a dam break of 1M, 4M and 16M fluid
 * particles (--quick: 20k and 50k): force-pass pair interactions per second, the time of a full
 * RK4 step (sort, four interactions, four stages, the time step), particle-steps per second, and
 * the share of a step outside its four force passes. Denominator (same run, same card): a GPU
 * buffer copy of the force pass's neighbour records (32 bytes per particle). Goals on an H100 or
 * H200: ≥ 70 G interactions/s at 16M; a full step ≥ 0.5 × the force-pass-only bound (its time ≤ 2
 * × four force passes). BenchSkip where no WebGPU adapter exists (the webgpu package or a Vulkan
 * driver missing); on a software adapter (SwiftShader, lavapipe) only a 2k smoke test runs.
 */
import { findGpu, gpuUnavailableReason } from '../../solver/gpu/device.ts'
import type { GpuContext } from '../../solver/gpu/device.ts'
import { createGpuSolver } from '../../solver/gpu/GpuSolver.ts'
import { createDamBreakConfig } from '../../solver/sph/scenarios.ts'
import { computeMedian } from '../lib/measure.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { BenchSkip } from '../lib/types.ts'

const TARGET_INTERACTIONS = 70e9
const STEP_BOUND_RATIO = 2

interface Size {
  label: string
  fluidParticles: number
  passes: number
  steps: number
}

function sizesFor(quick: boolean, software: boolean): Size[] {
  // a software adapter does a few M interactions/s: a smoke test only
  if (software) return [{ label: '2k', fluidParticles: 2_000, passes: 1, steps: 1 }]
  return quick
    ? [
        { label: '20k', fluidParticles: 20_000, passes: 2, steps: 2 },
        { label: '50k', fluidParticles: 50_000, passes: 2, steps: 2 },
      ]
    : [
        { label: '1M', fluidParticles: 1_000_000, passes: 20, steps: 10 },
        { label: '4M', fluidParticles: 4_000_000, passes: 10, steps: 5 },
        { label: '16M', fluidParticles: 16_000_000, passes: 5, steps: 3 },
      ]
}

/** Milliseconds of one GPU copy of `bytes` (median of 5 after a warm-up). */
async function measureGpuCopyMs(gpu: GpuContext, bytes: number): Promise<number> {
  const device = gpu.device
  const size = Math.ceil(bytes / 16) * 16
  const usage = 4 | 8 | 128 // COPY_SRC | COPY_DST | STORAGE
  const a = device.createBuffer({ size, usage })
  const b = device.createBuffer({ size, usage })
  const times: number[] = []
  for (let k = 0; k < 6; k++) {
    const encoder = device.createCommandEncoder()
    encoder.copyBufferToBuffer(a, 0, b, 0, size)
    const started = performance.now()
    device.queue.submit([encoder.finish()])
    await device.queue.onSubmittedWorkDone()
    if (k > 0) times.push(performance.now() - started)
  }
  a.destroy()
  b.destroy()
  return computeMedian(times)
}

async function runGpu(context: BenchContext): Promise<void> {
  const gpu = await findGpu()
  if (!gpu) throw new BenchSkip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
  context.log(`GPU: ${gpu.info.name}${gpu.info.fallback ? ' (software adapter)' : ''}`)
  for (const size of sizesFor(context.quick, gpu.info.fallback)) {
    const name = `solver/gpu.${size.label}`
    const config = createDamBreakConfig(size.fluidParticles)
    const solver = await createGpuSolver(config, gpu)
    try {
      const particles = solver.describe().particleCount
      // warm-up: pipelines, first sort, one step
      await solver.forcePass(1)
      await solver.timeSteps(1)
      const force = await solver.forcePass(size.passes)
      const passSeconds = force.seconds / size.passes
      const rate = force.interactionsPerPass / passSeconds
      const copyMs = await measureGpuCopyMs(gpu, 32 * particles)
      context.log(
        `${size.label}: ${particles} particles, ${(force.interactionsPerPass / 1e6).toFixed(1)} M interactions per pass, ${(passSeconds * 1e3).toFixed(2)} ms per pass, GPU copy of the records ${copyMs.toFixed(3)} ms`,
      )
      context.report({
        case: `${name}.forcePass`,
        value: rate / 1e9,
        unit: 'G interactions/s',
        ratio: (passSeconds * 1e3) / copyMs,
        target: `>= ${TARGET_INTERACTIONS / 1e9} G interactions/s (16M, H100/H200)`,
        ok: size.label === '16M' ? rate >= TARGET_INTERACTIONS : null,
      })
      const stepSeconds = (await solver.timeSteps(size.steps)) / size.steps
      const bound = 4 * passSeconds
      context.report({
        case: `${name}.step`,
        value: stepSeconds * 1e3,
        unit: 'ms',
        ratio: stepSeconds / bound,
        target: `<= ${STEP_BOUND_RATIO} x four force passes`,
        ok: stepSeconds / bound <= STEP_BOUND_RATIO,
      })
      context.report({
        case: `${name}.particleSteps`,
        value: particles / stepSeconds / 1e6,
        unit: 'M particle-steps/s',
        ratio: (stepSeconds * 1e3) / copyMs,
        target: null,
        ok: null,
      })
      context.report({
        case: `${name}.outsideForcePasses`,
        value: Math.max(0, 1 - bound / stepSeconds),
        unit: 'share of a step',
        ratio: null,
        target: null,
        ok: null,
      })
    } finally {
      await solver.dispose()
    }
  }
}

export const cases: BenchCase[] = [
  {
    name: 'solver/gpu',
    description:
      'GPU solver (WebGPU): force-pass G interactions/s, full RK4 step ms, particle-steps/s and the share outside the force passes at 1M/4M/16M fluid particles; ratio to a GPU copy of the records; goal >= 70 G/s at 16M and a step <= 2 x four force passes.',
    run: runGpu,
  },
]
