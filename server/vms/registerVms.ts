import websocket from '@fastify/websocket'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { API_PREFIX } from '../../domain/rest.ts'
import { VM_SOCKET_PATH, VM_STORAGE_PATH, VM_TICKET_PATH } from '../../domain/rest/vmRoutes.ts'
import { ApiError } from '../api/apiError.ts'
import type { AuthedContext } from '../api/context.ts'
import { parseIdParam } from '../api/validation.ts'
import { sessionRegistryFor } from '../auth/sessionRegistry.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { assertStorageAvailable } from '../storage/usage.ts'
import { LocalMachineProvider, DEFAULT_VM_MEMORY_BYTES } from './localProvider.ts'
import { findAccessibleVm } from './vmHandlers.ts'
import { parseHandle, type RemoteVmRow } from './vmRecords.ts'
import { registerVmService, unregisterVmService } from './vmRegistry.ts'
import { VmService, type VmServiceOptions } from './VmService.ts'
import { VmSftpServer } from './sftpServer.ts'
import { registerOrganizationStorageRoutes } from './organizationStorage.ts'
import { VM_TICKET_TTL_MS, VmTickets } from './vmTickets.ts'
import { refreshVmStorageBytes } from './storageUsage.ts'

/** Largest file one VM storage upload takes. */
export const VM_UPLOAD_LIMIT_BYTES = 2 * 1024 ** 3

/** Close codes of the VM websocket. */
export const VM_SOCKET_CLOSE = { sessionEnded: 4401, stopped: 4410, vncFailed: 4502 } as const

export interface RegisterVmsOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
  /** Overrides of the service's defaults (tests: a provider, a fast tick). */
  vms?: Partial<VmServiceOptions>
}

/**
 * Where the VMs' SFTP endpoint listens: DIVE_SFTP_HOST (default 127.0.0.1), DIVE_SFTP_PORT
 * (default 0: a free port, read back into each sftpUrl) and DIVE_SFTP_PUBLIC_HOST, the host name
 * sftpUrl names (default: the listen address).
 */
function sftpOptionsFromEnv(): { host: string; port: number; publicHost?: string } {
  const port = Number(process.env.DIVE_SFTP_PORT ?? 0)
  return {
    host: process.env.DIVE_SFTP_HOST || '127.0.0.1',
    port: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0,
    ...(process.env.DIVE_SFTP_PUBLIC_HOST && { publicHost: process.env.DIVE_SFTP_PUBLIC_HOST }),
  }
}

function numberFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

/** Authenticates a request by its bearer header or (websockets) its ?token=. */
async function authenticate(
  options: RegisterVmsOptions,
  request: FastifyRequest,
): Promise<AuthedContext & { accessExpiresAtMs: number }> {
  const query = request.query as { token?: string }
  const token = readBearerToken(request.headers.authorization) ?? query.token
  const auth = await authenticateAccessToken(options.db, options.clock, token)
  return {
    db: options.db,
    clock: options.clock,
    dataDir: options.dataDir,
    version: '',
    user: auth.user,
    sessionId: auth.sessionId,
    accessExpiresAtMs: auth.accessExpiresAtMs,
  }
}

/**
 * The VM service of the app (local provider by default; DIVE_VM_MAX machines at once, default 2;
 * DIVE_VM_MEMORY_MB of address space each, default 4096), the websocket that streams a running
 * VM's VNC to noVNC (authenticated with the session and the simulation's permissions; no VNC port
 * is reachable any other way; logout or the token's expiry closes it) and the storage upload.
 */
