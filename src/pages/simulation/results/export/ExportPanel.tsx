import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'

/** The export form (placeholder until the export lands). */
export function ExportPanel(_props: { simulation: Simulation; list: OutputManifestList }) {
  return null
}
