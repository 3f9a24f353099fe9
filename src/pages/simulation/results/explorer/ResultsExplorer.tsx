import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'

/** The results explorer (placeholder until the explorer lands). */
export function ResultsExplorer(_props: { simulation: Simulation; list: OutputManifestList }) {
  return null
}
