import type { Simulation } from '../../../../../domain/projects.ts'

/** The toolbar: Add menu, Physics, Settings and the part folders (H3). */
export function SetupToolbar(_props: { simulation: Simulation }) {
  return null
}
