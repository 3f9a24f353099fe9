import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { ApiErrorBodySchema, ERROR_CODES } from '../../domain/errors.ts'
import { BINARY_OPERATIONS } from './binaryOperations.ts'
import { API_PREFIX, ROUTES, type RouteDef } from '../../domain/rest.ts'

/*
 * The OpenAPI 3.1 document, generated from ROUTES so it cannot drift from what the server
 * validates. Transforms (ids from strings, query lists) cannot be expressed in JSON Schema: the
 * document describes the input as sent, and errorMode 'ignore' skips the transform step.
 */

function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode,
  })
  return rest
}

function parametersOf(schema: v.GenericSchema | undefined, location: 'path' | 'query') {
  if (!schema) return []
  const object = jsonSchema(schema, 'input')
  const required = new Set(object.required ?? [])
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }))
}

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' }

function errorStatusesOf(def: RouteDef): number[] {
  const statuses = new Set([500])
  if (def.params || def.query || def.body) statuses.add(400)
  if (def.auth) statuses.add(401)
  if (def.params) statuses.add(404)
  if (def.body) statuses.add(413)
  if (def.method !== 'GET' && def.params) statuses.add(409)
  if (def.path === '/mgmt/users') statuses.add(403)
  if (def.path.startsWith('/auth/')) statuses.add(401)
  return [...statuses].sort()
}

function operationOf(name: string, def: RouteDef) {
  const textResponse = def.path === '/version'
  const responses: Record<string, unknown> = {
    [def.status]: {
      description: def.summary,
      content: {
        [textResponse ? 'text/plain' : 'application/json']: {
          schema: jsonSchema(def.response, 'output'),
        },
      },
    },
  }
  for (const status of errorStatusesOf(def)) responses[status] = ERROR_RESPONSE
  return {
    operationId: name,
    summary: def.summary,
    security: def.auth ? [{ bearerAuth: [] }] : [],
    parameters: [...parametersOf(def.params, 'path'), ...parametersOf(def.query, 'query')],
    ...(def.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchema(def.body, 'input') } },
      },
    }),
    responses,
  }
}

/** The whole document; paths keep ROUTES' `{param}` syntax, which is OpenAPI's own. */
export function buildOpenApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [name, def] of Object.entries(ROUTES) as [string, RouteDef][]) {
    const path = `${API_PREFIX}${def.path}`
    paths[path] = { ...paths[path], [def.method.toLowerCase()]: operationOf(name, def) }
  }
  for (const [path, operations] of Object.entries(BINARY_OPERATIONS))
    paths[path] = { ...paths[path], ...operations }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Dive API',
      version,
      description:
        'REST API of Dive. Errors share the ApiErrorBody shape; codes: ' +
        Object.keys(ERROR_CODES).join(', '),
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access token from /api/auth/login',
        },
      },
      schemas: { ApiErrorBody: jsonSchema(ApiErrorBodySchema, 'output') },
      responses: {
        Error: {
          description: 'An error (see code)',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ApiErrorBody' } },
          },
        },
      },
    },
  }
}
