/**
 * Download with compression (spec/results.md §2 "Run sidebar" Download, §7): a server job packs
 * the simulation's files (job file, record, outputs, log) into one gzip-compressed tar archive,
 * with progress and cancel in Jobs Progress; the archive is then downloaded with
 * GET /simulations/{id}/download?filename=… and deleted with DELETE /simulations/{id}/compression.
 * GET, POST and DELETE are JSON calls in ROUTES; the download is binary (server/files/).
 */
import * as v from 'valibot'
import { JOB_STATES } from '../jobs.ts'
import { IdParamSchema } from '../projects.ts'
import type { RouteDef } from '../rest.ts'

/** The archive's file type: a POSIX (ustar/pax) tar stream through gzip (node:zlib). */
export const COMPRESSION_EXTENSION = '.tar.gz'

/** gzip level of the archive: zlib's default, about 6× the speed of level 9 for 2–3 % more bytes. */
export const COMPRESSION_LEVEL = 6

/** Texts of the compression job and its calls (our words: the spec names none). */
export const COMPRESSION_TEXTS = {
  title: 'Compression',
  notStarted: 'Download is available once the simulation has been started.',
  alreadyRunning: 'The simulation is already being compressed.',
  notOwner: 'Only the user who compressed this archive or a manager may replace or delete it.',
  serverRestarted: 'The server stopped while the archive was being compressed.',
  failed: 'Compressing the simulation failed.',
  stopText:
    'There is no resume option. The archive is deleted and the compression must be started again.',
  stopFailed: 'Canceling compression failed',
  deleteFailed: 'Deleting the archive failed',
  startFailed: 'Compressing the simulation failed',
} as const

/** One compression of a simulation: the latest is kept until it is deleted or replaced. */
export const CompressionSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  /** scheduled → running → completed | failed | canceled. */
  state: v.picklist(JOB_STATES),
  /** 0 … 1: bytes read of the files to pack. */
  progress: v.number(),
  /** The archive's file name (the download's `filename`). */
  filename: v.string(),
  /** Bytes of the files packed (the total once known). */
  inputBytes: v.number(),
  /** Bytes of the archive; 0 until completed. */
  sizeBytes: v.number(),
  /** Files in the archive; 0 until completed. */
  fileCount: v.number(),
  /** Why it failed; null otherwise. */
  error: v.nullable(v.string()),
  creatorId: v.number(),
  createdAt: v.string(),
  endedAt: v.nullable(v.string()),
})
/** One compression of a simulation. */
export type Compression = v.InferOutput<typeof CompressionSchema>

/** GET and DELETE /simulations/{id}/compression: the latest compression, or null. */
export const CompressionReplySchema = v.object({ compression: v.nullable(CompressionSchema) })
/** The latest compression of a simulation, or null. */
export type CompressionReply = v.InferOutput<typeof CompressionReplySchema>

/** Compression calls. */
export const COMPRESSION_ROUTES = {
  getCompression: {
    method: 'GET',
    path: '/simulations/{id}/compression',
    summary: 'The latest compressed archive of a simulation (state, progress, size), or null',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: CompressionReplySchema,
  },
  startCompression: {
    method: 'POST',
    path: '/simulations/{id}/compression',
    summary: 'Start compressing the simulation into a .tar.gz archive (replaces the previous one)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    response: CompressionSchema,
  },
  deleteCompression: {
    method: 'DELETE',
    path: '/simulations/{id}/compression',
    summary: 'Cancel a running compression, or delete the archive',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: CompressionReplySchema,
  },
} as const satisfies Record<string, RouteDef>

/** Same-origin URL of a completed archive's download (rest.ts API_PREFIX, repeated: no cycle). */
export function compressionDownloadUrl(simulationId: number, filename: string): string {
  return `/api/simulations/${simulationId}/download?filename=${encodeURIComponent(filename)}`
}
