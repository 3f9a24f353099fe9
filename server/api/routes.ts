import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import { API_PREFIX, ROUTES, type RouteDef, type RouteName } from '../../domain/rest.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import { isNumberOutOfRange } from '../db/connect.ts'
import { ApiError } from './apiError.ts'
import type { PublicContext, RouteHandlers } from './context.ts'
import { missingRefreshToken } from './handlers/auth.ts'
import { assertStorableText, parseBody, parseInput } from './validation.ts'

/** The answer to a number a database column cannot hold. */
export const NUMBER_OUT_OF_RANGE_MESSAGE = 'A number in the request is out of range'

/** `/projects/{id}` → `/api/projects/:id` for Fastify. */
export function toFastifyPath(path: string): string {
  return API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1')
}

/** Matches a concrete URL path against a ROUTES path. */
export function routePattern(path: string): RegExp {
  const source = (API_PREFIX + path)
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+')
  return new RegExp(`^${source}/?$`)
}

/** Methods ROUTES defines for a URL path (empty: an unknown path). */
export function methodsForPath(urlPath: string): string[] {
  return (Object.values(ROUTES) as RouteDef[])
    .filter((def) => routePattern(def.path).test(urlPath))
    .map((def) => def.method)
}

export interface RegisterRoutesOptions {
  context: PublicContext
  handlers: RouteHandlers
  /** Parse every response with its route's schema (tests): a mismatch becomes a 500. */
  checkResponses: boolean
}

function parseRequestBody(name: RouteName, def: RouteDef, request: FastifyRequest): unknown {
  if (!def.body) return undefined
  try {
    return parseBody(def.body, request.body)
  } catch (error) {
    // The refresh call's own code for "no token", which sends the UI back to the login page.
    if (name === 'refresh' && error instanceof ApiError && error.code === 'body_keys_missing')
      throw missingRefreshToken()
    throw error
  }
}

function parseQuery(schema: v.GenericSchema, query: unknown): unknown {
  assertStorableText(query)
  return parseInput(schema, query)
}

/** Registers one Fastify route per ROUTES entry: authenticate, validate, call, check status. */
export function registerRoutes(app: FastifyInstance, options: RegisterRoutesOptions): void {
  const { context, handlers, checkResponses } = options
  for (const [name, def] of Object.entries(ROUTES) as [RouteName, RouteDef][]) {
    const handler = handlers[name] as (request: unknown, context: unknown) => Promise<unknown>
    app.route({
      method: def.method,
      url: toFastifyPath(def.path),
      handler: async (request, reply) => {
        const auth = def.auth
          ? await authenticateAccessToken(
              context.db,
              context.clock,
              readBearerToken(request.headers.authorization),
            )
          : {}
        const input = {
          ...(def.params && { params: parseInput(def.params, request.params) }),
          ...(def.query && { query: parseQuery(def.query, request.query ?? {}) }),
          ...(def.body && { body: parseRequestBody(name, def, request) }),
        }
        const result = await handler(input, { ...context, ...auth }).catch((error: unknown) => {
          // A backstop for a number the schemas let through: a 400, never PostgreSQL's 500.
          if (isNumberOutOfRange(error))
            throw new ApiError('validation_error', NUMBER_OUT_OF_RANGE_MESSAGE)
          throw error
        })
        if (checkResponses) {
          const checked = v.safeParse(def.response, result)
          if (!checked.success)
            throw new Error(
              `${name} response breaks its schema: ${checked.issues.map((i) => `${v.getDotPath(i) ?? ''} ${i.message}`).join('; ')}`,
            )
        }
        reply.code(def.status)
        if (typeof result === 'string') reply.type('text/plain; charset=utf-8')
        return result
      },
    })
  }
}
