import type { Kysely } from 'kysely'
import { createHash } from 'node:crypto'
import type { AirDragDomain } from '../../domain/airDrag.ts'
import { encodeAirDragGridFile, type AirDragGrid } from '../../domain/airDragGridFile.ts'
import { airDragGridDims } from '../../solver/run/airDragSetup.ts'
import type { Database } from '../db/schema.ts'
import { readStoredAirDragDomain } from './airDragRead.ts'
import { readAirDragTable } from './airDragRun.ts'

/*
 * GET /simulations/{id}/air_drag_domain/grid (server/setup/fileRoutes.ts): the air drag domain's
 * grid as domain/airDragGridFile.ts writes it, for the Results explorer's Air Drag item. The cells
 * are the run's (solver/run/airDragSetup.ts airDragGridDims); the velocity is the air's at the
 * start: the constant one, the table's first row by time, none for kind simulation (it varies
 * over the cells).
 */

type Db = Kysely<Database>

/** The grid of a stored domain, or why there is none. */
export async function airDragGridOf(
  db: Db,
  simulationId: number,
): Promise<{ grid: AirDragGrid; hash: string } | string> {
  const domain = await readStoredAirDragDomain(db, simulationId)
  if (!domain) return 'The simulation has no air drag domain.'
  const { center, size, cellSize } = domain
  const values = [...center, ...size]
  if (!values.every((v) => typeof v === 'number' && Number.isFinite(v)))
    return 'The air drag domain has no size or centre yet.'
  if (!(typeof cellSize === 'number' && cellSize > 0) || size.some((s) => !((s as number) > 0)))
    return 'The air drag domain has no cells yet.'
  const c = center as number[]
  const s = size as number[]
  const velocity = await startVelocity(db, simulationId, domain)
  const grid: AirDragGrid = {
    dims: airDragGridDims(s, cellSize),
    kind: domain.kind,
    min: [c[0]! - s[0]! / 2, c[1]! - s[1]! / 2, c[2]! - s[2]! / 2],
    cellSize,
    velocity,
  }
  const hash = createHash('sha256').update(JSON.stringify(grid)).digest('hex').slice(0, 32)
  return { grid, hash }
}

async function startVelocity(
  db: Db,
  simulationId: number,
  domain: AirDragDomain,
): Promise<[number, number, number] | null> {
  if (domain.kind === 'constant') {
    const v = domain.velocity
    return v && v.every((x) => typeof x === 'number') ? (v as [number, number, number]) : null
  }
  if (domain.kind !== 'table') return null
  const table = await readAirDragTable(db, simulationId, domain)
  if (!table) return null
  const columns = ['time', 'vel_x', 'vel_y', 'vel_z'].map((name) => table.table[name] ?? [])
  let first: number[] | null = null
  for (let r = 0; r < (columns[0]?.length ?? 0); r++) {
    const row = columns.map((column) => column[r])
    if (!row.every((x) => typeof x === 'number' && Number.isFinite(x))) continue
    if (first === null || (row[0] as number) < first[0]!) first = row as number[]
  }
  return first ? [first[1]!, first[2]!, first[3]!] : null
}

/** The grid file's bytes. */
export function airDragGridBytes(grid: AirDragGrid): Uint8Array {
  return encodeAirDragGridFile(grid)
}
