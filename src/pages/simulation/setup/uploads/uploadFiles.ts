import {
  DatatableSchema,
  type Datatable,
  type DatatableKind,
} from '../../../../../domain/datatable.ts'
import {
  CSV_UPLOAD_LIMIT_BYTES,
  STL_UPLOAD_LIMIT_BYTES,
  UploadSchema,
  type StlUnit,
  type Upload,
} from '../../../../../domain/rest/setupRoutes.ts'
import { ApiError } from '../../../../api/ApiError.ts'
import { browserTransport, parseReply, sendUpload, type UploadTransport } from './uploadRequest.ts'

/*
 * The upload calls of the Setup view: STL files (POST /client-upload/uploads with a unit), CSV
 * files made into datatables (the same route with a kind), and a datatable replaced by a CSV
 * (PUT /datatables/{id}/csv).
 */

/** POST /client-upload/uploads answers 201 with the stored upload. */
export const UPLOADS_PATH = '/client-upload/uploads'

/** 'The file is larger than 256 MiB.', as the server words a 413. */
export function fileTooLargeMessage(limitBytes: number): string {
  return `The file is larger than ${limitBytes / 1024 / 1024} MiB.`
}

/** Refuses a file over the limit before sending it (the server would answer 413 after the upload). */
function checkSize(file: File, limitBytes: number): void {
  if (file.size > limitBytes)
    throw new ApiError(413, undefined, { message: fileTooLargeMessage(limitBytes) })
}

export interface UploadOptions {
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
  transport?: UploadTransport
}

/** Uploads an STL in a length unit; the server stores it in metres. */
export async function uploadStl(
  file: File,
  unit: StlUnit,
  options: UploadOptions = {},
): Promise<Upload> {
  checkSize(file, STL_UPLOAD_LIMIT_BYTES)
  const form = new FormData()
  form.append('unit', unit)
  form.append('file', file, file.name)
  const body = await sendUpload(
    { method: 'POST', path: UPLOADS_PATH, form, expectedStatus: 201, ...options },
    options.transport ?? browserTransport,
  )
  return parseReply(UploadSchema, body)
}

/** Uploads a CSV as a new datatable of `kind` belonging to a simulation (its id: `datatableId`). */
export async function uploadCsvTable(
  file: File,
  table: { kind: DatatableKind; simulationId: number },
  options: UploadOptions = {},
): Promise<Upload> {
  checkSize(file, CSV_UPLOAD_LIMIT_BYTES)
  const form = new FormData()
  form.append('kind', table.kind)
  form.append('simulationId', String(table.simulationId))
  form.append('file', file, file.name)
  const body = await sendUpload(
    { method: 'POST', path: UPLOADS_PATH, form, expectedStatus: 201, ...options },
    options.transport ?? browserTransport,
  )
  return parseReply(UploadSchema, body)
}

/** Uploads an acceleration (or any plain) CSV file; the reply's id is its file id. */
export async function uploadCsvFile(file: File, options: UploadOptions = {}): Promise<Upload> {
  checkSize(file, CSV_UPLOAD_LIMIT_BYTES)
  const form = new FormData()
  form.append('file', file, file.name)
  const body = await sendUpload(
    { method: 'POST', path: UPLOADS_PATH, form, expectedStatus: 201, ...options },
    options.transport ?? browserTransport,
  )
  return parseReply(UploadSchema, body)
}

/** PUT /datatables/{id}/csv: the table replaced by a CSV file; answers its first page. */
export async function replaceDatatableCsv(
  tableId: number,
  file: File,
  options: UploadOptions = {},
): Promise<Datatable> {
  checkSize(file, CSV_UPLOAD_LIMIT_BYTES)
  const form = new FormData()
  form.append('file', file, file.name)
  const body = await sendUpload(
    { method: 'PUT', path: `/datatables/${tableId}/csv`, form, expectedStatus: 200, ...options },
    options.transport ?? browserTransport,
  )
  return parseReply(DatatableSchema, body)
}
