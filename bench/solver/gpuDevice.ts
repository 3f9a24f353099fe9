/**
 * The GPU backend on a machine with a card, in a few minutes (scripts/gpuDevice.sh runs it there):
 * the adapter, the agreement with the CPU solver on a small dam break (one force pass, 8 RK4
 * steps: the tests' figures on a real card), and a dam break of `--fluid` particles (default 1M)
 * run for `--sim-s` simulated seconds (default 0.02), outputs left out: wall time per simulated
 * second, steps and particle-steps per second; or SPHERIC Test 2 at `--kleefsman-fluid` particles,
 * its outputs' cost included (kleefsmanRun). Prints plain lines.
 *
 *   npx tsx bench/solver/gpuDevice.ts [--fluid 1000000] [--sim-s 0.02]
 *   npx tsx bench/solver/gpuDevice.ts --kleefsman-fluid 5000000 [--sim-s 0.02]
 */
import { findGpu, gpuUnavailableReason } from '../../solver/gpu/device.ts'
import { createGpuSolver } from '../../solver/gpu/GpuSolver.ts'
import type { SolverConfig } from '../../solver/sph/config.ts'
import { PARTICLE_KIND } from '../../solver/sph/particles.ts'
import { createSolver, solverInternals } from '../../solver/sph/SphSolver.ts'
import { KLEEFSMAN, kleefsmanConfig } from './kleefsman.ts'
import {
  buildDamBreak,
  buildTankParticles,
  createDamBreakConfig,
  supportedSettings,
  WATER,
} from '../../solver/sph/scenarios.ts'
import { cliOption } from '../lib/cliOption.ts'

const argument = (name: string, fallback: number) => Number(cliOption(name, String(fallback)))

/** The tests' small dam break: 300 fluid particles with a swirl. */
function smallDamBreak(): SolverConfig {
  const { dp, scenario } = buildDamBreak(300, 3)
  const particles = buildTankParticles(scenario)
  const n = particles.kinds.length
  const velocities = new Float64Array(3 * n)
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    velocities[3 * i] = 0.3 * Math.sin(9 * particles.positions[3 * i + 2]!)
    velocities[3 * i + 2] = -0.3 * Math.sin(7 * particles.positions[3 * i]!)
  }
  return {
    settings: supportedSettings(dp),
    materials: [WATER],
    particles: { ...particles, velocities },
    options: { hydrostaticInitialisation: true, threads: 1 },
  }
}

async function agreement(): Promise<void> {
  const config = smallDamBreak()
  const cpu = await createSolver(config)
  cpu.measureInteractionPass('forces', 1)
  const a = solverInternals(cpu).arrays
  const gpu = await createGpuSolver(config)
  const { derivatives: d } = await gpu.forcePass()
  let maxA = 0
  let errA = 0
  for (let i = 0; i < solverInternals(cpu).count(); i++) {
    if (a.kind[i] !== PARTICLE_KIND.fluid) continue
    const o = 4 * a.particleId[i]!
    maxA = Math.max(maxA, Math.hypot(a.accX[i]!, a.accY[i]!, a.accZ[i]!))
    errA = Math.max(
      errA,
      Math.hypot(a.accX[i]! - d[o]!, a.accY[i]! - d[o + 1]!, a.accZ[i]! - d[o + 2]!),
    )
  }
  console.log(
    `agreement: one force pass, largest |a| difference ${(errA / maxA).toExponential(2)} of the largest |a|`,
  )
  await cpu.dispose()
  const cpu8 = await createSolver(config)
  for (let s = 0; s < 8; s++) cpu8.step()
  const sa = cpu8.snapshot()
  const gpu8 = await createGpuSolver(config)
  const report = await gpu8.runUntil(cpu8.report().timeS)
  const sb = await gpu8.snapshot()
  const dp = config.settings.particleDiameter!
  let errX = 0
  for (let i = 0; i < sa.count; i++) {
    if (sa.kind[i] !== PARTICLE_KIND.fluid) continue
    errX = Math.max(
      errX,
      Math.hypot(
        sa.positions[3 * i]! - sb.positions[3 * i]!,
        sa.positions[3 * i + 1]! - sb.positions[3 * i + 1]!,
        sa.positions[3 * i + 2]! - sb.positions[3 * i + 2]!,
      ),
    )
  }
  console.log(
    `agreement: 8 RK4 steps (GPU ${report.step}), positions within ${(errX / dp).toExponential(2)} dp`,
  )
  await cpu8.dispose()
}

