/** The discretizer's public API: discretize(setup) → particles for solver/sph, issues, summary. */
export {
  BYTES_PER_PARTICLE,
  DEFAULT_WALL_LAYERS,
  discretize,
  maxParticlesForMemory,
  tooManyParticlesMessage,
} from './discretize.ts'
export { placePartGeometry } from './partGeometry.ts'
export type { PlacedGeometry } from './partGeometry.ts'
export {
  DiscretizationCanceledError,
  DISCRETIZATION_ISSUE_CODES,
  PART_ROLES,
  partWarningsOf,
  toDiscretizationMessages,
} from './types.ts'
export type {
  Discretization,
  DiscretizationIssue,
  DiscretizationIssueCode,
  DiscretizationSummary,
  DiscretizeOptions,
  MaterialDiscretizationSummary,
  PartDiscretizationSummary,
  PartRole,
} from './types.ts'
