/**
 * Where a full time step's wall time goes, per thread count (issue 22): the calling thread's
 * profile of each phase (its own range, then its wait for the other threads, "<phase>.wait") in
 * ms per step, the phase's speedup over the first thread count, and the step's cores busy and
 * CPU-ns per pair interaction. A phase whose speedup lags the others, or a wait that grows with
 * the threads, is where the cores are lost.
 *
 *   npx tsx bench/solver/stepProfile.ts [--fluid 300000] [--threads 1,2,4,8,16] [--steps 4]
 */
import { availableParallelism, loadavg } from 'node:os'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { createDamBreakConfig } from '../../solver/sph/scenarios.ts'
import { phaseProfile, resetPhaseProfile, type ProfileEntry } from '../../solver/sph/threads.ts'
import { cliOption } from '../lib/cliOption.ts'

const fluid = Number(cliOption('fluid', '300000'))
const steps = Number(cliOption('steps', '4'))
const threadCounts = cliOption('threads', '1,2,4,8,16').split(',').map(Number)
console.log(
  `stepProfile: dam break of ${fluid} fluid particles, ${steps} steps per row after 2 untimed; ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)}`,
)
const config = createDamBreakConfig(fluid)
let first: Record<string, ProfileEntry> | null = null
let firstStepMs = 0
for (const threads of threadCounts) {
  const solver = await createSolver({ ...config, options: { ...config.options, threads } })
  solver.step()
  solver.step()
  resetPhaseProfile()
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  let interactions = 0
  for (let s = 0; s < steps; s++) interactions += solver.step().interactions
  const wallMs = performance.now() - started
  const cpu = process.cpuUsage(cpuStarted)
  const cpuMs = (cpu.user + cpu.system) / 1e3
  const profile = phaseProfile()
  first ??= profile
  firstStepMs ||= wallMs / steps
  console.log(
    `threads ${threads}: ${(wallMs / steps).toFixed(1)} ms per step (${(firstStepMs / (wallMs / steps)).toFixed(2)} ×), ${(cpuMs / wallMs).toFixed(2)} cores busy, ${((cpuMs * 1e6) / interactions).toFixed(1)} CPU-ns per interaction`,
  )
  const rows = Object.entries(profile).sort((a, b) => b[1].ms - a[1].ms)
  for (const [name, entry] of rows) {
    const ms = entry.ms / steps
    if (ms < 0.5) continue
    const base = first[name]
    const speedup = base && !name.endsWith('.wait') ? `${(base.ms / entry.ms).toFixed(2)} ×` : ''
    console.log(
      `  ${name.padEnd(24)} ${(entry.calls / steps).toFixed(0).padStart(3)} per step ${ms.toFixed(1).padStart(9)} ms ${speedup.padStart(9)}`,
    )
  }
  await solver.dispose()
}
process.exit(0)
