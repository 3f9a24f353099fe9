/**
 * A 1-second dam break in a no-slip tank with the log-law wall function (options.wallShear
 * 'logLaw'), on either backend: Martin & Moyce's column (validation/martinMoyce.ts: a thin slab
 * periodic along y, 3 wall layers) a = 2g/3.1² ≈ 2.04 m wide, so that 1 s is T = 3.1 and the
 * front stays short of the tank's far wall (5a). Prints the front (the largest fluid x + dp/2,
 * m) every 0.1 s, the run's wall time and the load average.
 *
 *   npx tsx bench/solver/logLawDamBreak.ts [--backend cpu|gpu] [--across 20] [--wallShear logLaw]
 *
 * Without a card the GPU backend runs on lavapipe with the env vitest.config.ts gives the 'gpu'
 * project (VK_ICD_FILENAMES, LD_LIBRARY_PATH).
 */
import { loadavg } from 'node:os'
import type { RunBackendKind } from '../../solver/run/runBackend.ts'
import type { SolverOptions } from '../../solver/sph/config.ts'
import {
  GRAVITY,
  interpolateTable,
  runMartinMoyceCase,
  useCaseBackend,
} from '../../validation/cases.ts'
import { cliOption } from '../lib/cliOption.ts'

/** T = t √(2g/a) at t = 1 s. */
const END_T = 3.1

async function main(): Promise<void> {
  const backend = cliOption('backend', 'cpu') as RunBackendKind
  const across = Number(cliOption('across', '20'))
  const wallShear = cliOption('wallShear', 'logLaw') as SolverOptions['wallShear']
  useCaseBackend(backend)
  const a = (2 * GRAVITY) / END_T ** 2
  const started = performance.now()
  const result = await runMartinMoyceCase({
    columnWidth: a,
    particlesAcross: across,
    particlesDeep: 3,
    endT: END_T,
    wallCondition: 'no_slip',
    solverOptions: { wallShear },
  })
  const wallS = (performance.now() - started) / 1000
  const timeScale = Math.sqrt(a / (2 * GRAVITY))
  console.log(
    `${backend}, no-slip, wallShear ${wallShear}, a = ${a.toFixed(4)} m, ${across} across: ` +
      `${wallS.toFixed(0)} s wall time, load ${loadavg()[0]!.toFixed(1)}`,
  )
  // every 0.1 s, between the samples (every 0.05 in T, 16 ms; validation/martinMoyce.ts)
  for (let k = 1; k <= 10; k++) {
    const Z = interpolateTable(result.front, (k * 0.1) / timeScale)
    console.log(`t ${(k * 0.1).toFixed(1)} s  front ${(Z * a).toFixed(3)} m  (Z ${Z.toFixed(3)})`)
  }
}

await main()
