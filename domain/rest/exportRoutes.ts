/**
 * User export calls (spec/results.md §7): start, read and cancel the export of a simulation (JSON,
 * in ROUTES), and the binary download of one exported file (registered beside ROUTES by
 * server/exports/, described here so the UI and the server build the same URL).
 */
import * as v from 'valibot'
import { IdParamSchema } from '../projects.ts'
import { ExportRecordSchema, ExportRequestSchema } from '../results.ts'
import type { RouteDef } from '../rest.ts'

/**
 * How long the files of a completed export are kept: after this the export reads as `expired`,
 * its files are deleted and the download tab is disabled (spec/results.md §4 "Export").
 */
export const USER_EXPORT_RETENTION_MS = 24 * 60 * 60 * 1000

/** Browsers download at most this many files from one server at a time. */
export const PARALLEL_DOWNLOAD_LIMIT = 6

/** The export record with its progress and timestamps (ISO text). */
export const ExportStatusSchema = v.object({
  ...ExportRecordSchema.entries,
  /** 0 … 1 while running. */
  progress: v.number(),
  createdAt: v.string(),
  /** When a completed export's files are deleted; null until it completes. */
  expiresAt: v.nullable(v.string()),
})
/** The export record with its progress and timestamps. */
export type ExportStatus = v.InferOutput<typeof ExportStatusSchema>

/** GET /simulations/{id}/user_exports: the latest export, null when the simulation has none. */
export const ExportStatusReplySchema = v.object({ export: v.nullable(ExportStatusSchema) })
/** The latest export of a simulation, or null. */
export type ExportStatusReply = v.InferOutput<typeof ExportStatusReplySchema>

/** User export calls. */
export const EXPORT_ROUTES = {
  startUserExport: {
    method: 'POST',
    path: '/simulations/{id}/user_exports',
    summary: 'Start a user export (replaces the previous one and deletes its files)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: ExportRequestSchema,
    response: ExportStatusSchema,
  },
  getUserExport: {
    method: 'GET',
    path: '/simulations/{id}/user_exports',
    summary: 'The latest user export of a simulation (state, files, warnings, errors)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: ExportStatusReplySchema,
  },
  cancelUserExport: {
    method: 'DELETE',
    path: '/simulations/{id}/user_exports',
    summary: 'Cancel a running user export and delete the exported files',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: ExportStatusReplySchema,
  },
} as const satisfies Record<string, RouteDef>

/** Path of the binary download of one exported file. */
export const USER_EXPORT_FILE_PATH = '/simulations/{id}/user_exports/{fileId}'

/** rest.ts API_PREFIX, repeated: importing it here would be an import cycle (see resultsRoutes.ts). */
const EXPORT_API_PREFIX = '/api'

/** Path (under the API prefix) of one exported file's download. */
export function userExportFilePath(simulationId: number, fileId: number): string {
  return USER_EXPORT_FILE_PATH.replace('{id}', String(simulationId)).replace(
    '{fileId}',
    String(fileId),
  )
}

/** Same-origin URL of one exported file's download. */
export function userExportFileUrl(simulationId: number, fileId: number): string {
  return `${EXPORT_API_PREFIX}${userExportFilePath(simulationId, fileId)}`
}
