/** User export (spec/results.md §4): the request, its rules and the export job's record. */
import * as v from 'valibot'
import { EXPORT_STEP } from '../constants.ts'
import { JOB_STATES, JobMessageSchema } from '../jobs.ts'
import { checkNumber, issue, type Issue } from '../validation.ts'
import { checkOutputRange, MISSING_OUTPUTS_LIST_LIMIT } from './statistics.ts'

/** Boundary export modes. */
export const BOUNDARIES_MODES = ['full', 'reduced'] as const
/** Boundary export file types. */
export const BOUNDARIES_TYPES = ['vtu', 'stl'] as const
/** Export output modes. */
export const EXPORT_OUTPUT_MODES = ['single', 'range'] as const

const ids = v.array(v.pipe(v.number(), v.integer()))
const maybeNumber = v.nullable(v.number())

/** A user export request (POST /simulations/{id}/user_exports); empty inputs are null. */
export const ExportRequestSchema = v.object({
  simulationId: v.number(),
  allObjects: v.boolean(),
  /** Material ids. */
  materials: ids,
  /** Part ids. */
  boundaries: ids,
  sensors: ids,
  /** Material ids of the fluids whose surface is reconstructed. */
  surfaceReconstructions: ids,
  boundariesMode: v.picklist(BOUNDARIES_MODES),
  boundariesType: v.picklist(BOUNDARIES_TYPES),
  allAttributes: v.boolean(),
  attributes: v.array(v.string()),
  outputMode: v.picklist(EXPORT_OUTPUT_MODES),
  outputsSingle: maybeNumber,
  outputsRange: v.tuple([maybeNumber, maybeNumber]),
  stepSize: maybeNumber,
  logs: v.boolean(),
  setup: v.boolean(),
})
/** A user export request. */
export type ExportRequest = v.InferOutput<typeof ExportRequestSchema>

/** Texts of the export form (spec/results.md §4 "Export", §5, §8). */
export const EXPORT_MESSAGES = {
  configurationError: 'Error in export configuration',
  selectItem: 'Select at least 1 item to start export',
  missingSingleOutput: 'Missing data for the selected output',
  surfaceNeedsFluid: 'A fluid must be selected to export surface reconstructions.',
  confirmNew: 'Previously exported files will be deleted. Are you sure?',
  confirmNoAttributes: 'No attributes are selected. Are you sure?',
  defaultName: 'Exporting files to download',
  failed: 'Exporting files failed because of unknown reason.',
  deleted: 'Previously exported data was deleted. Start new export.',
  missingOutputs: (outputs: readonly number[]) =>
    `Missing data for outputs: ${listMissingOutputs(outputs)}`,
} as const

/** The two tabs of the export form. */
export const EXPORT_TABS = ['1. Select Data', '2. Download Files'] as const

/** The download tab is disabled when the previous export expired. */
export function isDownloadTabDisabled(previousExportState: string | null): boolean {
  return previousExportState === 'expired'
}

/** Missing outputs as listed in export messages: all of them, or the first 3 and last 2 from 6 on. */
export function listMissingOutputs(outputs: readonly number[]): string {
  const unique = [...new Set(outputs)].sort((a, b) => a - b)
  if (unique.length < MISSING_OUTPUTS_LIST_LIMIT) return unique.join(', ')
  return [...unique.slice(0, 3), '...', ...unique.slice(-2)].join(', ')
}

/** A new export form: single output (the last one), step 1, vtu boundaries, nothing selected. */
export function defaultExportRequest(
  simulationId: number,
  lastOutputNo: number | null,
): ExportRequest {
  return {
    simulationId,
    allObjects: false,
    materials: [],
    boundaries: [],
    sensors: [],
    surfaceReconstructions: [],
    boundariesMode: 'full',
    boundariesType: 'vtu',
    allAttributes: false,
    attributes: [],
    outputMode: 'single',
    outputsSingle: lastOutputNo,
    outputsRange: [0, lastOutputNo],
    stepSize: EXPORT_STEP.default,
    logs: false,
    setup: false,
  }
}

function selectsObjects(request: ExportRequest): boolean {
  return (
    request.allObjects ||
    request.materials.length > 0 ||
    request.boundaries.length > 0 ||
    request.sensors.length > 0 ||
    request.surfaceReconstructions.length > 0
  )
}

