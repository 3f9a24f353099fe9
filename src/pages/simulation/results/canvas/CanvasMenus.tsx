import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'

/** Canvas menus over the results viewport (placeholder until they land). */
export function CanvasMenus(_props: { simulation: Simulation; list: OutputManifestList }) {
  return null
}
