import type { Kysely, Selectable } from 'kysely'
import { notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database, JobsTable, SimulationRow } from '../db/schema.ts'
import { assertSetupEditable, findReadableSimulation } from '../setup/access.ts'
import type { AssembliesTable } from './tables.ts'

/*
 * Who may read and change an assembly: whoever may read its simulation reads it (404 otherwise,
 * as every setup object); changes are setup edits (server/setup/access.ts): refused while the
 * setup is locked or uploaded (409) and for a contributor on another's simulation (403).
 */

type Db = Kysely<Database>
export type AssemblyRow = Selectable<AssembliesTable>
export type JobRow = Selectable<JobsTable>

/** Kind of the `jobs` rows that read a STEP file's tree. */
export const ASSEMBLY_JOB_KIND = 'assembly'
/** Kind of the `jobs` rows of tessellation runs. */
export const TESSELLATION_JOB_KIND = 'tessellation'

/** An assembly and its simulation, if the user may read the simulation (else 404). */
export async function findAssembly(
  db: Db,
  user: SessionUser,
  id: number,
  access: 'read' | 'edit',
): Promise<{ assembly: AssemblyRow; simulation: SimulationRow }> {
  const assembly = await db
    .selectFrom('assemblies')
    .innerJoin('simulations', 'simulations.id', 'assemblies.simulation_id')
    .selectAll('assemblies')
    .where('assemblies.id', '=', id)
    .where('simulations.organization_id', '=', user.organization_id)
    .executeTakeFirst()
  if (!assembly) throw notFound('Assembly')
  let simulation: SimulationRow
  try {
    simulation = await findReadableSimulation(db, user, assembly.simulation_id)
  } catch {
    throw notFound('Assembly')
  }
  if (access === 'edit') await assertSetupEditable(db, user, simulation)
  return { assembly, simulation }
}

/** A tessellation run and its simulation, if the user may read the simulation (else 404). */
export async function findTessellationJob(
  db: Db,
  user: SessionUser,
  id: number,
  access: 'read' | 'edit',
): Promise<{ job: JobRow; simulation: SimulationRow }> {
  const job = await db
    .selectFrom('jobs')
    .innerJoin('simulations', 'simulations.id', 'jobs.simulation_id')
    .selectAll('jobs')
    .where('jobs.id', '=', id)
    .where('jobs.kind', '=', TESSELLATION_JOB_KIND)
    .where('simulations.organization_id', '=', user.organization_id)
    .executeTakeFirst()
  if (!job) throw notFound('Tessellation run')
  let simulation: SimulationRow
  try {
    simulation = await findReadableSimulation(db, user, job.simulation_id)
  } catch {
    throw notFound('Tessellation run')
  }
  if (access === 'edit') await assertSetupEditable(db, user, simulation)
  return { job, simulation }
}
