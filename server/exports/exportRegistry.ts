import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { ExportRunner } from './ExportRunner.ts'

/* The export runner of an app, found by its database handle (handlers only get the database). */

type Db = Kysely<Database>

const runners = new WeakMap<object, ExportRunner>()

/** Registers the app's runner for handlers that only get the database. */
export function registerExportRunner(db: Db, runner: ExportRunner): void {
  runners.set(db, runner)
}

/** Forgets the app's runner (the app closed). */
export function unregisterExportRunner(db: Db): void {
  runners.delete(db)
}

/** The runner of the app that owns this database. */
export function exportRunnerFor(db: Db): ExportRunner {
  const runner = runners.get(db)
  if (!runner) throw new Error('No export runner is registered for this database')
  return runner
}
