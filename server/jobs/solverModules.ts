import type { RunParticles, RunSimulation } from '../../solver/run/types.ts'
import type { RunSetup } from '../../solver/setup.ts'
import type { DiscretizationOutcome, PartMessage } from './types.ts'

/*
 * The solver's entry points, loaded when a job thread needs them. The discretizer's result is read
 * by shape (particles, errors, warnings, summary) so this side does not break when it grows.
 */

const RUN_MODULE = '../../solver/run/index.ts'
const DISCRETIZER_MODULE = '../../solver/discretizer/index.ts'

export async function loadRunSimulation(): Promise<RunSimulation> {
  const module = (await import(RUN_MODULE)) as { runSimulation?: RunSimulation }
  if (typeof module.runSimulation !== 'function')
    throw new Error('The solver (solver/run) exports no runSimulation.')
  return module.runSimulation
}

type Discretize = (setup: RunSetup) => unknown

export async function loadDiscretize(): Promise<Discretize> {
  const module = (await import(DISCRETIZER_MODULE)) as { discretize?: Discretize }
  if (typeof module.discretize !== 'function')
    throw new Error('The discretizer (solver/discretizer) exports no discretize.')
  return module.discretize
}

function readMessages(list: unknown): PartMessage[] {
  if (!Array.isArray(list)) return []
  return list.map((item: unknown) => {
    if (typeof item === 'string') return { description: item }
    const record = (item ?? {}) as Record<string, unknown>
    const description = String(record.description ?? record.message ?? 'Unknown problem')
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
    },
  }
}
