import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { API_PREFIX } from '../../domain/rest.ts'
import { USER_EXPORT_FILE_PATH } from '../../domain/rest/exportRoutes.ts'
import { notFound } from '../api/apiError.ts'
import { parseIdParam } from '../api/validation.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { streamArchive } from './archive.ts'
import { ExportRunner } from './ExportRunner.ts'
import { registerExportRunner, unregisterExportRunner } from './exportRegistry.ts'
import { createExportTaskHandler } from './exportTask.ts'
import { registerTaskHandler, unregisterTaskHandler } from '../jobs/queue/tasks.ts'

export interface RegisterExportsOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
  /** Remote workers run the exports (DIVE_JOB_WORKERS=remote). */
  remote?: boolean
}

/** Media types of the exported files by extension. */
const CONTENT_TYPES: Record<string, string> = {
  vtu: 'application/octet-stream',
  stl: 'model/stl',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\w .-]+/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

/**
 * The app's export runner (recovers records a previous process left running, stops the work when
 * the app closes) and GET /api/simulations/:id/user_exports/:fileId, which streams one file of the
 * simulation's completed, unexpired export (the all-files archive is zipped as it streams).
 */
export async function registerExports(
  app: FastifyInstance,
  options: RegisterExportsOptions,
): Promise<ExportRunner> {
  const runner = new ExportRunner(options)
  registerExportRunner(options.db, runner)
  // The reaper of dead workers' exports finds it here.
  registerTaskHandler(
    options.db,
    createExportTaskHandler(options.db, options.clock, options.dataDir, runner),
  )
  app.addHook('onClose', async () => {
    await runner.close()
    unregisterExportRunner(options.db)
    unregisterTaskHandler(options.db, 'export')
  })
  await runner.recoverUnfinished()

  const fastifyPath = USER_EXPORT_FILE_PATH.replace('{id}', ':id').replace('{fileId}', ':fileId')
  app.get(`${API_PREFIX}${fastifyPath}`, async (request, reply) => {
    const { user } = await authenticateAccessToken(
      options.db,
      options.clock,
      readBearerToken(request.headers.authorization),
    )
    const params = request.params as { id?: string; fileId?: string }
    const simulationId = parseIdParam(params.id, 'id')
    const fileId = parseIdParam(params.fileId, 'fileId')
    const simulation = await findAccessibleSimulation(options.db, user, simulationId)
    const file = await runner.findDownloadableFile(simulation.id, fileId)
    if (!file) throw notFound('Exported file')
    const extension = file.filename.split('.').pop() ?? ''
    reply
      .code(200)
      .header('Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream')
      .header('Content-Length', String(file.sizeBytes))
      .header('Content-Disposition', contentDisposition(file.filename))
    if (file.path === null) return reply.send(Readable.from(streamArchive(file.archiveEntries)))
    return reply.send(createReadStream(file.path))
  })
  return runner
}
