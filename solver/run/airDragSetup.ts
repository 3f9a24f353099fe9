/**
 * The air of a run with settings.airDrag (spec/setup.md §3 "Air drag domain"): the solver's
 * AirDragInput from the setup's air drag domain, its velocity table (kind table: columns time,
 * vel_x, vel_y, vel_z) or the reference simulation's outputs sampled on the domain's grid (kind
 * simulation), or a message saying what is missing.
 */
import type { AirDragDomain } from '../../domain/airDrag.ts'
import { formatNumber } from '../../domain/units.ts'
import type { AirDragInput } from '../sph/airDragField.ts'
import type { AirDragReferenceFrame, RunSetup } from '../setup.ts'

/** Most bytes the grid's frames may take (vx, vy, vz float32 per cell and frame). */
export const MAX_AIR_DRAG_GRID_BYTES = 2 ** 30

/** Cells of the grid along each axis: ⌈size / cellSize⌉ (domain/airDrag.ts airDragCellCount). */
export function airDragGridDims(
  size: readonly number[],
  cellSize: number,
): [number, number, number] {
  const dims = size.map((edge) => Math.max(1, Math.ceil(Math.round((edge / cellSize) * 1e9) / 1e9)))
  return [dims[0]!, dims[1]!, dims[2]!]
}

/**
 * The mean velocity of the reference's fluid particles in each cell of the grid (cells with none:
 * still air), one frame per output; times from the first output's (the first frame is the air at
 * the start of the run).
 */
export function sampleAirDragGrid(
  min: readonly number[],
  cellSize: number,
  dims: readonly [number, number, number],
  frames: readonly AirDragReferenceFrame[],
): { timesS: number[]; frames: Float32Array } {
  const [nx, ny, nz] = dims
  const cells = nx * ny * nz
  const out = new Float32Array(new SharedArrayBuffer(frames.length * cells * 12))
  const sum = new Float64Array(cells * 3)
  const count = new Uint32Array(cells)
  const inv = 1 / cellSize
  frames.forEach((frame, f) => {
    sum.fill(0)
    count.fill(0)
    const n = Math.min(frame.positions.length, frame.velocities.length) / 3
    for (let p = 0; p < n; p++) {
      const ix = Math.floor((frame.positions[3 * p]! - min[0]!) * inv)
      const iy = Math.floor((frame.positions[3 * p + 1]! - min[1]!) * inv)
      const iz = Math.floor((frame.positions[3 * p + 2]! - min[2]!) * inv)
      if (ix < 0 || iy < 0 || iz < 0 || ix >= nx || iy >= ny || iz >= nz) continue
      const c = ix + nx * (iy + ny * iz)
      count[c]!++
      for (let k = 0; k < 3; k++) sum[3 * c + k]! += frame.velocities[3 * p + k]!
    }
    const offset = f * cells * 3
    for (let c = 0; c < cells; c++) {
      const n = count[c]!
      if (n === 0) continue
      for (let k = 0; k < 3; k++) out[offset + 3 * c + k] = sum[3 * c + k]! / n
    }
  })
  const t0 = frames[0]?.timeS ?? 0
  return { timesS: frames.map((frame) => frame.timeS - t0), frames: out }
}

function tableInput(
  domain: AirDragDomain,
  datatables: RunSetup['datatables'],
): Pick<AirDragInput, 'uniform'> | string {
  const table = domain.tableId === null ? undefined : datatables?.[domain.tableId]
  if (!table) return 'The air drag domain needs its velocity table.'
  const columns = ['time', 'vel_x', 'vel_y', 'vel_z'].map((name) => table.table[name] ?? [])
  const rows: number[][] = []
  const length = Math.max(...columns.map((column) => column.length))
  for (let r = 0; r < length; r++) {
    const row = columns.map((column) => column[r] ?? null)
    if (row.every((value) => value === null)) continue
    if (row.some((value) => value === null || !Number.isFinite(value)))
      return 'The air drag velocity table needs a time, vel_x, vel_y and vel_z in every row.'
    rows.push(row as number[])
  }
  if (rows.length < 2) return 'The air drag velocity table needs at least 2 rows.'
  rows.sort((a, b) => a[0]! - b[0]!)
  for (let r = 1; r < rows.length; r++)
    if (rows[r]![0] === rows[r - 1]![0])
      return 'The air drag velocity table has two rows at the same time.'
  return {
    uniform: {
      timesS: rows.map((row) => row[0]!),
      velocities: rows.flatMap((row) => row.slice(1)),
    },
  }
}

/** Inputs already built, by setup (checkRunStart and the solver config both ask). */
const built = new WeakMap<RunSetup, AirDragInput | null | string>()

/**
 * The solver's air drag input of a run (null with settings.airDrag off), or a message when the
 * domain cannot run as stored. Built once per setup object.
 */
export function airDragInputOf(setup: RunSetup): AirDragInput | null | string {
  let input = built.get(setup)
  if (input === undefined) {
    input = buildAirDragInput(setup)
    built.set(setup, input)
  }
  return input
}

function buildAirDragInput(setup: RunSetup): AirDragInput | null | string {
  if (!setup.settings.airDrag) return null
  const domain = setup.airDragDomain
  if (!domain) return 'Air drag needs the air drag domain.'
  const { center, size } = domain
  if (![...center, ...size].every((value) => value !== null && Number.isFinite(value)))
    return 'The air drag domain needs its center and size.'
  const c = center as number[]
  const s = size as number[]
  if (!s.every((edge) => edge > 0)) return 'The air drag domain needs a size greater than 0.'
  const min: [number, number, number] = [c[0]! - s[0]! / 2, c[1]! - s[1]! / 2, c[2]! - s[2]! / 2]
  const max: [number, number, number] = [c[0]! + s[0]! / 2, c[1]! + s[1]! / 2, c[2]! + s[2]! / 2]
  if (domain.kind === 'constant') {
    const velocity = domain.velocity
    if (!velocity || !velocity.every((value) => value !== null && Number.isFinite(value)))
      return 'The air drag domain needs a velocity.'
    return { min, max, uniform: { timesS: [0], velocities: velocity as number[] } }
  }
  if (domain.kind === 'table') {
    const table = tableInput(domain, setup.datatables)
    return typeof table === 'string' ? table : { min, max, ...table }
  }
  const cellSize = domain.cellSize
  if (cellSize === null || !(cellSize > 0))
    return 'The air drag domain needs a cell size greater than 0.'
  const frames = setup.airDragFrames ?? []
  if (frames.length === 0)
    return "The air drag domain's reference simulation has no output to take the air from."
  const dims = airDragGridDims(s, cellSize)
  const bytes = frames.length * dims[0] * dims[1] * dims[2] * 12
  if (bytes > MAX_AIR_DRAG_GRID_BYTES)
    return `The air drag grid of ${formatNumber(frames.length)} outputs needs ${formatNumber(Math.ceil(bytes / 2 ** 20))} MiB, more than ${formatNumber(MAX_AIR_DRAG_GRID_BYTES / 2 ** 20)} MiB: use fewer outputs or larger cells.`
  return { min, max, grid: { cellSize, dims, ...sampleAirDragGrid(min, cellSize, dims, frames) } }
}
