import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import {
  LiveClientFrameSchema,
  PROTOCOL_VERSION,
  type LiveServerFrame,
} from '../../domain/liveProtocol.ts'
import { ROUTES } from '../../domain/rest.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { toFastifyPath } from '../api/routes.ts'
import type { SessionUser } from '../api/context.ts'
import { sessionRegistryFor } from '../auth/sessionRegistry.ts'
import { authenticateAccessToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { registerLiveHub, type LiveClient, type LiveHub } from './LiveHub.ts'

/** Path of the live channel. */
export const LIVE_PATH = '/ws/live'

/** Close codes the server uses (4xxx: application codes). */
export const LIVE_CLOSE_CODES = {
  unauthorized: 4001,
  protocolVersion: 4002,
  badFrame: 4003,
  helloTimeout: 4008,
  /**
   * The session of the Hello's token ended (logout, revocation, access token expired): the same
   * code as a refused token, so the client reconnects with its current (refreshed) token.
   */
  sessionEnded: 4001,
} as const

/** A connection must say Hello (or carry ?token=) within this time. */
const HELLO_TIMEOUT_MS = 10_000

export interface LiveChannelOptions {
  db: Kysely<Database>
  clock: Clock
  hub: LiveHub
}

/**
 * Registers websocket /ws/live. Auth: `?token=` on the URL or a first Hello frame with the access
 * token; then Subscribe / Unsubscribe per simulation (checked like GET /simulations/{id}). The
 * server answers Welcome, sends the current simulation on Subscribe, store updates as jobs move,
 * and WorkloadHeartbeat every 0.5 s (10 s while a workload is connected).
 */
export async function registerLiveChannel(
  app: FastifyInstance,
  options: LiveChannelOptions,
): Promise<void> {
  const { db, clock, hub } = options
  registerLiveHub(db, hub)
  // Deleting a simulation or a project (with its simulations) tells whoever watches them (DEL).
  const deleteRoutes = new Set(
    [ROUTES.deleteSimulation.path, ROUTES.deleteProject.path].map(toFastifyPath),
  )
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'DELETE' || reply.statusCode !== 200) return
    if (!deleteRoutes.has(request.routeOptions.url ?? '')) return
    await hub.pruneDeleted().catch((error: unknown) => console.error('Live DEL failed', error))
  })
  if (!app.hasDecorator('websocketServer'))
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } })

  app.get(LIVE_PATH, { websocket: true }, (socket, request) => {
    let user: SessionUser | null = null
    let client: LiveClient | null = null
    let heartbeat: NodeJS.Timeout | undefined
    let unwatchSession: (() => void) | undefined
    const send = (frame: LiveServerFrame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame))
    }
    const close = (code: number, reason: string) => {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
        socket.close(code, reason)
    }
    const scheduleHeartbeat = () => {
      if (!client) return
      const current = client
      heartbeat = setTimeout(() => {
        hub.heartbeat(current)
        scheduleHeartbeat()
      }, hub.heartbeatMs(current))
    }
    const helloTimer = setTimeout(
      () => close(LIVE_CLOSE_CODES.helloTimeout, 'No Hello'),
      HELLO_TIMEOUT_MS,
    )

    const welcome = async (token: string | undefined) => {
      try {
        const auth = await authenticateAccessToken(db, clock, token)
        user = auth.user
        // Logout, revocation or the token's expiry closes the socket (no query per message).
        unwatchSession = sessionRegistryFor(db, clock).watch(
          auth.sessionId,
          auth.accessExpiresAtMs,
          () => close(LIVE_CLOSE_CODES.sessionEnded, 'Session ended'),
        )
      } catch {
        close(LIVE_CLOSE_CODES.unauthorized, 'Unauthorized')
        return
      }
      if (socket.readyState !== socket.OPEN) {
        unwatchSession?.()
        return
      }
      clearTimeout(helloTimer)
      client = { organizationId: user.organization_id, subscriptions: new Set(), send }
      hub.add(client)
      send({ type: 'Welcome', protocolVersion: PROTOCOL_VERSION, lastUpdateId: 0 })
      hub.heartbeat(client)
      scheduleHeartbeat()
    }

    const query = request.query as { token?: unknown }
    let ready: Promise<void> = Promise.resolve()
    if (typeof query.token === 'string') ready = welcome(query.token)

    socket.on('message', (data: Buffer, isBinary: boolean) => {
      ready = ready.then(async () => {
        let raw: unknown
        try {
          raw = isBinary ? undefined : JSON.parse(data.toString('utf8'))
        } catch {
          raw = undefined
        }
        const parsed = v.safeParse(LiveClientFrameSchema, raw)
        if (!parsed.success) {
          close(LIVE_CLOSE_CODES.badFrame, 'Frame not understood')
          return
        }
        const frame = parsed.output
        if (frame.type === 'Hello') {
          if (frame.protocolVersion !== PROTOCOL_VERSION) {
            close(LIVE_CLOSE_CODES.protocolVersion, `Protocol version ${PROTOCOL_VERSION} required`)
            return
          }
          if (!client) await welcome(frame.accessToken)
          return
        }
        if (!client || !user) {
          close(LIVE_CLOSE_CODES.unauthorized, 'Say Hello first')
          return
        }
        if (frame.type === 'Heartbeat') return
        if (frame.type === 'Unsubscribe') {
          client.subscriptions.delete(frame.simulationId)
          return
        }
        try {
          await findAccessibleSimulation(db, user, frame.simulationId)
        } catch {
          // Out of reach reads like a deleted simulation, so its existence does not leak.
          hub.sendUpdate(client, 'DEL', ['simulations', String(frame.simulationId)])
          return
        }
        client.subscriptions.add(frame.simulationId)
        await hub.sendSnapshot(client, frame.simulationId)
      })
    })
    socket.on('close', () => {
      unwatchSession?.()
      clearTimeout(helloTimer)
      clearTimeout(heartbeat)
      if (client) hub.remove(client)
    })
  })
}
