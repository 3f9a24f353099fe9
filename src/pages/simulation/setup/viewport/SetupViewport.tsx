import type { Simulation } from '../../../../../domain/projects.ts'

/** The 3D view of the setup (H3). */
export function SetupViewport(_props: { simulation: Simulation }) {
  return null
}
