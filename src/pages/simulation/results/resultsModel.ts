import { COLOUR_MAP_TICKS, TIMELINE_LABEL_PRECISION } from '../../../../domain/constants.ts'
import { ATTRIBUTE_COLUMNS, COLUMN_UNITS } from '../../../../domain/outputFormat.ts'
import {
  outputBundleUrl,
  type OutputManifestInfo,
  type OutputManifestList,
} from '../../../../domain/rest/resultsRoutes.ts'
import {
  ATTRIBUTES,
  VECTOR_SUB_OPTIONS,
  applyColourRange,
  isAttributeName,
  type AttributeName,
  type CameraState,
  type ClippingPlane,
  type ColourMapState,
  type ColourRange,
  type VectorSubOption,
  type ViewportState,
} from '../../../../domain/results.ts'
import type { RenderIntent } from '../../../../engine/protocol.ts'
import type { ColourMapChoice, MaterialView, PartView } from '../../../state/viewportAtoms.ts'

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

/**
 * The results viewport's part views: a saved view where there is one, else translucent for walls
 * (a tank hides its fluid).
 */
export function wallViewIntents(
  manifest: OutputManifestInfo | undefined,
  parts: Readonly<Record<string, PartView>> = {},
): Extract<RenderIntent, { type: 'set_part_view' }>[] {
  return (manifest?.objects ?? [])
    .filter((object) => object.kind === 'wall_boundary' || parts[object.objectId] !== undefined)
    .map((object) => {
      const saved = parts[object.objectId]
      return {
        type: 'set_part_view',
        objectId: object.objectId,
        mode: saved?.viewMode ?? 'translucent',
        visible: saved?.visible ?? true,
      }
    })
}

/** The saved material views of the objects of an output, as intents. */
export function materialViewIntents(
  manifest: OutputManifestInfo | undefined,
  materials: Readonly<Record<string, MaterialView>>,
): Extract<RenderIntent, { type: 'set_material_display' }>[] {
  return (manifest?.objects ?? []).flatMap((object) => {
    const saved = materials[object.objectId]
    if (!saved) return []
    return [
      {
        type: 'set_material_display' as const,
        objectId: object.objectId,
        mode: saved.displayMode,
        visible: saved.visible,
      },
    ]
  })
}

/** The colour map bar's tick marks (25, 50, 75 %) with their values under a range. */
export function colourMapTicks(range: ColourRange): { fraction: number; value: number }[] {
  return COLOUR_MAP_TICKS.map((fraction) => ({
    fraction,
    value: range.min + fraction * (range.max - range.min),
  }))
}

/** An attribute's menu label with its unit: 'Velocity (m/s)'. */
export function attributeOptionLabel(option: AttributeOption): string {
  return option.unit ? `${option.label} (${option.unit})` : option.label
}

/** The camera as saved: the up vector scaled to length 1 (z up when it has no length). */
export function normalizeCamera(camera: CameraState): CameraState {
  const length = Math.hypot(...camera.up)
  const up: [number, number, number] =
    length > 0 && Number.isFinite(length)
      ? [camera.up[0] / length, camera.up[1] / length, camera.up[2] / length]
      : [0, 0, 1]
  return { ...camera, up }
}

/** The colour map choice as the viewport state saves it (min/max null: from the data). */
export function toColourMapState(choice: ColourMapChoice): ColourMapState | null {
  if (!isAttributeName(choice.attribute)) return null
  return {
    scheme: choice.scheme,
    attribute: choice.attribute,
    subAttribute: ATTRIBUTES[choice.attribute].kind === 'vector' ? choice.subOption : null,
    min: choice.range?.min ?? null,
    max: choice.range?.max ?? null,
  }
}

/** A saved colour map as the page's choice; a half-saved range counts as none. */
export function fromColourMapState(state: ColourMapState): ColourMapChoice {
  const subOption = VECTOR_SUB_OPTIONS.find((sub) => sub === state.subAttribute) ?? 'magnitude'
  return {
    attribute: state.attribute,
    subOption,
    scheme: state.scheme,
    range: state.min !== null && state.max !== null ? applyColourRange(state.min, state.max) : null,
  }
}

/** What the page saves of the results viewport (spec/results.md §3 Viewport state). */
export interface ViewportStateInputs {
  camera: CameraState
  colour: ColourMapChoice
  output: number | null
  coordinateSystem: boolean
  clip: ClippingPlane
  parts: Record<string, PartView>
  materials: Record<string, MaterialView>
}

/** The viewport state to save, with the camera normalized. */
export function buildViewportState(inputs: ViewportStateInputs): ViewportState {
  return {
    camera: normalizeCamera(inputs.camera),
    colorMap: toColourMapState(inputs.colour),
    output: inputs.output,
    coordinateSystem: inputs.coordinateSystem,
    clippingPlane: inputs.clip,
    parts: inputs.parts,
    materials: inputs.materials,
  }
}
