/**
 * Organization storage (spec/account.md §2 'Storage modal with Download and Upload tabs', §7 GET,
 * POST /organization_storage with continuationToken, POST /client-upload/organization_storage_upload
 * with file). The spec shows the calls, not what the storage is; ours: the organization's own file
 * area, one folder per organization that each of its VMs sees (read-write) at /organization, and
 * that the machines list's 'Access storage' modal lists, downloads from and uploads into. Its
 * files count toward the organization's storage. Every member of the organization may use it (the
 * spec names no permission); another organization's files are never listed and read as 404.
 */
import * as v from 'valibot'
import type { RouteDef } from '../rest.ts'

/** Files in one page of the listing. */
export const ORGANIZATION_STORAGE_PAGE_SIZE = 100

/** POST: one file (multipart field `file`) into the organization storage (binary, beside ROUTES). */
export const ORGANIZATION_STORAGE_UPLOAD_PATH = '/client-upload/organization_storage_upload'
/** GET ?name=…: one file of the organization storage, as an attachment (binary, beside ROUTES). */
export const ORGANIZATION_STORAGE_DOWNLOAD_PATH = '/organization_storage/download'

/** Largest file one organization storage upload takes. */
export const ORGANIZATION_STORAGE_UPLOAD_LIMIT_BYTES = 2 * 1024 ** 3

/** Where the VMs see the organization storage. */
export const ORGANIZATION_STORAGE_VM_PATH = '/organization'

/** One file of the organization storage: `name` is its path below the storage ('a/b.csv'). */
export const OrganizationStorageFileSchema = v.object({
  name: v.string(),
  sizeBytes: v.number(),
  updatedAt: v.string(),
})
export type OrganizationStorageFile = v.InferOutput<typeof OrganizationStorageFileSchema>

/** One page of files by name; `continuationToken` asks for the next page (null: the last). */
export const OrganizationStoragePageSchema = v.object({
  files: v.array(OrganizationStorageFileSchema),
  continuationToken: v.nullable(v.string()),
})
export type OrganizationStoragePage = v.InferOutput<typeof OrganizationStoragePageSchema>

const ContinuationTokenSchema = v.pipe(v.string(), v.maxLength(2048))

/** GET's query: the token of the page before (none: the first page). */
export const OrganizationStorageQuerySchema = v.object({
  continuationToken: v.optional(ContinuationTokenSchema),
})

/** POST's body: the same listing, the token in the body. */
export const OrganizationStorageBodySchema = v.object({
  continuationToken: v.optional(v.nullable(ContinuationTokenSchema)),
})

/** What an upload answers. */
export const OrganizationStorageUploadSchema = v.object({ name: v.string(), sizeBytes: v.number() })

/** Messages of the organization storage. */
export const ORGANIZATION_STORAGE_MESSAGES = {
  badToken: 'The continuationToken is not one this listing gave.',
  oneFile: 'Choose one file to upload.',
  badName: 'The file name must not be empty or start with a dot.',
  tooLarge: 'The file is larger than the upload limit.',
} as const

/** Whether a file name is one the storage takes: no folder part, no leading dot, no NUL. */
export function isStorableFileName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !name.startsWith('.') && !/[/\\\0]/.test(name)
}

/** Organization storage calls (JSON); the upload and download are binary. */
export const ORGANIZATION_STORAGE_ROUTES = {
  listOrganizationStorage: {
    method: 'GET',
    path: '/organization_storage',
    summary: "One page of the organization storage's files, by name",
    auth: true,
    status: 200,
    query: OrganizationStorageQuerySchema,
    response: OrganizationStoragePageSchema,
  },
  queryOrganizationStorage: {
    method: 'POST',
    path: '/organization_storage',
    summary: 'The same listing, with the continuationToken in the body',
    auth: true,
    status: 200,
    body: OrganizationStorageBodySchema,
    response: OrganizationStoragePageSchema,
  },
} as const satisfies Record<string, RouteDef>
