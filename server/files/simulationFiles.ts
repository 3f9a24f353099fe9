import { createReadStream, existsSync } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createWriteStream } from 'node:fs'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { API_PREFIX } from '../../domain/rest.ts'
import { runDirectory, simulationDirectory } from '../../domain/output/layout.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import { compressionRunnerFor } from '../compression/registerCompression.ts'
import { parseIdParam } from '../api/validation.ts'
import { findAccessibleSimulation, touchProject } from '../api/access.ts'
import type { SessionUser } from '../api/context.ts'
import { loadSimulation, readSettings } from '../api/views.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { listZipFileEntries, writeZip, ZipFormatError, type ZipSource } from './zip.ts'

/*
 * The two file calls of the simulation list (spec/results.md §2 action menu, §7):
 * GET /simulations/{id}/download streams the simulation as one ZIP (the job file with its setup,
 * the simulation record, and the active run's outputs and log); PUT /client-upload/simulations/{id}
 * takes a preprocessed setup (a ZIP and the name of the job file inside it) for organizations with
 * the upload_preprocessing feature. An upload is checked before it replaces anything stored.
 */

/** Largest accepted preprocessing upload. */
export const UPLOAD_PREPROCESSING_LIMIT_BYTES = 4 * 1024 ** 3
/** The job file name the upload form proposes (spec/results.md §2). */
export const DEFAULT_JOB_FILENAME = 'jobfile_0.json'
/** Where an accepted upload is kept, relative to the simulation's directory. */
export const UPLOADED_SETUP_FILE = 'upload/setup.zip'

interface FileRoutesOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
}

async function authenticate(
  options: FileRoutesOptions,
  request: FastifyRequest,
): Promise<SessionUser> {
  const { user } = await authenticateAccessToken(
    options.db,
    options.clock,
    readBearerToken(request.headers.authorization),
  )
  return user
}

function simulationIdFrom(request: FastifyRequest): number {
  return parseIdParam((request.params as { id?: unknown }).id, 'id')
}

function fileChunks(path: string): () => AsyncIterable<Uint8Array> {
  return () => createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Uint8Array>
}

function textChunks(text: string): () => AsyncIterable<Uint8Array> {
  return async function* () {
    yield await Promise.resolve(Buffer.from(text, 'utf8'))
  }
}

/** Every file under a directory, depth first in name order (names sort in time order, layout.ts). */
async function listFiles(directory: string): Promise<string[]> {
  if (!existsSync(directory)) return []
  const found: string[] = []
  const entries = await readdir(directory, { withFileTypes: true })
  entries.sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) found.push(...(await listFiles(path)))
    else if (entry.isFile()) found.push(path)
  }
  return found
}

/** A file name safe for Content-Disposition, plus its UTF-8 form. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\w .-]+/g, '_').trim() || 'simulation'
  return `attachment; filename="${ascii}.zip"; filename*=UTF-8''${encodeURIComponent(name)}.zip`
}

/** Content-Disposition of a file that keeps its own name (and extension). */
function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\w .-]+/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

/** The job file of a simulation (its setup) as the download and the user export write it. */
export function simulationJobFile(simulation: SimulationRow): object {
  return {
    format: 'dive-job',
    version: 1,
    simulation: { name: simulation.name, description: simulation.description },
    settings: readSettings(simulation.settings),
  }
}

async function archiveSources(
  options: FileRoutesOptions,
  simulation: SimulationRow,
  record: unknown,
): Promise<ZipSource[]> {
  const sources: ZipSource[] = [
    {
      name: DEFAULT_JOB_FILENAME,
      chunks: textChunks(JSON.stringify(simulationJobFile(simulation), null, 2)),
    },
    { name: 'simulation.json', chunks: textChunks(JSON.stringify(record, null, 2)) },
  ]
  if (simulation.active_run_id !== null) {
    const runDir = join(options.dataDir, runDirectory(simulation.id, simulation.active_run_id))
    for (const path of await listFiles(runDir)) {
      const name = relative(runDir, path).split('\\').join('/')
      // Checkpoints are solver state for resuming here, not results.
      if (name.startsWith('checkpoints/')) continue
      sources.push({ name: `run/${name}`, chunks: fileChunks(path) })
    }
  }
  return sources
}

async function organizationFeatures(
  db: Kysely<Database>,
  organizationId: number,
): Promise<string[]> {
  const row = await db
    .selectFrom('organizations')
    .select('features')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow()
  const parsed: unknown = JSON.parse(row.features)
  return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string') : []
}

