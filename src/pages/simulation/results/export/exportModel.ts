import { ATTRIBUTE_COLUMNS } from '../../../../../domain/outputFormat.ts'
import type { ExportStatus } from '../../../../../domain/rest/exportRoutes.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import {
  ATTRIBUTE_NAMES,
  ATTRIBUTES,
  type AttributeName,
  type ExportContext,
} from '../../../../../domain/results.ts'

/* What the export form offers, derived from the run's outputs, and how it shows an export. */

/** A material or part the form lists. */
export interface ExportObjectOption {
  id: number
  name: string
}

/** The choices of the form: fluids (materials), boundaries (parts), attributes, outputs. */
export interface ExportOptions {
  materials: ExportObjectOption[]
  boundaries: ExportObjectOption[]
  attributes: { name: AttributeName; label: string }[]
  context: ExportContext
  lastOutputNo: number | null
}

function addOption(options: ExportObjectOption[], id: number, name: string): void {
  if (!options.some((option) => option.id === id)) options.push({ id, name })
}

/** The materials, parts and attributes found in any output, and the outputs with data. */
export function exportOptions(list: OutputManifestList): ExportOptions {
  const materials: ExportObjectOption[] = []
  const boundaries: ExportObjectOption[] = []
  const columns = new Set<string>()
  for (const output of list.outputs)
    for (const object of output.objects) {
      if (object.kind === 'fluid') addOption(materials, object.sourceId, object.name)
      else if (object.kind === 'wall_boundary' || object.kind === 'open_boundary')
        addOption(boundaries, object.sourceId, object.name)
      else continue
      for (const column of object.columns) columns.add(column)
    }
  const attributes = ATTRIBUTE_NAMES.filter(
    (name) => name !== 'position' && ATTRIBUTE_COLUMNS[name].every((c) => columns.has(c)),
  ).map((name) => ({ name, label: ATTRIBUTES[name].label }))
  const availableOutputs = list.outputs.map((output) => output.outputNo)
  return {
    materials,
    boundaries,
    attributes,
    context: { availableOutputs, fluidMaterialIds: materials.map((m) => m.id) },
    lastOutputNo: availableOutputs.at(-1) ?? null,
  }
}

/** A typed number: empty is null, anything else Number() (NaN fails the rules' number check). */
export function parseNumberInput(text: string): number | null {
  return text.trim() === '' ? null : Number(text)
}

/** The text a number field shows. */
export function formatNumberInput(value: number | null): string {
  return value === null || Number.isNaN(value) ? '' : String(value)
}

/** The state an export is shown with: an expired export is shown as unknown (spec §4 "Jobs"). */
export function displayedExportState(state: ExportStatus['state']): ExportStatus['state'] {
  return state === 'expired' ? 'unknown' : state
}

/** Whether a new export deletes files of a previous one (and so asks first): files or work under way. */
export function hasPreviousExport(status: ExportStatus | null): boolean {
  if (status === null) return false
  return isExportActive(status) || (status.state === 'completed' && status.files.length > 0)
}

/** Whether the export's work is still going (polled, cancelable). */
export function isExportActive(status: ExportStatus | null): boolean {
  return status !== null && (status.state === 'scheduled' || status.state === 'running')
}

/** Outputs of a message as listed under it ('Outputs: 1, 4'); '' when it names none. */
export function formatMessageOutputs(outputs: readonly number[]): string {
  return outputs.length === 0 ? '' : `Outputs: ${outputs.join(', ')}`
}
