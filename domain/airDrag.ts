/**
 * The air drag domain (spec/setup.md §3 "Air drag domain", §5 "Air drag domain"): a box of air
 * cells whose velocity is constant, given by a table over time, or taken from another simulation.
 */
import * as v from 'valibot'
import { idSchema } from './ids.ts'
import { checkNumber, checkVector, isPreliminary, issue, type Issue } from './validation.ts'
import { LooseVec3Schema } from './vector.ts'

const num = v.nullable(v.number())

export const AIR_DRAG_KINDS = ['constant', 'table', 'simulation'] as const
/** Where the air velocity comes from. */
export type AirDragKind = (typeof AIR_DRAG_KINDS)[number]

/** Most cells an air drag grid may have. */
export const MAX_AIR_DRAG_CELLS = 50_000_000
/** An air drag velocity table needs at least this many rows. */
export const AIR_DRAG_TABLE_MIN_ROWS = 2

export const AIR_DRAG_MESSAGES = {
  tableRows: `Table must have at least ${AIR_DRAG_TABLE_MIN_ROWS} rows.`,
  tableRequired: 'Table is required',
  referenceRequired: 'Reference simulation is required',
  endBeforeStart: 'The end output must be bigger than the start.',
} as const

const airDragEntries = {
  kind: v.picklist(AIR_DRAG_KINDS),
  center: LooseVec3Schema,
  /** Edge lengths, m. */
  size: LooseVec3Schema,
  /** Edge length of one cubic cell, m (unused for kind constant). */
  cellSize: num,
  /** Air velocity, m/s (kind constant). */
  velocity: v.nullable(LooseVec3Schema),
  tableId: v.nullable(idSchema('tableId')),
  refSimulationId: v.nullable(idSchema('refSimulationId')),
  refSimulationRunId: v.nullable(idSchema('refSimulationRunId')),
  /** true: a range of outputs (outputStart … outputEnd); false: one output (outputSingle). */
  outputRange: v.boolean(),
  outputSingle: num,
  outputStart: num,
  outputEnd: num,
  visibility: v.boolean(),
  gridVisibility: v.boolean(),
  /** Whether the resize handles are shown. */
  resize: v.boolean(),
}

/** GET /simulations/{id}/air_drag_domain. */
export const AirDragDomainSchema = v.object({ id: v.number(), ...airDragEntries })
/** The air drag domain. */
export type AirDragDomain = v.InferOutput<typeof AirDragDomainSchema>

/** PUT /simulations/{id}/air_drag_domain: any of the fields. */
export const AirDragDomainUpdateSchema = v.partial(v.strictObject(airDragEntries))
export type AirDragDomainUpdate = v.InferOutput<typeof AirDragDomainUpdateSchema>

/** A new air drag domain: a 1 m box of 0.1 m cells with still air. */
export function defaultAirDragDomain(id = 0): AirDragDomain {
  return {
    id,
    kind: 'constant',
    center: [0, 0, 0],
    size: [1, 1, 1],
    cellSize: 0.1,
    velocity: [0, 0, 0],
    tableId: null,
    refSimulationId: null,
    refSimulationRunId: null,
    outputRange: false,
    outputSingle: null,
    outputStart: null,
    outputEnd: null,
    visibility: true,
    gridVisibility: false,
    resize: false,
  }
}

/** Cells of the grid: ⌈size / cellSize⌉ per axis, multiplied; null while a value is unset. */
export function airDragCellCount(domain: Pick<AirDragDomain, 'size' | 'cellSize'>): number | null {
  const { size, cellSize } = domain
  if (typeof cellSize !== 'number' || !(cellSize > 0)) return null
  let count = 1
  for (const edge of size) {
    if (typeof edge !== 'number' || !(edge > 0)) return null
    // Rounded first so 1 / 0.1 counts 10 cells and not 11.
    count *= Math.ceil(Math.round((edge / cellSize) * 1e9) / 1e9)
  }
  return count
}

const formatCount = (n: number) => n.toLocaleString('en-US')

/** 'Total number of cells cannot exceed 50,000,000 (currently 64,000,000)' */
export function tooManyCellsMessage(count: number): string {
  return `Total number of cells cannot exceed ${formatCount(MAX_AIR_DRAG_CELLS)} (currently ${formatCount(count)})`
}

/** 'The simulation only has N outputs.' */
export function outputsAvailableMessage(outputCount: number): string {
  return `The simulation only has ${outputCount} outputs.`
}

/** What the air drag rules need to know beyond the domain. */
export interface AirDragRuleContext {
  /** Rows of the velocity table, or undefined when not loaded. */
  tableRowCount?: (tableId: number) => number | undefined
  /** Outputs of the reference simulation (numbered 0 … N−1), or undefined when not loaded. */
  referenceOutputCount?: number
}

function checkOutput(
  field: string,
  label: string,
  value: number | null,
  outputCount: number | undefined,
): Issue[] {
  const issues = checkNumber(field, label, value, { min: 0, integer: true })
  if (issues.length === 0 && outputCount !== undefined && (value as number) >= outputCount)
    issues.push(issue('error', field, outputsAvailableMessage(outputCount)))
  return issues
}

/** The rules of the air drag domain (spec/setup.md §5 "Air drag domain"). Fields 'airDrag.…'. */
export function checkAirDragDomain(
  domain: AirDragDomain,
  context: AirDragRuleContext = {},
  prefix = 'airDrag',
): Issue[] {
  const f = (key: string) => `${prefix}.${key}`
  const positive = { min: 0, exclusiveMin: true }
  const issues = [
    ...checkVector(f('center'), 'Center', domain.center),
    ...checkVector(f('size'), 'Size', domain.size, { bounds: positive }),
  ]
  if (domain.kind === 'constant') {
    issues.push(...checkVector(f('velocity'), 'Velocity', domain.velocity))
    return issues
  }
  const cellIssues = checkNumber(f('cellSize'), 'Cell size', domain.cellSize, positive)
  issues.push(...cellIssues)
  const cells = airDragCellCount(domain)
  if (cells !== null && cells > MAX_AIR_DRAG_CELLS)
    issues.push(issue('error', f('cellSize'), tooManyCellsMessage(cells)))
  if (domain.kind === 'table') {
    if (domain.tableId === null)
      issues.push(issue('info', f('tableId'), AIR_DRAG_MESSAGES.tableRequired))
    else {
      const rows = context.tableRowCount?.(domain.tableId)
      if (rows !== undefined && rows < AIR_DRAG_TABLE_MIN_ROWS)
        issues.push(issue('error', f('tableId'), AIR_DRAG_MESSAGES.tableRows))
    }
    return issues
  }
  if (isPreliminary(domain.refSimulationId)) {
    issues.push(issue('info', f('refSimulationId'), AIR_DRAG_MESSAGES.referenceRequired))
    return issues
  }
  const outputs = context.referenceOutputCount
  if (!domain.outputRange) {
    issues.push(...checkOutput(f('outputSingle'), 'Output', domain.outputSingle, outputs))
    return issues
  }
  const startIssues = checkOutput(f('outputStart'), 'Start output', domain.outputStart, outputs)
  const endIssues = checkOutput(f('outputEnd'), 'End output', domain.outputEnd, outputs)
  issues.push(...startIssues, ...endIssues)
  if (
    startIssues.length === 0 &&
    endIssues.length === 0 &&
    (domain.outputStart as number) > (domain.outputEnd as number)
  )
    issues.push(issue('error', f('outputEnd'), AIR_DRAG_MESSAGES.endBeforeStart))
  return issues
}
