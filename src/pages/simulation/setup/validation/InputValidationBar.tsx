import type { Simulation } from '../../../../../domain/projects.ts'

/** The Input Validation bar (H3). */
export function InputValidationBar(_props: { simulation: Simulation }) {
  return null
}
