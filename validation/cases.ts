/**
 * The validation cases of the SPH solver (scripts/validate.ts runs them at two resolutions each,
 * solver/run/validation.test.ts coarse versions): each module holds one case, its reference data
 * and its metrics. Every case runs the default settings of a new simulation (lyu21 shifting,
 * dual-step RK4, Riemann wall) unless a study overrides them.
 */
export * from './common.ts'
export * from './caseSolver.ts'
export * from './hydrostatic.ts'
export * from './martinMoyce.ts'
export * from './lobovsky.ts'
export * from './closedBox.ts'
export * from './piston.ts'
export * from './pointcloud.ts'
export * from './heat.ts'
export * from './viscosity.ts'
export * from './surfaceTension.ts'
export * from './multiphase.ts'
export * from './airDrag.ts'
export * from './rotatingBucket.ts'
export * from './rotatingSector.ts'
export * from './openChannel.ts'
export * from './refinement.ts'
