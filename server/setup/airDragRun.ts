import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { AirDragDomain } from '../../domain/airDrag.ts'
import { objectFile } from '../../domain/output/layout.ts'
import { readObjectStream } from '../../domain/output/reader.ts'
import type { AirDragReferenceFrame, RunDatatable } from '../../solver/setup.ts'
import type { Database } from '../db/schema.ts'
import { readOutputManifest } from '../results/outputFiles.ts'

/*
 * What a run with settings.airDrag needs beyond the setup (solver/run/airDragSetup.ts builds the
 * air from it): the air drag domain's velocity table (kind table) and the outputs of its
 * reference simulation (kind simulation): the fluid particles' positions and velocities of each
 * output of the range, or of the one output, of the named run (else the active run) of a
 * simulation of the same organization. Outputs that cannot be read are left out; the run then
 * refuses a domain with none.
 */

type Db = Kysely<Database>

/** The outputs an air drag domain of kind simulation takes, in order. */
export function airDragOutputNumbers(domain: AirDragDomain): number[] {
  if (!domain.outputRange) return domain.outputSingle === null ? [] : [domain.outputSingle]
  const { outputStart: start, outputEnd: end } = domain
  if (start === null || end === null || end < start) return []
  return Array.from({ length: end - start + 1 }, (_, k) => start + k)
}

async function readFrame(
  dataDir: string,
  simulationId: number,
  runId: number,
  outputNo: number,
): Promise<AirDragReferenceFrame | null> {
  const manifest = await readOutputManifest(dataDir, simulationId, runId, outputNo).catch(
    () => null,
  )
  if (!manifest) return null
  const positions: number[] = []
  const velocities: number[] = []
  for (const object of manifest.objects) {
    if (object.kind !== 'fluid') continue
    const bytes = await readFile(
      join(dataDir, objectFile(simulationId, runId, outputNo, object.objectId, 'full')),
    )
    const view = readObjectStream(bytes)
    const { x, y, z, vx, vy, vz } = view.columns
    if (!x || !y || !z || !vx || !vy || !vz) continue
    for (let i = 0; i < view.rowCount; i++) {
      positions.push(x[i]!, y[i]!, z[i]!)
      velocities.push(vx[i]!, vy[i]!, vz[i]!)
    }
  }
  return {
    outputNo,
    timeS: manifest.timeS,
    positions: Float32Array.from(positions),
    velocities: Float32Array.from(velocities),
  }
}

/** The reference outputs of an air drag domain of kind simulation (empty for the other kinds). */
export async function readAirDragFrames(
  db: Db,
  dataDir: string,
  organizationId: number,
  domain: AirDragDomain,
): Promise<AirDragReferenceFrame[]> {
  if (domain.kind !== 'simulation' || domain.refSimulationId === null) return []
  const reference = await db
    .selectFrom('simulations')
    .select(['id', 'active_run_id'])
    .where('id', '=', domain.refSimulationId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!reference) return []
  let runId = reference.active_run_id
  if (domain.refSimulationRunId !== null) {
    const run = await db
      .selectFrom('runs')
      .select('id')
      .where('id', '=', domain.refSimulationRunId)
      .where('simulation_id', '=', reference.id)
      .executeTakeFirst()
    if (run) runId = run.id
  }
  if (runId === null) return []
  const frames: AirDragReferenceFrame[] = []
  for (const outputNo of airDragOutputNumbers(domain)) {
    const frame = await readFrame(dataDir, reference.id, runId, outputNo)
    if (frame) frames.push(frame)
  }
  return frames
}

/** The air drag domain's velocity table (kind table), or null. */
export async function readAirDragTable(
  db: Db,
  simulationId: number,
  domain: AirDragDomain,
): Promise<RunDatatable | null> {
  if (domain.kind !== 'table' || domain.tableId === null) return null
  const row = await db
    .selectFrom('datatables')
    .select(['headers', 'columns'])
    .where('id', '=', domain.tableId)
    .where('simulation_id', '=', simulationId)
    .executeTakeFirst()
  if (!row) return null
  return {
    headers: JSON.parse(row.headers) as string[],
    table: JSON.parse(row.columns) as Record<string, (number | null)[]>,
  }
}
