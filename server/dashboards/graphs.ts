import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import {
  GRAPH_FILE_MESSAGE,
  GRAPH_UPLOAD_PATH,
  VIEW_NAME_MAX_LENGTH,
  parseGraphCsv,
  type UploadedGraph,
} from '../../domain/dashboards.ts'
import { API_PREFIX } from '../../domain/rest.ts'
import { isId } from '../../domain/ids.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import type { DashboardGraphRow } from './tables.ts'

/*
 * Uploaded graphs (table dashboard_graphs): POST /graphs takes multipart fields simulationId and
 * name and a CSV `file` of x;y rows; the points are kept in the row (at most 100,000, a few MB).
 */

/** Largest graph file. */
export const GRAPH_UPLOAD_LIMIT_BYTES = 8 * 1024 * 1024

function toGraph(row: DashboardGraphRow): UploadedGraph {
  let points: { x?: unknown; y?: unknown } = {}
  try {
    points = JSON.parse(row.points) as typeof points
  } catch {
    points = {}
  }
  return {
    id: row.id,
    simulationId: row.simulation_id,
    name: row.name,
    xLabel: row.x_label,
    yLabel: row.y_label,
    x: Array.isArray(points.x) ? (points.x as number[]) : [],
    y: Array.isArray(points.y) ? (points.y as number[]) : [],
  }
}

export async function listGraphs(
  db: Kysely<Database>,
  simulationId: number,
): Promise<UploadedGraph[]> {
  const rows = await db
    .selectFrom('dashboard_graphs')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .orderBy('id')
    .execute()
  return rows.map(toGraph)
}

/** Removes a graph of a simulation the user sees (else 404) and the tiles that plot it. */
export async function deleteGraph(
  db: Kysely<Database>,
  user: SessionUser,
  id: number,
): Promise<void> {
  const row = await db
    .selectFrom('dashboard_graphs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('Graph')
  try {
    await findAccessibleSimulation(db, user, row.simulation_id)
  } catch {
    throw notFound('Graph')
  }
  await db.transaction().execute(async (trx) => {
    const tiles = await trx
      .selectFrom('dashboard_tiles')
      .innerJoin('dashboard_views', 'dashboard_views.id', 'dashboard_tiles.view_id')
      .select(['dashboard_tiles.id', 'dashboard_tiles.settings'])
      .where('dashboard_views.simulation_id', '=', row.simulation_id)
      .where('dashboard_tiles.type', '=', 'graph')
      .execute()
    const plotting = tiles
      .filter((tile) => {
        try {
          const source = (
            JSON.parse(tile.settings) as { graph?: { source?: { graphId?: unknown } } }
          ).graph?.source
          return source?.graphId === row.id
        } catch {
          return false
        }
      })
      .map((tile) => tile.id)
    if (plotting.length > 0)
      await trx.deleteFrom('dashboard_tiles').where('id', 'in', plotting).execute()
    await trx.deleteFrom('dashboard_graphs').where('id', '=', row.id).execute()
  })
}

async function receiveGraph(
  request: FastifyRequest,
): Promise<{ text: string; fields: Record<string, string>; fileName: string }> {
  if (!request.isMultipart())
    throw new ApiError('wrong_input', 'Send the graph as multipart/form-data (field "file").')
  const fields: Record<string, string> = {}
  let text: string | undefined
  let fileName = ''
  try {
    for await (const part of request.parts({
      limits: { fileSize: GRAPH_UPLOAD_LIMIT_BYTES, files: 1 },
    })) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value
        continue
      }
      const chunks: Buffer[] = []
      for await (const chunk of part.file as AsyncIterable<Buffer>) chunks.push(chunk)
      if (part.file.truncated)
        throw new ApiError('payload_too_large', 'The graph file is larger than 8 MiB.')
      if (part.fieldname === 'file') {
        text = Buffer.concat(chunks).toString('utf8')
        fileName = part.filename || ''
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError('payload_too_large', 'The graph file is larger than 8 MiB.')
    throw new ApiError('wrong_input', 'The multipart body could not be read.')
  }
  if (text === undefined)
    throw new ApiError('body_keys_missing', 'file is required', [
      { path: 'file', message: 'file is required' },
    ])
  return { text, fields, fileName }
}

/** Registers POST /api/graphs (multipart). */
export function registerGraphUpload(
  app: FastifyInstance,
  options: { db: Kysely<Database>; clock: Clock },
): void {
  app.post(`${API_PREFIX}${GRAPH_UPLOAD_PATH}`, async (request, reply) => {
    const { user } = await authenticateAccessToken(
      options.db,
      options.clock,
      readBearerToken(request.headers.authorization),
    )
    const received = await receiveGraph(request)
    const simulationId = Number(received.fields.simulationId)
    if (!isId(simulationId))
      throw new ApiError('validation_error', 'simulationId must be a simulation id', [
        { path: 'simulationId', message: 'simulationId must be a simulation id' },
      ])
    const simulation = await findAccessibleSimulation(options.db, user, simulationId)
    const parsed = parseGraphCsv(received.text)
    if (!parsed) throw new ApiError('wrong_input', GRAPH_FILE_MESSAGE)
    const name = (received.fields.name ?? received.fileName.replace(/\.[^.]*$/, ''))
      .trim()
      .slice(0, VIEW_NAME_MAX_LENGTH)
    const nowIso = options.clock.nowIso()
    const row = await options.db
      .insertInto('dashboard_graphs')
      .values({
        simulation_id: simulation.id,
        name: name || 'Graph',
        x_label: parsed.xLabel.slice(0, VIEW_NAME_MAX_LENGTH),
        y_label: parsed.yLabel.slice(0, VIEW_NAME_MAX_LENGTH),
        points: JSON.stringify({ x: parsed.x, y: parsed.y }),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    return reply.code(201).send(toGraph(row))
  })
}
