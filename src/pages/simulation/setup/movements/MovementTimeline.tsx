import type { Simulation } from '../../../../../domain/projects.ts'

/** The movement timeline (H5). */
export function MovementTimeline(_props: { simulation: Simulation }) {
  return null
}
