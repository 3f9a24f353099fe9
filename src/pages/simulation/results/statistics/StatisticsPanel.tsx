import type { Simulation } from '../../../../../domain/projects.ts'

/** The Statistics table panel (placeholder until the panel lands). */
export function StatisticsPanel(_props: { simulation: Simulation }) {
  return null
}
