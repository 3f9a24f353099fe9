import type { Simulation } from '../../../../../domain/projects.ts'

/** Discretize and its job widget (H5). */
export function DiscretizationControls(_props: { simulation: Simulation }) {
  return null
}
