import type { Simulation } from '../../../../../domain/projects.ts'

/** The object explorer (H3). */
export function SetupExplorer(_props: { simulation: Simulation }) {
  return null
}
