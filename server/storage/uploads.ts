import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import {
  DATATABLE_KINDS,
  parseDatatableCsv,
  validateDatatable,
  type DatatableErrors,
  type DatatableKind,
  type DatatableUpdate,
} from '../../domain/datatable.ts'
import { SECURITY_RISK_MESSAGE } from '../../domain/errors.ts'
import { API_PREFIX } from '../../domain/rest.ts'
import {
  CSV_UPLOAD_LIMIT_BYTES,
  STL_UNITS,
  STL_UPLOAD_LIMIT_BYTES,
  type StlUnit,
  type Upload,
  type UploadKind,
} from '../../domain/rest/setupRoutes.ts'
import { ApiError } from '../api/apiError.ts'
import { parseIdParam } from '../api/validation.ts'
import type { SessionUser } from '../api/context.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { findEditableSimulation } from '../setup/access.ts'
import {
  findDatatable,
  insertDatatable,
  refuseDatatable,
  replaceDatatable,
} from '../setup/datatables.ts'
import { toUpload, type UploadInfo } from '../setup/views.ts'
import { uploadStoredPath, writeStoredFile } from './files.ts'
import { detectForeignFormat, isPrintableText } from './sniff.ts'
import { checkStlInThread } from './stlThread.ts'
import { assertStorageAvailable } from './usage.ts'

/*
 * POST /client-upload/uploads (spec/setup.md §7: multipart `file` and an optional `unit`) and
 * PUT /datatables/{id}/csv. An STL (binary or ASCII, in m, mm or in) is parsed and stored as the
 * canonical mesh file in metres; a CSV is checked cell by cell (and by a datatable kind's rules when
 * `kind` is given, which also makes a datatable of it). A file that is not what its name claims is
 * refused with 503 and the spec's security-risk message. Everything is checked in memory before
 * anything is written, so a failed upload stores nothing.
 */

interface UploadRoutesOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
}

/** What a multipart upload carried. */
interface ReceivedUpload {
  fileName: string
  bytes: Uint8Array
  fields: Map<string, string>
}

function uploadKindOf(fileName: string): UploadKind {
  const lower = fileName.toLowerCase()
  if (lower.endsWith('.stl')) return 'stl'
  if (lower.endsWith('.csv')) return 'csv'
  throw new ApiError('wrong_input', 'Only .stl and .csv files can be uploaded here.')
}

function limitOf(kind: UploadKind): number {
  return kind === 'stl' ? STL_UPLOAD_LIMIT_BYTES : CSV_UPLOAD_LIMIT_BYTES
}

function formatMiB(bytes: number): string {
  return `${bytes / 1024 / 1024} MiB`
}

async function authenticate(
  options: UploadRoutesOptions,
  request: FastifyRequest,
): Promise<SessionUser> {
  const { user } = await authenticateAccessToken(
    options.db,
    options.clock,
    readBearerToken(request.headers.authorization),
  )
  return user
}

/** Reads the multipart body: the `file` part (within its kind's size limit) and the text fields. */
async function receiveUpload(request: FastifyRequest): Promise<ReceivedUpload> {
  if (!request.isMultipart())
    throw new ApiError('wrong_input', 'Send the file as multipart/form-data (field "file").')
  const fields = new Map<string, string>()
  let received: ReceivedUpload | undefined
  let tooLarge: number | undefined
  try {
    for await (const part of request.parts({
      limits: { fileSize: STL_UPLOAD_LIMIT_BYTES + 1, files: 1 },
    })) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields.set(part.fieldname, part.value)
        continue
      }
      if (part.fieldname !== 'file') {
        part.file.resume()
        continue
      }
      const fileName = (part.filename || '').trim()
      const kind = uploadKindOf(fileName)
      const limit = limitOf(kind)
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length
        if (size > limit) tooLarge = limit
        else chunks.push(chunk)
      }
      if (part.file.truncated) tooLarge = limit
      if (tooLarge === undefined)
        received = { fileName, bytes: new Uint8Array(Buffer.concat(chunks)), fields }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error
    const code = (error as { code?: unknown }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(
        'payload_too_large',
        `The file is larger than ${formatMiB(STL_UPLOAD_LIMIT_BYTES)}.`,
      )
    throw new ApiError('wrong_input', 'The multipart body could not be read.')
  }
  if (tooLarge !== undefined)
    throw new ApiError('payload_too_large', `The file is larger than ${formatMiB(tooLarge)}.`)
  if (!received)
    throw new ApiError('body_keys_missing', 'file is required', [
      { path: 'file', message: 'file is required' },
    ])
  return received
}

function securityRisk(): ApiError {
  return new ApiError('security_risk', SECURITY_RISK_MESSAGE)
}

function readUnit(value: string | undefined): StlUnit {
  if (value === undefined || value.trim() === '') return 'm'
  const unit = STL_UNITS.find((u) => u === value.trim().toLowerCase())
  if (!unit)
    throw new ApiError('validation_error', 'unit must be m, mm or in', [
      { path: 'unit', message: 'unit must be m, mm or in' },
    ])
  return unit
}

function readDatatableKind(value: string | undefined): DatatableKind | null {
  if (value === undefined || value.trim() === '') return null
  const kind = DATATABLE_KINDS.find((k) => k === value.trim())
  if (!kind) {
    const message = `kind must be one of ${DATATABLE_KINDS.join(', ')}`
    throw new ApiError('validation_error', message, [{ path: 'kind', message }])
  }
  return kind
}

