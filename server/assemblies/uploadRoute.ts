import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { SECURITY_RISK_MESSAGE } from '../../domain/errors.ts'
import { IdParamSchema } from '../../domain/projects.ts'
import { API_PREFIX } from '../../domain/rest.ts'
import { STEP_EXTENSIONS, STEP_UPLOAD_LIMIT_BYTES } from '../../domain/rest/assemblyRoutes.ts'
import { ApiError } from '../api/apiError.ts'
import { parseInput } from '../api/validation.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { findEditableSimulation } from '../setup/access.ts'
import { detectForeignFormat } from '../storage/sniff.ts'
import { resolveStoredPath } from '../storage/files.ts'
import { assertStorageAvailable, refreshSimulationSize } from '../storage/usage.ts'
import { assemblyRunnerFor, insertImportJob } from './AssemblyRunner.ts'
import { toAssembly } from './records.ts'
import {
  STEP_SNIFF_BYTES,
  assembliesDirectory,
  assemblyStoredPath,
  looksLikeStep,
} from './stepFile.ts'

/*
 * POST /api/client-upload/simulations/{id}/assemblies (spec/setup.md §7; multipart `file`, one
 * .stp/.step file): a setup edit (refused on a locked or uploaded setup, as every edit), so the
 * simulation is checked before the body is read. The file streams to disk (up to 1 GiB, never
 * whole in memory); its first bytes must be STEP's, else the 503 security-risk refusal of the STL
 * upload; a file over the limit is 413. Nothing is kept of a refused upload. Then the assembly
 * row and the job that reads its tree are stored, and the job starts: 201 with the assembly
 * (state 'scheduled').
 */

export interface AssemblyUploadOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
  /** Largest accepted file; default STEP_UPLOAD_LIMIT_BYTES (tests lower it). */
  limitBytes?: number
}

/** Room the multipart framing may take around the file in Content-Length. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024

function formatSize(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GiB` : `${bytes / 1024 ** 2} MiB`
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The file is larger than ${formatSize(limit)}.`)
}

function checkFileName(fileName: string): void {
  const lower = fileName.toLowerCase()
  if (!STEP_EXTENSIONS.some((extension) => lower.endsWith(extension)))
    throw new ApiError('wrong_input', 'Only .stp and .step files can be uploaded here.')
}

/** A received STEP file in a temporary file of the data directory. */
interface ReceivedStep {
  fileName: string
  sizeBytes: number
  temporaryPath: string
}

/**
 * Streams the multipart `file` into a temporary file, checking its size and its first bytes on
 * the way; a refused file is drained without being written and its temporary file removed.
 */
async function receiveStep(
  request: FastifyRequest,
  temporaryPath: string,
  limit: number,
): Promise<ReceivedStep> {
  if (!request.isMultipart())
    throw new ApiError('wrong_input', 'Send the file as multipart/form-data (field "file").')
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit + MULTIPART_OVERHEAD_BYTES)
    throw tooLarge(limit)
  let received: ReceivedStep | undefined
  let refusal: ApiError | undefined
  await mkdir(dirname(temporaryPath), { recursive: true })
  try {
    for await (const part of request.files({
      limits: { fileSize: limit, files: 1 },
      throwFileSizeLimit: false,
    })) {
      if (part.fieldname !== 'file' || refusal) {
        part.file.resume()
        continue
      }
      const fileName = (part.filename || '')
        .replace(/^.*[\\/]/, '')
        .trim()
        .slice(0, 255)
      checkFileName(fileName)
      const out = createWriteStream(temporaryPath)
      let pending: Buffer[] = []
      let checked = false
      let size = 0
      // The first STEP_SNIFF_BYTES decide: held back until then, written only if they are STEP.
      const check = (): Buffer | null => {
        checked = true
        const head = Buffer.concat(pending)
        pending = []
        if (head.length > 0 && (detectForeignFormat(head) || !looksLikeStep(head)))
          refusal = new ApiError('security_risk', SECURITY_RISK_MESSAGE)
        return refusal ? null : head
      }
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length
        if (refusal) continue
        let bytes: Buffer | null = chunk
        if (!checked) {
          pending.push(chunk)
          if (size < STEP_SNIFF_BYTES) continue
          bytes = check()
        }
        if (bytes && !out.write(bytes)) await once(out, 'drain')
      }
      if (!checked) {
        const head = check()
        if (head) out.write(head)
      }
      out.end()
      await once(out, 'close')
      if (size === 0) refusal = new ApiError('wrong_input', 'The file is empty.')
      else if (part.file.truncated) refusal = tooLarge(limit)
      received = { fileName, sizeBytes: size, temporaryPath }
    }
  } catch (error) {
    await rm(temporaryPath, { force: true })
    if (error instanceof ApiError) throw error
    throw new ApiError('wrong_input', 'The multipart body could not be read.')
  }
  if (refusal || !received) {
    await rm(temporaryPath, { force: true })
    throw (
      refusal ??
      new ApiError('body_keys_missing', 'file is required', [
        { path: 'file', message: 'file is required' },
      ])
    )
  }
  return received
}

