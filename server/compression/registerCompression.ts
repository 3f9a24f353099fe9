import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { CompressionRunner, type CompressionRunnerOptions } from './CompressionRunner.ts'

/* The compression runner of an app, found by its database handle (handlers only get the database). */

const runners = new WeakMap<object, CompressionRunner>()

/** The runner of the app that owns this database. */
export function compressionRunnerFor(db: Kysely<Database>): CompressionRunner {
  const runner = runners.get(db)
  if (!runner) throw new Error('No compression runner is registered for this database')
  return runner
}

/**
 * Creates the app's compression runner: fails what a previous process left running, and stops
 * the work when the app closes.
 */
export async function registerCompression(
  app: FastifyInstance,
  options: CompressionRunnerOptions,
): Promise<CompressionRunner> {
  const runner = new CompressionRunner(options)
  runners.set(options.db, runner)
  app.addHook('onClose', async () => {
    await runner.close()
    runners.delete(options.db)
  })
  await runner.recoverUnfinished()
  return runner
}