/** Extra cells past the headers, which parseDatatableCsv would silently drop. */
function checkCsvRowWidths(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  const separator = (lines[0] ?? '').includes(';') ? ';' : ','
  const width = (lines[0] ?? '').split(separator).length
  const errors: string[] = []
  lines.slice(1).forEach((line, i) => {
    const cells = line.split(separator).length
    if (cells !== width)
      errors.push(`Row ${i + 1} has ${cells} values where the header has ${width}.`)
  })
  return errors.slice(0, 20)
}

/**
 * The table of a CSV upload: printable text, a header row, numbers in every cell (NaN, empty or
 * text cells are cell errors), rows as wide as the header; with a kind, also that kind's headers
 * and row limits. Refused with 'Validation failed' and every error.
 */
export function readCsvUpload(bytes: Uint8Array, kind: DatatableKind | null): DatatableUpdate {
  if (detectForeignFormat(bytes) || !isPrintableText(bytes)) throw securityRisk()
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
  const table = parseDatatableCsv(text)
  const errors: DatatableErrors = kind
    ? validateDatatable(kind, table)
    : { ...validateDatatable('default', table), globalErrors: [] }
  if (table.headers.length === 0) errors.globalErrors.unshift('The CSV file has no header row.')
  if (!kind) {
    const rows = Math.max(0, ...table.headers.map((h) => table.table[h]?.length ?? 0))
    if (rows < 2) errors.globalErrors.push('Table must have at least 2 rows.')
  }
  errors.globalErrors.push(...checkCsvRowWidths(text))
  if (errors.globalErrors.length > 0 || errors.cellErrors.length > 0) throw refuseDatatable(errors)
  return table
}

async function storeUpload(
  options: UploadRoutesOptions,
  user: SessionUser,
  upload: {
    kind: UploadKind
    fileName: string
    unit: StlUnit | null
    stored: Uint8Array
    info: UploadInfo
  },
  table: { kind: DatatableKind; simulationId: number | null; body: DatatableUpdate } | null,
): Promise<Upload> {
  // Refused before anything is written when it would pass the organization's storage (issue 13).
  await assertStorageAvailable(options.db, user.organization_id, upload.stored.length)
  const nowIso = options.clock.nowIso()
  return options.db.transaction().execute(async (trx) => {
    const info: UploadInfo = { ...upload.info }
    if (table) {
      const row = await insertDatatable(trx, {
        organizationId: user.organization_id,
        simulationId: table.simulationId,
        kind: table.kind,
        headers: table.body.headers,
        table: table.body.table,
        nowIso,
      })
      info.datatableId = row.id
    }
    const { id } = await trx
      .insertInto('uploads')
      .values({
        organization_id: user.organization_id,
        uploader_id: user.id,
        kind: upload.kind,
        file_name: upload.fileName,
        unit: upload.unit,
        // What it takes on disk, which the organization's storage counts.
        size_bytes: upload.stored.length,
        stored_path: '',
        info: JSON.stringify(info),
        created_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const storedPath = uploadStoredPath(user.organization_id, id, upload.kind)
    await trx.updateTable('uploads').set({ stored_path: storedPath }).where('id', '=', id).execute()
    // Written last, inside the transaction: a failed write rolls the row back.
    await writeStoredFile(options.dataDir, storedPath, upload.stored)
    return toUpload(
      await trx.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    )
  })
}

/** Registers POST /api/client-upload/uploads and PUT /api/datatables/:id/csv. */
export function registerUploadRoutes(app: FastifyInstance, options: UploadRoutesOptions): void {
  app.post(`${API_PREFIX}/client-upload/uploads`, async (request, reply) => {
    const user = await authenticate(options, request)
    const received = await receiveUpload(request)
    const kind = uploadKindOf(received.fileName)
    const fileName = received.fileName.replace(/^.*[\\/]/, '').slice(0, 255)
    let result: Upload
    if (kind === 'stl') {
      const unit = readUnit(received.fields.get('unit'))
      // Parsed and checked in a worker thread: a large STL never holds up other requests.
      const checked = await checkStlInThread(received.bytes, unit)
      result = await storeUpload(
        options,
        user,
        {
          kind,
          fileName,
          unit,
          stored: checked.stored,
          info: { nbrOfTriangles: checked.nbrOfTriangles, watertight: checked.watertight },
        },
        null,
      )
    } else {
      const tableKind = readDatatableKind(received.fields.get('kind'))
      const simulationField = received.fields.get('simulationId')
      let simulationId: number | null = null
      if (simulationField !== undefined && simulationField.trim() !== '') {
        const id = parseIdParam(simulationField.trim(), 'simulationId')
        simulationId = (await findEditableSimulation(options.db, user, id)).id
      }
      const table = readCsvUpload(received.bytes, tableKind)
      result = await storeUpload(
        options,
        user,
        {
          kind,
          fileName,
          unit: null,
          stored: received.bytes,
          info: {},
        },
        tableKind ? { kind: tableKind, simulationId, body: table } : null,
      )
    }
    return reply.code(201).send(result)
  })

  app.put(`${API_PREFIX}/datatables/:id/csv`, async (request, reply) => {
    const user = await authenticate(options, request)
    const id = parseIdParam((request.params as { id?: unknown }).id, 'id')
    const { row } = await findDatatable(options.db, user, id, true)
    const received = await receiveUpload(request)
    if (uploadKindOf(received.fileName) !== 'csv')
      throw new ApiError('wrong_input', 'A datatable takes a .csv file.')
    const kind = DATATABLE_KINDS.find((k) => k === row.kind) ?? 'default'
    const table = readCsvUpload(received.bytes, kind)
    const page = await options.db
      .transaction()
      .execute(async (trx) => replaceDatatable(trx, row, table, options.clock.nowIso()))
    return reply.code(200).send(page)
  })
}
