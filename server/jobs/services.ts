import type { Kysely } from 'kysely'
import type { RunSetup } from '../../solver/setup.ts'
import type { Database } from '../db/schema.ts'
import type { JobRunner } from './JobRunner.ts'
import type { SetupLoader } from './types.ts'

/*
 * The job runner of an app, found by its database handle: handlers get the database in their
 * context, so the runner needs no new context field (one app per database handle).
 */

const runners = new WeakMap<object, JobRunner>()

export function registerJobRunner(db: Kysely<Database>, runner: JobRunner): void {
  runners.set(db, runner)
}

export function unregisterJobRunner(db: Kysely<Database>): void {
  runners.delete(db)
}

/** The runner of the app serving this database. */
export function jobRunnerFor(db: Kysely<Database>): JobRunner {
  const runner = runners.get(db)
  if (!runner) throw new Error('No job runner is registered for this database.')
  return runner
}

type LoadRunSetup = (
  db: Kysely<Database>,
  dataDir: string,
  simulationId: number,
) => Promise<RunSetup>

const LOAD_RUN_SETUP_MODULE = '../setup/loadRunSetup.ts'

/** The setup API's loadRunSetup (server/setup/loadRunSetup.ts), bound to a database. */
export function createSetupLoader(db: Kysely<Database>, dataDir: string): SetupLoader {
  let load: Promise<LoadRunSetup> | undefined
  return async (simulationId) => {
    load ??= (import(LOAD_RUN_SETUP_MODULE) as Promise<{ loadRunSetup: LoadRunSetup }>).then(
      (module) => module.loadRunSetup,
    )
    return (await load)(db, dataDir, simulationId)
  }
}
