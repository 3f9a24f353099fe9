/**
 * What modules of solver/sph (probes, benchmarks) read of a solver made by createSolver.
 */
import type { SphConstants } from './config.ts'
import type { GridView } from './grid.ts'
import type { ParticleArrays } from './particles.ts'
import type { Solver } from './solverTypes.ts'

/**
 * What the probes of probes.ts read of a solver: its sorted particle arrays (positions, densities,
 * wall pressures), the cell grid of the last sort and the constants. For modules of solver/sph.
 */
export interface SolverInternals {
  arrays: ParticleArrays
  grid: GridView
  constants: SphConstants
  /** Particles in the arrays now. */
  count(): number
  timeS(): number
}

const internalsOf = new WeakMap<Solver, SolverInternals>()

/** Called once by the solver's constructor. */
export function setSolverInternals(solver: Solver, internals: SolverInternals): void {
  internalsOf.set(solver, internals)
}

/** The internals of a solver made by createSolver. */
export function solverInternals(solver: Solver): SolverInternals {
  const internals = internalsOf.get(solver)
  if (!internals) throw new Error('Not a solver made by createSolver.')
  return internals
}
