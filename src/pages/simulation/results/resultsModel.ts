import { TIMELINE_LABEL_PRECISION } from '../../../../domain/constants.ts'
import { ATTRIBUTE_COLUMNS, COLUMN_UNITS } from '../../../../domain/outputFormat.ts'
import {
  outputBundleUrl,
  type OutputManifestInfo,
  type OutputManifestList,
} from '../../../../domain/rest/resultsRoutes.ts'
import {
  ATTRIBUTES,
  VECTOR_SUB_OPTIONS,
  isAttributeName,
  type AttributeName,
  type VectorSubOption,
} from '../../../../domain/results.ts'
import type { RenderIntent } from '../../../../engine/protocol.ts'
import type { ColourMapChoice } from '../../../state/viewportAtoms.ts'

/** An attribute the shown outputs can be coloured by. */
export interface AttributeOption {
  attribute: AttributeName
  label: string
  kind: 'scalar' | 'vector'
  /** Stored (SI) unit, '' for dimensionless attributes. */
  unit: string
  columns: readonly string[]
}

/**
 * Attributes every fluid of the output carries (all of an attribute's columns present), in the
 * catalogue's menu order. Position is always there.
 */
export function availableAttributes(manifest: OutputManifestInfo | undefined): AttributeOption[] {
  const fluids = manifest?.objects.filter((object) => object.kind === 'fluid') ?? []
  if (fluids.length === 0) return []
  const present = (column: string) =>
    fluids.every((fluid) => ['x', 'y', 'z', ...fluid.columns].includes(column))
  const options: AttributeOption[] = []
  for (const [name, columns] of Object.entries(ATTRIBUTE_COLUMNS)) {
    if (!isAttributeName(name) || !columns.every(present)) continue
    const def = ATTRIBUTES[name]
    options.push({
      attribute: name,
      label: def.label,
      kind: def.kind,
      unit: COLUMN_UNITS.get(columns[0] ?? '')?.unit ?? '',
      columns,
    })
  }
  return options
}

/** Columns to colour by: one scalar, one vector component, or three for a vector's magnitude. */
export function colourColumns(option: AttributeOption, subOption: VectorSubOption): string[] {
  if (option.kind !== 'vector' || subOption === 'magnitude') return [...option.columns]
  const index = VECTOR_SUB_OPTIONS.indexOf(subOption)
  const column = option.columns[index]
  return column === undefined ? [...option.columns] : [column]
}

/** The set_colour intent of a choice; null when the attribute is not in the output. */
export function colourIntent(
  choice: ColourMapChoice,
  options: readonly AttributeOption[],
): Extract<RenderIntent, { type: 'set_colour' }> | null {
  const option = options.find((candidate) => candidate.attribute === choice.attribute)
  if (!option) return null
  return {
    type: 'set_colour',
    attribute: choice.attribute,
    columns: colourColumns(option, choice.subOption),
    scheme: choice.scheme,
    range: choice.range,
  }
}

/** The set_outputs intent of a manifest list: every complete output with its bundle URL. */
export function setOutputsIntent(
  list: OutputManifestList,
): Extract<RenderIntent, { type: 'set_outputs' }> | null {
  const runId = list.runId
  if (runId === null) return null
  return {
    type: 'set_outputs',
    simulationId: list.simulationId,
    runId,
    outputs: list.outputs.map((manifest) => ({
      outputNo: manifest.outputNo,
      timeS: manifest.timeS,
      bundleUrl: outputBundleUrl(list.simulationId, runId, manifest.outputNo),
      estimatedBytes: manifest.objects.reduce((sum, object) => sum + object.sizeBytes.full, 0),
    })),
  }
}

/** A number with the timeline's 4 significant digits, without trailing zeros. */
export function formatTimelineNumber(value: number): string {
  if (value === 0) return '0'
  return String(Number(value.toPrecision(TIMELINE_LABEL_PRECISION)))
}

/** The timeline label of an output: 'Output 12 · 0.6 s'. */
export function formatOutputLabel(outputNo: number, timeS: number): string {
  return `Output ${outputNo} · ${formatTimelineNumber(timeS)} s`
}

/** A playback speed as shown: '1×', '0.5×', '2048×'. */
export function formatSpeed(speed: number): string {
  return `${formatTimelineNumber(speed)}×`
}

/** The results viewport's default part views: every wall translucent (a tank hides its fluid). */
export function wallViewIntents(
  manifest: OutputManifestInfo | undefined,
): Extract<RenderIntent, { type: 'set_part_view' }>[] {
  return (manifest?.objects ?? [])
    .filter((object) => object.kind === 'wall_boundary')
    .map((object) => ({
      type: 'set_part_view',
      objectId: object.objectId,
      mode: 'translucent',
      visible: true,
    }))
}
