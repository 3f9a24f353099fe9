import type { Simulation } from '../../../../../domain/projects.ts'

/** The stats chart window system (placeholder until the charts land). */
export function ChartWindows(_props: { simulation: Simulation }) {
  return null
}