/** Registers GET /api/simulations/:id/download and PUT /api/client-upload/simulations/:id. */
export function registerSimulationFileRoutes(
  app: FastifyInstance,
  options: FileRoutesOptions,
): void {
  app.get(`${API_PREFIX}/simulations/:id/download`, async (request, reply) => {
    const user = await authenticate(options, request)
    const simulation = await findAccessibleSimulation(options.db, user, simulationIdFrom(request))
    const { filename } = request.query as { filename?: unknown }
    // ?filename=: the simulation's compressed archive (server/compression/), once completed.
    if (typeof filename === 'string' && filename !== '') {
      const archive = await compressionRunnerFor(options.db).findDownload(simulation.id, filename)
      if (!archive) throw notFound('Compressed archive')
      reply
        .code(200)
        .header('Content-Type', 'application/gzip')
        .header('Content-Length', String(archive.sizeBytes))
        .header('Content-Disposition', attachmentDisposition(archive.filename))
      return reply.send(createReadStream(archive.path))
    }
    if (simulation.state === 'not started')
      throw new ApiError('conflict', 'A simulation can be downloaded once it has been started.')
    const record = await loadSimulation(options.db, simulation)
    const sources = await archiveSources(options, simulation, record)
    reply
      .code(200)
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', contentDisposition(simulation.name))
    return reply.send(Readable.from(writeZip(sources)))
  })

  app.put(`${API_PREFIX}/client-upload/simulations/:id`, async (request, reply) => {
    const user = await authenticate(options, request)
    const simulation = await findAccessibleSimulation(options.db, user, simulationIdFrom(request))
    const features = await organizationFeatures(options.db, user.organization_id)
    if (!features.includes('upload_preprocessing'))
      throw new ApiError('forbidden', 'Your organization cannot upload preprocessed setups.')
    if (simulation.state !== 'not started')
      throw new ApiError(
        'conflict',
        'A preprocessed setup can only be uploaded to a simulation that has not started.',
      )
    if (!request.isMultipart())
      throw new ApiError('wrong_input', 'Send the file and job_filename as multipart/form-data.')

    const simulationDir = join(options.dataDir, simulationDirectory(simulation.id))
    const incomingDir = join(simulationDir, 'upload')
    await mkdir(incomingDir, { recursive: true })
    const incoming = join(incomingDir, `incoming-${process.pid}-${Date.now()}.zip`)
    let jobFilename: string | undefined
    let received = false
    try {
      for await (const part of request.parts({
        limits: { fileSize: UPLOAD_PREPROCESSING_LIMIT_BYTES, files: 1 },
      })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file') {
            part.file.resume()
            continue
          }
          await pipeline(part.file, createWriteStream(incoming))
          if (part.file.truncated)
            throw new ApiError(
              'payload_too_large',
              `The file is larger than ${UPLOAD_PREPROCESSING_LIMIT_BYTES / 1024 ** 3} GB.`,
            )
          received = true
        } else if (part.fieldname === 'job_filename' && typeof part.value === 'string') {
          jobFilename = part.value.trim()
        }
      }
      if (!received) throw new ApiError('body_keys_missing', 'file is required')
      if (!jobFilename) throw new ApiError('body_keys_missing', 'job_filename is required')
      if ((await stat(incoming)).size === 0) throw new ApiError('wrong_input', 'The file is empty.')
      let names: string[]
      try {
        names = (await listZipFileEntries(incoming)).map((entry) => entry.name)
      } catch (error) {
        if (error instanceof ZipFormatError) throw new ApiError('wrong_input', error.message)
        throw error
      }
      if (!names.includes(jobFilename))
        throw new ApiError(
          'job_file_not_found',
          `The job file ${jobFilename} was not found in the uploaded archive.`,
        )
      // Only now replace what was stored: a failed upload leaves the previous one in place.
      await rename(incoming, join(simulationDir, UPLOADED_SETUP_FILE))
    } finally {
      await rm(incoming, { force: true })
    }
    const now = new Date(options.clock.nowMs()).toISOString()
    await options.db
      .updateTable('simulations')
      .set({ uploaded_setup: 1, updated_at: now })
      .where('id', '=', simulation.id)
      .execute()
    await touchProject(options.db, simulation.project_id, now)
    const updated = await findAccessibleSimulation(options.db, user, simulation.id)
    return reply.code(200).send(await loadSimulation(options.db, updated))
  })
}
