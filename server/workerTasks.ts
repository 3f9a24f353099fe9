import type { Kysely } from 'kysely'
import { AssemblyRunner, createCadTaskHandlers } from './assemblies/AssemblyRunner.ts'
import type { Clock } from './clock.ts'
import { CompressionRunner } from './compression/CompressionRunner.ts'
import { createCompressionTaskHandler } from './compression/compressionTask.ts'
import type { Database } from './db/schema.ts'
import { ExportRunner } from './exports/ExportRunner.ts'
import { createExportTaskHandler } from './exports/exportTask.ts'
import { CHANNELS, Notifier } from './jobs/queue/notify.ts'
import { registerTaskHandler, unregisterTaskHandler, type TaskHandler } from './jobs/queue/tasks.ts'
import { createStatisticsTaskHandler } from './results/statistics/statisticsTask.ts'
import { SensorRecomputationRunner } from './sensors/SensorRecomputationRunner.ts'
import { createSensorTaskHandler } from './sensors/sensorTask.ts'

/*
 * The task runners of a worker process (server/jobs/queue/tasks.ts): the same runners the server
 * uses in the embedded default, here only taking what the queue hands them. Each runs its work as
 * in the server (sensor and CAD threads of their own, exports and archives on the event loop,
 * statistics on the statistics threads).
 */

/** Registers every task kind's handler on the worker's database handle; returns their close. */
export function registerWorkerTasks(
  db: Kysely<Database>,
  clock: Clock,
  dataDir: string,
  databaseUrl: string,
): () => Promise<void> {
  const options = { db, clock, dataDir }
  // Frames of statistics ranges go to the server's session (in order, one connection).
  const notifier = new Notifier(databaseUrl)
  const exports = new ExportRunner(options)
  const compressions = new CompressionRunner(options)
  const sensors = new SensorRecomputationRunner(options)
  const assemblies = new AssemblyRunner(options)
  const statistics = createStatisticsTaskHandler(options, (message) =>
    notifier.notify(CHANNELS.taskFrames, message),
  )
  const handlers: TaskHandler[] = [
    createExportTaskHandler(db, clock, dataDir, exports),
    createCompressionTaskHandler(db, clock, dataDir, compressions),
    createSensorTaskHandler(db, clock, dataDir, sensors),
    ...createCadTaskHandlers(options, assemblies),
    statistics.handler,
  ]
  for (const handler of handlers) registerTaskHandler(db, handler)
  return async () => {
    for (const handler of handlers) unregisterTaskHandler(db, handler.kind)
    await Promise.allSettled([
      exports.close(),
      compressions.close(),
      sensors.close(),
      assemblies.close(),
      statistics.close(),
    ])
    await notifier.close()
  }
}
