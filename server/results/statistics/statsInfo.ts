import { ATTRIBUTE_COLUMNS, POSITION_COLUMNS } from '../../../domain/outputFormat.ts'
import {
  ATTRIBUTE_NAMES,
  ATTRIBUTES,
  STATISTICS_OPERATIONS,
  VECTOR_SUB_OPTIONS,
} from '../../../domain/results.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'

/** One attribute statistics can be computed for (stats.info.resp). */
export interface StatisticsAttributeInfo {
  attribute: string
  subAttributes: string[]
  operations: string[]
}

/**
 * The attributes of the catalogue (domain ATTRIBUTES, menu order) whose columns some particle
 * object of the outputs has, with their sub-attributes (x, y, z, magnitude for vectors; material
 * ids for material-dependent ones) and operations: the six per-output operations, plus `integral`
 * (and `integral_magnitude` for vectors) where an object with the attribute also has mass and
 * density (statisticsCalc.ts says what the integral is).
 */
export function describeStatisticsAttributes(
  manifests: readonly OutputManifestInfo[],
): StatisticsAttributeInfo[] {
  const objects = manifests.flatMap((manifest) =>
    manifest.objects.filter((object) => object.kind !== 'volume_clip'),
  )
  const materialIds = [
    ...new Set(objects.filter((o) => o.kind === 'fluid').map((o) => String(o.sourceId))),
  ]
  const columnSets = objects.map((object) => new Set([...POSITION_COLUMNS, ...object.columns]))
  return ATTRIBUTE_NAMES.flatMap((attribute) => {
    const columns: readonly string[] = ATTRIBUTE_COLUMNS[attribute]
    const holders = columnSets.filter((set) => columns.every((column) => set.has(column)))
    if (holders.length === 0) return []
    const def = ATTRIBUTES[attribute]
    const integrable = holders.some((set) => set.has('mass') && set.has('density'))
    const operations: string[] = [...STATISTICS_OPERATIONS]
    if (integrable) operations.push('integral')
    if (integrable && def.kind === 'vector') operations.push('integral_magnitude')
    const subAttributes: string[] =
      def.kind === 'vector' ? [...VECTOR_SUB_OPTIONS] : def.materialDependent ? materialIds : []
    return [{ attribute, subAttributes, operations }]
  })
}
