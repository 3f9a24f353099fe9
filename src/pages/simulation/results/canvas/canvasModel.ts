import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
export {
  MATERIAL_DISPLAY_LABELS,
  PART_VIEW_LABELS,
  type MaterialDisplayMode,
  type PartViewMode,
} from '../../../../../domain/results.ts'
import type { MaterialView, PartView } from '../../../../state/viewportAtoms.ts'

/** The results view draws walls translucent (a closed tank would hide its fluid) and open boundaries as surfaces. */
export function defaultPartView(kind: 'wall_boundary' | 'open_boundary'): PartView {
  return { visible: true, viewMode: kind === 'wall_boundary' ? 'translucent' : 'surface' }
}

/** A fluid is drawn as spheres unless told otherwise. */
export const DEFAULT_MATERIAL_VIEW: MaterialView = {
  visible: true,
  displayMode: 'particles_spheres',
}

/** Point sizes the fluid view mode dialog offers, CSS pixels (the engine's limits). */
export const POINT_SIZE_RANGE_PX = { min: 1, max: 64 } as const

/** An object of the outputs the view mode dialogs act on. */
export interface ViewObject {
  objectId: string
  name: string
  kind: 'fluid' | 'wall_boundary' | 'open_boundary'
}

/** Fluids and parts (walls, open boundaries) of the first output, by id, without duplicates. */
export function viewObjects(list: OutputManifestList): {
  fluids: ViewObject[]
  parts: ViewObject[]
} {
  const fluids: ViewObject[] = []
  const parts: ViewObject[] = []
  const seen = new Set<string>()
  for (const object of list.outputs[0]?.objects ?? []) {
    if (seen.has(object.objectId)) continue
    seen.add(object.objectId)
    if (object.kind === 'fluid') fluids.push({ ...object, kind: object.kind })
    else if (object.kind === 'wall_boundary' || object.kind === 'open_boundary')
      parts.push({ ...object, kind: object.kind })
  }
  return { fluids, parts }
}

/** The one value every item shares, or null when they differ (or there are none). */
export function sharedValue<T>(values: readonly T[]): T | null {
  const first = values[0]
  if (first === undefined) return null
  return values.every((value) => value === first) ? first : null
}

/** The file name of a saved image: '{simulation name} output {n}.png', safe for any file system. */
export function imageFileName(simulationName: string, outputNo: number | null): string {
  const printable = Array.from(simulationName, (char) => (char < ' ' ? '_' : char)).join('')
  const base = printable.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'simulation'
  return outputNo === null ? `${base}.png` : `${base} output ${outputNo}.png`
}

/** The velocity columns the arrows follow. */
export const VELOCITY_COLUMNS: [string, string, string] = ['vx', 'vy', 'vz']

/** True when every fluid of the first output carries the velocity columns (the arrows need them). */
export function hasVelocityColumns(list: OutputManifestList): boolean {
  const fluids = list.outputs[0]?.objects.filter((object) => object.kind === 'fluid') ?? []
  return (
    fluids.length > 0 &&
    fluids.every((fluid) => VELOCITY_COLUMNS.every((column) => fluid.columns.includes(column)))
  )
}
