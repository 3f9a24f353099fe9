import { mkdirSync, readFileSync } from 'node:fs'
import type { Duplex } from 'node:stream'
import { fileURLToPath } from 'node:url'
import multipart from '@fastify/multipart'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify'
import type { Kysely } from 'kysely'
import { NAME_USED_MESSAGE } from '../domain/projects.ts'
import { ApiError, toErrorBody } from './api/apiError.ts'
import { registerAssemblyJobs } from './assemblies/AssemblyRunner.ts'
import { registerAssemblyUploadRoute } from './assemblies/uploadRoute.ts'
import { registerLoginThrottle } from './auth/loginThrottle.ts'
import { startSessionSweep } from './auth/sessions.ts'
import { createHandlers } from './api/handlers/index.ts'
import { buildOpenApiDocument } from './api/openapi.ts'
import { methodsForPath, registerRoutes } from './api/routes.ts'
import { createClock, type Clock } from './clock.ts'
import { isUniqueViolation } from './db/connect.ts'
import type { Database } from './db/schema.ts'
import { registerCompression } from './compression/registerCompression.ts'
import { registerExports } from './exports/registerExports.ts'
import { registerSimulationFileRoutes } from './files/simulationFiles.ts'
import { registerImageRoutes } from './images/imageRoutes.ts'
import { registerGraphUpload } from './dashboards/graphs.ts'
import { registerJobs, type JobOptions } from './jobs/registerJobs.ts'
import { registerOutputBundleRoute } from './results/bundleRoute.ts'
import { registerResultsChannel } from './results/session/resultsChannel.ts'
import { registerSensorJobs } from './sensors/SensorRecomputationRunner.ts'
import { registerSetupFileRoutes } from './setup/fileRoutes.ts'
import { SECURITY_HEADERS } from './securityHeaders.ts'
import { isPageRequest, registerStatic, sendIndexPage } from './static.ts'
import { sweepDataDirectory } from './storage/sweep.ts'
import { registerUploadRoutes } from './storage/uploads.ts'
import { registerVms } from './vms/registerVms.ts'
import type { VmServiceOptions } from './vms/VmService.ts'

/** Request bodies above this are refused with 413 (uploads get their own limits later). */
export const BODY_LIMIT_BYTES = 1024 * 1024

/** SharedArrayBuffer needs cross-origin isolation on every response (TOOLCHAIN.md). */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const

export interface AppOptions {
  /** A migrated database; the caller opens and closes it. */
  db: Kysely<Database>
  /** Uploads and outputs live under it. */
  dataDir: string
  /** The built UI; default dist/ of the repository. */
  distDir?: string
  clock?: Clock
  logger?: FastifyServerOptions['logger']
  /** Check every response against its route's schema (tests turn this on). */
  checkResponses?: boolean
  /** Release version; default package.json's. */
  version?: string
  /** Job executors and setup loader (tests); default worker threads and the stored setup. */
  jobs?: JobOptions
  /** Largest STEP upload; default STEP_UPLOAD_LIMIT_BYTES (tests lower it). */
  stepUploadLimitBytes?: number
  /** Remote VM service overrides (tests: a provider, a fast supervisor). */
  vms?: Partial<VmServiceOptions>
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The package version from package.json. */
export function readPackageVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8')
  return (JSON.parse(text) as { version: string }).version
}

/** JSON.parse that refuses prototype-poisoning keys. */
function parseJsonBody(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__') throw new SyntaxError('forbidden key')
    return value
  })
}

const FASTIFY_ERRORS: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES} bytes`),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError('wrong_input', 'The request body must be JSON (Content-Type: application/json)'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiError('wrong_input', 'The Content-Length does not match the body'),
  FST_ERR_CTP_EMPTY_TYPE: () => new ApiError('wrong_input', 'The Content-Type header is empty'),
  FST_ERR_CTP_INVALID_TYPE: () => new ApiError('wrong_input', 'The Content-Type header is invalid'),
}

/**
 * Errors Fastify raises before routing, with the product's error body (issue 13: a 414 answered
 * Fastify's own JSON): a path parameter over the router's limit is 414, a malformed URL 400.
 */
function frameworkError(error: FastifyError): { status: number; description: string } {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return { status: 414, description: 'The request URL is too long' }
  return { status: 400, description: 'The request URL is not valid' }
}

/**
 * Errors Node's HTTP parser raises before Fastify sees the request (headers or URL over 16 KiB:
 * 431, a timeout 408, anything else 400), answered with the product's error body.
 */
function sendClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return
  const [status, reason, description] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers or URL are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive']
        : [400, 'Bad Request', 'The request could not be read']
  const body = JSON.stringify(toErrorBody('wrong_input', description))
  const headers = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(ISOLATION_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ]
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`)
}

