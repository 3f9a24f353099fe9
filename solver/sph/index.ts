/** The SPH solver's public API (see NUMERICS.md for the numerics and choices). */
export { createSolver } from './SphSolver.ts'
export type {
  PassMeasurement,
  RunHooks,
  Solver,
  SolverDescription,
  SolverSnapshot,
  SolverStepReport,
} from './SphSolver.ts'
export { DEFAULT_SOLVER_OPTIONS, SolverSetupError } from './config.ts'
export { solverPartOf, unsupportedParts, unsupportedSettings } from './support.ts'
export type {
  BoundaryKind,
  Integrator,
  SolverConfig,
  SolverMaterial,
  SolverOptions,
  SolverPart,
  SolverParticles,
  SphConstants,
} from './config.ts'
export { createDomainMovementMotion, createMovementMotion } from './motion.ts'
export type { Movement, RigidPose, WallMotion } from './motion.ts'
export { PARTICLE_KIND } from './particles.ts'
export type { ParticleKind } from './particles.ts'
export { benchmarkForcePass } from './benchmark.ts'
export type { ForcePassBenchmark } from './benchmark.ts'
export {
  buildDamBreak,
  buildTankParticles,
  createDamBreakConfig,
  supportedSettings,
  tankPeriodicY,
} from './scenarios.ts'
export type { TankScenario } from './scenarios.ts'
export { createPressureSampler, probePressure } from './probes.ts'
export type { PressureSampler } from './probes.ts'
