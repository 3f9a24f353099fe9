/**
 * The seeded demo (server/setup/demoSetup.ts) run end to end as the product's job thread runs it:
 * discretized by solver/discretizer, then runSimulation on `--threads` threads (default 2) with
 * its outputs, checkpoints and log written to a temporary data directory. Prints the wall time of
 * the run (what a user waits for after the discretization), its CPU time, steps, cores busy and the
 * solver's per-phase profile of the calling thread (PHASE_PROFILE). The time the product adds on
 * top (job queue, discretization job, database) is measured by `npm run million -- --demo`.
 *
 *   npx tsx bench/solver/demoRun.ts [--threads 2] [--endTime 0.2] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoRunSetup } from '../../server/setup/demoSetup.ts'
import { discretize } from '../../solver/discretizer/discretize.ts'
import { runSimulation } from '../../solver/run/runSimulation.ts'
import type { RunLogLine } from '../../solver/run/types.ts'
import { phaseProfile, resetPhaseProfile } from '../../solver/sph/threads.ts'
import { cliOption } from '../lib/cliOption.ts'

const option = (name: string, fallback: number) => Number(cliOption(name, String(fallback)))

async function main(): Promise<void> {
  const threads = option('threads', 2)
  const setup = demoRunSetup(
    process.argv.includes('--endTime') ? { endTime: option('endTime', 0) } : {},
  )
  const particles = discretize(setup)
  if (particles.errors.length > 0 || particles.fluidCount === 0)
    throw new Error(`the demo does not discretize: ${JSON.stringify(particles.errors)}`)
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-demo-run-'))
  const loadBefore = loadavg()[0]!
  const lines: RunLogLine[] = []
  resetPhaseProfile()
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  try {
    const result = await runSimulation({
      setup,
      particles,
      dataDir,
      simulationId: 1,
      runId: 1,
      threads,
      signal: new AbortController().signal,
      onLog: (line) => lines.push(line),
    })
    const wallS = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuStarted)
    const cpuS = (cpu.user + cpu.system) / 1e6
    const last = lines.filter((line) => line.step > 0).at(-1)
    const figures = {
      state: result.state,
      threads,
      fluid: last?.fluidParticles ?? null,
      particles: result.particles,
      simulatedS: result.timeS,
      steps: last?.step ?? null,
      wallS,
      cpuS,
      coresBusy: cpuS / wallS,
      loadBefore,
      loadAfter: loadavg()[0]!,
      profile: phaseProfile(),
    }
    if (process.argv.includes('--json')) console.log(JSON.stringify(figures))
    else {
      console.log(
        `demo: ${figures.state}, ${figures.fluid} fluid of ${figures.particles} particles, ${figures.steps} steps to ${figures.simulatedS} s on ${threads} threads: ${wallS.toFixed(1)} s wall, ${cpuS.toFixed(1)} CPU-s, ${figures.coresBusy.toFixed(2)} cores busy (load ${loadBefore.toFixed(2)} → ${figures.loadAfter.toFixed(2)})`,
      )
      for (const [phase, entry] of Object.entries(figures.profile))
        console.log(
          `  ${phase.padEnd(14)} ${entry.calls.toString().padStart(6)} calls ${(entry.ms / 1000).toFixed(2).padStart(8)} s  ${(entry.ms / (figures.steps ?? 1)).toFixed(2).padStart(7)} ms/step`,
        )
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
