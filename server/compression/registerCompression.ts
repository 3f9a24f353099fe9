import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { registerTaskHandler, unregisterTaskHandler } from '../jobs/queue/tasks.ts'
import { CompressionRunner, type CompressionRunnerOptions } from './CompressionRunner.ts'
import { createCompressionTaskHandler } from './compressionTask.ts'

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
  // The reaper of dead workers' archives finds it here.
  registerTaskHandler(
    options.db,
    createCompressionTaskHandler(options.db, options.clock, options.dataDir, runner),
  )
  app.addHook('onClose', async () => {
    await runner.close()
    runners.delete(options.db)
    unregisterTaskHandler(options.db, 'compression')
  })
  await runner.recoverUnfinished()
  return runner
}