/** Registers the STEP upload (multipart, so it is not in ROUTES; see api/binaryOperations.ts). */
export function registerAssemblyUploadRoute(
  app: FastifyInstance,
  options: AssemblyUploadOptions,
): void {
  const { db, clock, dataDir } = options
  const limit = options.limitBytes ?? STEP_UPLOAD_LIMIT_BYTES
  app.post(`${API_PREFIX}/client-upload/simulations/:id/assemblies`, async (request, reply) => {
    const { user } = await authenticateAccessToken(
      db,
      clock,
      readBearerToken(request.headers.authorization),
    )
    const { id } = parseInput(IdParamSchema, request.params)
    const simulation = await findEditableSimulation(db, user, id)
    const temporaryPath = resolveStoredPath(
      dataDir,
      `${assembliesDirectory(simulation.id)}/upload-${randomBytes(6).toString('hex')}.part`,
    )
    const received = await receiveStep(request, temporaryPath, limit)
    try {
      await assertStorageAvailable(db, simulation.organization_id, received.sizeBytes)
    } catch (error) {
      await rm(temporaryPath, { force: true })
      throw error
    }
    let assemblyId: number
    let jobId: number
    try {
      ;({ assemblyId, jobId } = await db.transaction().execute(async (trx) => {
        await findEditableSimulation(trx, user, simulation.id)
        const nowIso = clock.nowIso()
        const jobId = await insertImportJob(trx, simulation.id, nowIso)
        const { id: assemblyId } = await trx
          .insertInto('assemblies')
          .values({
            simulation_id: simulation.id,
            uploader_id: user.id,
            filename: received.fileName,
            stored_path: '',
            size_bytes: received.sizeBytes,
            import_job_id: jobId,
            created_at: nowIso,
            updated_at: nowIso,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        const storedPath = assemblyStoredPath(simulation.id, assemblyId)
        await trx
          .updateTable('assemblies')
          .set({ stored_path: storedPath })
          .where('id', '=', assemblyId)
          .execute()
        // Moved last, inside the transaction: a failed move rolls the rows back.
        await rename(temporaryPath, resolveStoredPath(dataDir, storedPath))
        return { assemblyId, jobId }
      }))
    } finally {
      await rm(temporaryPath, { force: true })
    }
    const row = await db
      .selectFrom('assemblies')
      .selectAll()
      .where('id', '=', assemblyId)
      .executeTakeFirstOrThrow()
    const assembly = await toAssembly(db, row)
    await refreshSimulationSize(db, dataDir, simulation.id)
    await assemblyRunnerFor(db).launch(jobId)
    return reply.code(201).send(assembly)
  })
}