export async function registerVms(
  app: FastifyInstance,
  options: RegisterVmsOptions,
): Promise<VmService> {
  const log = (line: string) => app.log.info(line)
  const sftp = new VmSftpServer({
    db: options.db,
    dataDir: options.dataDir,
    log: options.vms?.log ?? log,
    ...sftpOptionsFromEnv(),
  })
  await sftp.listen()
  const service = new VmService({
    db: options.db,
    clock: options.clock,
    dataDir: options.dataDir,
    provider: new LocalMachineProvider({
      dataDir: options.dataDir,
      memoryLimitBytes:
        numberFromEnv('DIVE_VM_MEMORY_MB', DEFAULT_VM_MEMORY_BYTES / 1024 ** 2) * 1024 ** 2,
    }),
    maxConcurrent: numberFromEnv('DIVE_VM_MAX', 2),
    tickMs: 2000,
    launchTimeoutMs: 3 * 60_000,
    log,
    sftpUrl: (row) => sftp.url(row),
    onMachineEnded: (vmId) => sftp.closeSessions(vmId),
    ...options.vms,
  })
  registerVmService(options.db, service)
  app.addHook('onClose', async () => {
    await sftp.close()
    await service.close()
    unregisterVmService(options.db)
  })
  await service.recover()
  service.start()

  if (!app.hasDecorator('websocketServer'))
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } })

  const tickets = new VmTickets(() => options.clock.nowMs())
  const socketPath = VM_SOCKET_PATH.replace('{id}', ':id')
  const accepted = new WeakMap<
    FastifyRequest,
    { row: RemoteVmRow; sessionId: number; expiresAtMs: number }
  >()
  app.get(
    socketPath,
    {
      websocket: true,
      // Refused before the upgrade: 401 without a good ticket or session, 404 for a VM out of
      // reach, 409 when it is not running. The page opens it with a ticket (vmTickets.ts), which
      // stands for the session that asked; API clients may still give ?token=.
      preValidation: async (request, reply) => {
        try {
          const id = parseIdParam((request.params as { id?: string }).id, 'id')
          const query = request.query as { ticket?: string }
          let grant: { row: RemoteVmRow; sessionId: number; expiresAtMs: number }
          if (query.ticket !== undefined) {
            const ticket = tickets.redeem(query.ticket, id)
            if (!ticket) throw new ApiError('unauthorized', 'The VM ticket is used or expired.')
            grant = {
              row: VmService.require(await service.findById(id)),
              sessionId: ticket.sessionId,
              expiresAtMs: ticket.accessExpiresAtMs,
            }
          } else {
            const context = await authenticate(options, request)
            grant = {
              row: await findAccessibleVm(context, id),
              sessionId: context.sessionId,
              expiresAtMs: context.accessExpiresAtMs,
            }
          }
          if (grant.row.state !== 'running' || !parseHandle(grant.row))
            throw new ApiError('conflict', 'The VM is not running.')
          accepted.set(request, grant)
        } catch (error) {
          const apiError =
            error instanceof ApiError ? error : new ApiError('unknown_error', String(error))
          return reply
            .code(apiError.status)
            .send({ code: apiError.code, description: apiError.message })
        }
      },
    },
    (socket, request) => {
      const found = accepted.get(request)
      const handle = found ? parseHandle(found.row) : null
      if (!found || !handle) {
        socket.close(VM_SOCKET_CLOSE.vncFailed, 'No VM')
        return
      }
      const vnc = service.provider.connectVnc(handle)
      const close = (code: number, reason: string) => {
        vnc.destroy()
        if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
          socket.close(code, reason)
      }
      const unwatch = sessionRegistryFor(options.db, options.clock).watch(
        found.sessionId,
        found.expiresAtMs,
        () => close(VM_SOCKET_CLOSE.sessionEnded, 'Session ended'),
      )
      // The VM stopping ends its stream.
      const watchState = setInterval(() => {
        void service.findById(found.row.id).then((row) => {
          if (!row || row.state !== 'running') close(VM_SOCKET_CLOSE.stopped, 'VM stopped')
        })
      }, 2000)
      vnc.on('data', (data: Buffer) => {
        if (socket.readyState === socket.OPEN) socket.send(data)
      })
      vnc.on('error', () => close(VM_SOCKET_CLOSE.vncFailed, 'VNC connection failed'))
      vnc.on('close', () => close(VM_SOCKET_CLOSE.vncFailed, 'VNC connection closed'))
      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
        const chunk = Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.isBuffer(data)
            ? data
            : Buffer.from(data)
        vnc.write(chunk)
      })
      socket.on('close', () => {
        clearInterval(watchState)
        unwatch()
        vnc.destroy()
      })
    },
  )

  registerOrganizationStorageRoutes(app, options)

  // POST: a short-lived ticket for the VM's websocket (the access token stays out of the URL).
  app.post(`${API_PREFIX}${VM_TICKET_PATH.replace('{id}', ':id')}`, async (request, reply) => {
    const context = await authenticate(options, request)
    const id = parseIdParam((request.params as { id?: string }).id, 'id')
    const row = await findAccessibleVm(context, id)
    if (row.state !== 'running') throw new ApiError('conflict', 'The VM is not running.')
    const ticket = tickets.issue(row.id, context.sessionId, context.accessExpiresAtMs)
    return reply.code(201).send({ ticket, expiresInS: VM_TICKET_TTL_MS / 1000 })
  })

  // POST: one file into the VM's storage (multipart field `file`).
  app.post(`${API_PREFIX}${VM_STORAGE_PATH.replace('{id}', ':id')}`, async (request, reply) => {
    const context = await authenticate(options, request)
    const id = parseIdParam((request.params as { id?: string }).id, 'id')
    const row = await findAccessibleVm(context, id)
    if (row.state !== 'running' && row.state !== 'launching')
      throw new ApiError('conflict', 'The VM is not running.')
    const length = Number(request.headers['content-length'] ?? 0)
    await assertStorageAvailable(options.db, row.organization_id, length)
    const part = await request.file({ limits: { fileSize: VM_UPLOAD_LIMIT_BYTES, files: 1 } })
    if (!part) throw new ApiError('wrong_input', 'Choose one file to upload.')
    const sizeBytes = await service.provider.upload(row.id, part.filename, part.file)
    await refreshVmStorageBytes(options.db, options.dataDir, row.id)
    if (part.file.truncated)
      throw new ApiError('payload_too_large', 'The file is larger than the upload limit.')
    return reply.code(201).send({ name: part.filename, sizeBytes })
  })
  return service
}