async function damBreakRun(fluid: number, simS: number): Promise<void> {
  const config = createDamBreakConfig(fluid)
  const solver = await createGpuSolver(config)
  const particles = solver.describe().particleCount
  await solver.step()
  const started = performance.now()
  const from = solver.report()
  const report = await solver.runUntil(from.timeS + simS)
  const seconds = (performance.now() - started) / 1000
  const steps = report.step - from.step
  console.log(
    `dam break: ${particles} particles (${fluid} fluid asked), ${steps} steps over ${simS} s simulated in ${seconds.toFixed(2)} s: ${(seconds / simS / 60).toFixed(2)} min per simulated second, ${((seconds / steps) * 1e3).toFixed(2)} ms per step, ${((particles * steps) / seconds / 1e6).toFixed(1)} M particle-steps/s, dt ${report.dtS.toExponential(3)} s`,
  )
  await solver.dispose()
}

/**
 * SPHERIC Test 2 (the dam break with an obstacle) at about `fluid` fluid particles on the GPU for
 * `simS` simulated seconds, c0 = 10·√(g·H); then one snapshot's copy-back timed, and what outputs
 * every 0.02 s cost written the run's way (gpuOutputCost.ts: awaited, and overlapped with the
 * steps of another `simS`), so that the minutes per simulated second can be given outputs included.
 */
async function kleefsmanRun(fluid: number, simS: number): Promise<void> {
  const columnVolume =
    (KLEEFSMAN.tank[0] - KLEEFSMAN.columnMinX) * KLEEFSMAN.tank[1] * KLEEFSMAN.columnHeight
  const dp = Math.cbrt(columnVolume / fluid)
  const c0 = 10 * Math.sqrt(9.81 * KLEEFSMAN.columnHeight)
  let started = performance.now()
  const config = kleefsmanConfig(dp, c0, { threads: 1 }) as SolverConfig
  const solver = await createGpuSolver(config)
  const built = (performance.now() - started) / 1000
  const particles = solver.describe().particleCount
  await solver.step()
  started = performance.now()
  const from = solver.report()
  const report = await solver.runUntil(from.timeS + simS)
  const seconds = (performance.now() - started) / 1000
  const steps = report.step - from.step
  started = performance.now()
  await solver.snapshot()
  const snapshotS = (performance.now() - started) / 1000
  console.log(
    `kleefsman: dp ${dp.toPrecision(4)} m, ${particles} particles, c0 ${c0.toFixed(1)} m/s, built in ${built.toFixed(1)} s; ${steps} steps over ${simS} s simulated in ${seconds.toFixed(2)} s (${((seconds / steps) * 1e3).toFixed(2)} ms per step, dt ${report.dtS.toExponential(3)} s, ${(seconds / simS / 60).toFixed(2)} min per simulated second without outputs); one snapshot's copy-back ${snapshotS.toFixed(2)} s`,
  )
  const interval = config.settings.outputTimeInterval ?? 0.02
  // the output writer needs apache-arrow, which an older .dev/gpu.tar.xz lacks (pack it again)
  const writer = await import('./gpuOutputCost.ts').catch((error: unknown) => {
    console.log(
      `kleefsman outputs: not measured, the output writer does not load: ${String(error)}`,
    )
    return null
  })
  if (!writer) return solver.dispose()
  const cost = await writer.gpuOutputCost(solver, simS, interval)
  const perStepMs = (cost.plain.seconds / cost.plain.steps) * 1e3
  const o = cost.overlapped
  const withOutputsMin = (s: number) => (seconds / simS + s / interval) / 60
  console.log(
    `kleefsman outputs: one output (snapshot, checkpoint, files) written and awaited ${cost.awaitedS.toFixed(2)} s; overlapped with the steps, ${o.outputs} output(s) over ${simS} s simulated: ${o.steps} steps in ${o.seconds.toFixed(2)} s against ${((o.steps * perStepMs) / 1e3).toFixed(2)} s at ${perStepMs.toFixed(2)} ms per step without outputs, ${cost.perOutputS.toFixed(2)} s per output (the last write, left at the end, ${cost.lastWriteS.toFixed(2)} s); an output every ${interval} s costs ${(cost.perOutputS / interval / 60).toFixed(2)} min per simulated second overlapped, ${(cost.awaitedS / interval / 60).toFixed(2)} min awaited; ${withOutputsMin(cost.perOutputS).toFixed(2)} min per simulated second with outputs overlapped (${withOutputsMin(cost.awaitedS).toFixed(2)} awaited)`,
  )
  await solver.dispose()
}

const gpu = await findGpu()
if (!gpu) {
  console.log(`no WebGPU adapter: ${gpuUnavailableReason()}`)
  process.exit(1)
}
console.log(
  `adapter: ${gpu.info.name}${gpu.info.fallback ? ' (software)' : ''}, maxStorageBufferBindingSize ${gpu.info.maxStorageBufferBindingSize}, maxBufferSize ${gpu.info.maxBufferSize}`,
)
if (process.argv.includes('--kleefsman-fluid')) {
  await kleefsmanRun(argument('kleefsman-fluid', 5_000_000), argument('sim-s', 0.02))
} else {
  await agreement()
  await damBreakRun(argument('fluid', 1_000_000), argument('sim-s', 0.02))
}
process.exit(0)