/** The outputs an export covers: the single one, or start, start + step … up to end. */
export function exportOutputs(request: ExportRequest): number[] {
  if (request.outputMode === 'single')
    return request.outputsSingle === null ? [] : [request.outputsSingle]
  const [start, end] = request.outputsRange
  const step = request.stepSize
  if (start === null || end === null || step === null || !(step >= 1)) return []
  const outputs: number[] = []
  for (let n = start; n <= end; n += step) outputs.push(n)
  return outputs
}

/** What the export rules need: the outputs that have data and the fluids' material ids. */
export interface ExportContext {
  availableOutputs: readonly number[]
  fluidMaterialIds: readonly number[]
}

/**
 * Every rule of the export form: at least one item; with objects, a valid existing single output
 * or a valid range (integers, start <= end <= the largest output with data) with an integer step
 * of 1 … 100, where missing outputs of the range are a warning; surface reconstructions need a
 * selected fluid.
 */
export function checkExportRequest(request: ExportRequest, context: ExportContext): Issue[] {
  if (!selectsObjects(request) && !request.logs && !request.setup)
    return [issue('error', 'selection', EXPORT_MESSAGES.selectItem)]
  const issues: Issue[] = []
  if (request.surfaceReconstructions.length > 0) {
    const selected = request.allObjects ? context.fluidMaterialIds : request.materials
    if (!selected.some((id) => context.fluidMaterialIds.includes(id)))
      issues.push(issue('error', 'surfaceReconstructions', EXPORT_MESSAGES.surfaceNeedsFluid))
  }
  if (!selectsObjects(request)) return issues
  if (request.outputMode === 'single') {
    const outputIssues = checkNumber('outputsSingle', 'Output', request.outputsSingle, {
      min: 0,
      integer: true,
    })
    issues.push(...outputIssues)
    if (
      outputIssues.length === 0 &&
      !context.availableOutputs.includes(request.outputsSingle as number)
    )
      issues.push(issue('error', 'outputsSingle', EXPORT_MESSAGES.missingSingleOutput))
    return issues
  }
  // The range ends at the largest output with data, which also bounds exportOutputs().
  const lastOutputNo = Math.max(0, ...context.availableOutputs)
  const rangeIssues = checkOutputRange(
    request.outputsRange,
    { lastOutputNo, outputTimeIntervalS: 1 },
    'outputsRange',
  )
  const stepIssues = checkNumber('stepSize', 'Step size', request.stepSize, {
    min: EXPORT_STEP.min,
    max: EXPORT_STEP.max,
    integer: true,
  })
  issues.push(...rangeIssues, ...stepIssues)
  if (rangeIssues.length === 0 && stepIssues.length === 0) {
    const available = new Set(context.availableOutputs)
    const missing = exportOutputs(request).filter((n) => !available.has(n))
    if (missing.length > 0)
      issues.push(issue('warning', 'outputsRange', EXPORT_MESSAGES.missingOutputs(missing)))
  }
  return issues
}

/** 'Error in export configuration' while any error exists; null when the export may start. */
export function exportBlockedMessage(issues: readonly Issue[]): string | null {
  return issues.some((i) => i.level === 'error') ? EXPORT_MESSAGES.configurationError : null
}

/** The confirmations a new export asks for, in order. */
export function exportConfirmations(request: ExportRequest, hasPreviousExport: boolean): string[] {
  const confirmations: string[] = []
  if (hasPreviousExport) confirmations.push(EXPORT_MESSAGES.confirmNew)
  if (selectsObjects(request) && !request.allAttributes && request.attributes.length === 0)
    confirmations.push(EXPORT_MESSAGES.confirmNoAttributes)
  return confirmations
}

/** An error of an export, with the outputs it concerns. */
export const ExportErrorSchema = v.object({
  ...JobMessageSchema.entries,
  outputs: v.optional(v.array(v.number()), []),
})

/** A user export record (GET /simulations/{id}/user_exports). */
export const ExportRecordSchema = v.object({
  id: v.number(),
  name: v.string(),
  state: v.picklist(JOB_STATES),
  files: v.array(v.object({ id: v.number(), filename: v.string(), state: v.string() })),
  warnings: v.array(ExportErrorSchema),
  errors: v.array(ExportErrorSchema),
})
/** A user export record. */
export type ExportRecord = v.InferOutput<typeof ExportRecordSchema>
