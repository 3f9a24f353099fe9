/**
 * The results benches' server (bench/results/session.bench.ts): the real app on a fresh SQLite
 * database over synthetic outputs cached under the system temp dir ('dive-bench-results'), shared
 * by the cases of a run and closed by disposeBench.
 */
import { RESULTS_PATH } from '../../server/results/session/resultsChannel.ts'
import type { ResultsBenchServer } from '../lib/resultsServer.ts'
import { BENCH_RUN_ID, startResultsBenchServer } from '../lib/resultsServer.ts'
import type { BenchContext } from '../lib/types.ts'

export const RUN_ID = BENCH_RUN_ID
export const FLUID_OBJECT = 'fluid-0'

export interface BenchServer extends ResultsBenchServer {
  wsUrl: string
}

let shared: BenchServer | null = null

function sizes(quick: boolean): { outputs: number; particles: number } {
  return quick ? { outputs: 10, particles: 100_000 } : { outputs: 100, particles: 1_000_000 }
}

/** The app on a fresh database over the cached outputs (written on first use). */
export async function startServer(context: BenchContext): Promise<BenchServer> {
  const { outputs, particles } = sizes(context.quick)
  if (shared && shared.outputs === outputs && shared.particles === particles) return shared
  await disposeBench()
  const server = await startResultsBenchServer(outputs, particles, (text) => context.log(text), {
    cacheName: 'dive-bench-results',
  })
  shared = { ...server, wsUrl: `${server.baseUrl.replace('http', 'ws')}${RESULTS_PATH}` }
  return shared
}

/** Closes the shared server and database (the cached outputs stay). */
export async function disposeBench(): Promise<void> {
  if (!shared) return
  const server = shared
  shared = null
  await server.close()
}