/** The HTTP server: REST routes of domain/rest.ts under /api, the UI from dist/, isolation headers. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? createClock()
  const version = options.version ?? readPackageVersion()
  const distDir = options.distDir ?? `${REPO_ROOT}dist`
  mkdirSync(options.dataDir, { recursive: true })
  // Orphans and cut uploads of an earlier process go before anything of this one writes (issue 13).
  await sweepDataDirectory(options.db, options.dataDir)

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors: (error, _request, reply) => {
      const { status, description } = frameworkError(error)
      void (reply as unknown as FastifyReply)
        .code(status)
        .headers(ISOLATION_HEADERS)
        .send(toErrorBody('wrong_input', description))
    },
    clientErrorHandler: sendClientError,
  })

  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(ISOLATION_HEADERS)
    reply.headers(SECURITY_HEADERS)
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store')
    return payload
  })

  // Only JSON bodies; an empty body is no body. Other types are refused by Fastify (→ wrong_input).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') {
      done(null, undefined)
      return
    }
    try {
      done(null, parseJsonBody(text))
    } catch {
      done(new ApiError('wrong_input', 'The request body is not valid JSON'), undefined)
    }
  })

  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    let apiError: ApiError | undefined
    if (error instanceof ApiError) apiError = error
    else if (isUniqueViolation(error)) apiError = new ApiError('duplicate_key', NAME_USED_MESSAGE)
    else if ('code' in error && typeof error.code === 'string' && FASTIFY_ERRORS[error.code])
      apiError = FASTIFY_ERRORS[error.code]?.()
    else if (
      'statusCode' in error &&
      typeof error.statusCode === 'number' &&
      error.statusCode < 500
    )
      apiError = new ApiError('wrong_input', error.message)
    if (apiError) {
      return reply
        .code(apiError.status)
        .send(toErrorBody(apiError.code, apiError.message, apiError.errors, apiError.extras))
    }
    request.log.error(error)
    return reply
      .code(500)
      .send(toErrorBody('unknown_error', 'Something went wrong on the server. Please try again.'))
  })

  // multipart/form-data for uploads; each upload route sets its own file size limit.
  await app.register(multipart, { limits: { fieldSize: 64 * 1024, fields: 20, parts: 50 } })
  registerSimulationFileRoutes(app, { db: options.db, clock, dataDir: options.dataDir })
  registerUploadRoutes(app, { db: options.db, clock, dataDir: options.dataDir })
  registerImageRoutes(app, { db: options.db, clock, dataDir: options.dataDir })
  registerGraphUpload(app, { db: options.db, clock })
  registerOutputBundleRoute(app, { db: options.db, clock, dataDir: options.dataDir })
  registerSetupFileRoutes(app, { db: options.db, clock, dataDir: options.dataDir })
  await registerResultsChannel(app, { db: options.db, clock, dataDir: options.dataDir })
  // Remote workers (DIVE_JOB_WORKERS=remote) run exports and archives: their records are theirs.
  const remote = options.jobs?.queue !== undefined
  await registerExports(app, { db: options.db, clock, dataDir: options.dataDir, remote })
  await registerCompression(app, { db: options.db, clock, dataDir: options.dataDir, remote })
  registerAssemblyUploadRoute(app, {
    db: options.db,
    clock,
    dataDir: options.dataDir,
    ...(options.stepUploadLimitBytes !== undefined && {
      limitBytes: options.stepUploadLimitBytes,
    }),
  })

  const openApiDocument = buildOpenApiDocument(version)
  await registerLoginThrottle(app, options.db, clock)
  const stopSessionSweep = startSessionSweep(options.db, clock)
  app.addHook('onClose', (_instance, done) => {
    stopSessionSweep()
    done()
  })
  registerRoutes(app, {
    context: { db: options.db, clock, dataDir: options.dataDir, version },
    handlers: createHandlers(() => Promise.resolve(openApiDocument)),
    checkResponses: options.checkResponses ?? false,
  })

  await registerJobs(app, { db: options.db, clock, dataDir: options.dataDir, ...options.jobs })
  await registerSensorJobs(app, { db: options.db, clock, dataDir: options.dataDir })
  await registerAssemblyJobs(app, { db: options.db, clock, dataDir: options.dataDir })
  await registerVms(app, {
    db: options.db,
    clock,
    dataDir: options.dataDir,
    ...(options.vms && { vms: options.vms }),
  })

  const uiBuilt = await registerStatic(app, distDir)

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/'
    const methods = methodsForPath(urlPath)
    if (methods.length > 0)
      return reply
        .code(405)
        .header('Allow', methods.join(', '))
        .send(toErrorBody('method_not_allowed', `${request.method} is not allowed on ${urlPath}`))
    if (isPageRequest(request, urlPath)) return sendIndexPage(reply, uiBuilt)
    return reply
      .code(404)
      .send(toErrorBody('resource_not_found', `Nothing at ${request.method} ${urlPath}`))
  })

  return app
}
