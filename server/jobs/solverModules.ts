import type { RunParticles, RunSimulation } from '../../solver/run/types.ts'
import type { RunSetup } from '../../solver/setup.ts'
import type { DiscretizationOutcome, PartMessage } from './types.ts'

/*
 * The solver's entry points, loaded when a job thread needs them. The discretizer's result is read
 * by shape (particles, errors, warnings, summary) so this side does not break when it grows.
 */

const RUN_MODULES = ['../../solver/run/index.ts', '../../solver/run/runSimulation.ts']
const DISCRETIZER_MODULES = [
  '../../solver/discretizer/index.ts',
  '../../solver/discretizer/discretize.ts',
]

/** The first of the modules that loads and exports `name` as a function. */
async function loadExport<T>(paths: readonly string[], name: string, what: string): Promise<T> {
  for (const path of paths) {
    let module: Record<string, unknown>
    try {
      module = (await import(path)) as Record<string, unknown>
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(path.slice(6))) continue
      throw error
    }
    if (typeof module[name] === 'function') return module[name] as T
  }
  throw new Error(`${what} exports no ${name}.`)
}

export function loadRunSimulation(): Promise<RunSimulation> {
  return loadExport(RUN_MODULES, 'runSimulation', 'The solver (solver/run)')
}

/** discretize(setup, options) of solver/discretizer. */
export type Discretize = (
  setup: RunSetup,
  options?: { onProgress?: (fraction: number) => void },
) => unknown

export function loadDiscretize(): Promise<Discretize> {
  return loadExport(DISCRETIZER_MODULES, 'discretize', 'The discretizer (solver/discretizer)')
}

function readMessages(list: unknown): PartMessage[] {
  if (!Array.isArray(list)) return []
  return list.map((item: unknown) => {
    if (typeof item === 'string') return { description: item }
    const record = (item ?? {}) as Record<string, unknown>
    const text = record.description ?? record.message
    const description = typeof text === 'string' ? text : 'Unknown problem'
    const partId = typeof record.partId === 'number' ? record.partId : null
    return { description, partId }
  })
}

/** The particles and messages of a discretizer result. */
export function readDiscretization(result: unknown): {
  particles: RunParticles | null
  outcome: DiscretizationOutcome
} {
  const record = (result ?? {}) as Record<string, unknown>
  const particles = (
    'particles' in record && record.particles
      ? record.particles
      : 'positions' in record
        ? record
        : null
  ) as RunParticles | null
  const summary = record.summary ?? record.quality ?? null
  return {
    particles,
    outcome: {
      errors: readMessages(record.errors),
      warnings: readMessages(record.warnings),
      summary: summary === null ? null : JSON.parse(JSON.stringify(summary)),
      pointClouds: [],
    },
  }
}
