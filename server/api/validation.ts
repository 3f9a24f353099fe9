import * as v from 'valibot'
import type { FieldError } from '../../domain/errors.ts'
import { findNonFiniteNumber, idParamSchema } from '../../domain/ids.ts'
import { ApiError } from './apiError.ts'

const OPTIONAL_TYPES = new Set(['optional', 'exact_optional', 'nullish', 'undefinedable'])

function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((item) => String(item.key)).join('.'),
    message: issue.message,
  }))
}

/** Validates params or a query: a failure is a 400 validation_error listing every issue. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  const errors = fieldErrors(result.issues)
  throw new ApiError('validation_error', errors[0]?.message ?? 'Invalid input', errors)
}

/** Keys an object schema cannot do without. */
export function requiredKeys(schema: v.GenericSchema): string[] {
  if (!('entries' in schema) || typeof schema.entries !== 'object' || schema.entries === null)
    return []
  return Object.entries(schema.entries as Record<string, { type: string }>)
    .filter(([, entry]) => !OPTIONAL_TYPES.has(entry.type))
    .map(([key]) => key)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Validates a request body. A missing body, or one without the schema's required keys, is a 400
 * body_keys_missing; a body that has them but breaks a rule is a 400 validation_error.
 */
export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  assertFiniteNumbers(body)
  assertStorableText(body)
  const required = requiredKeys(schema)
  const input = body === undefined || body === null ? undefined : body
  if (input === undefined && required.length === 0) return parseInput(schema, {})
  const missing =
    input === undefined
      ? required
      : isPlainObject(input)
        ? required.filter((key) => !(key in input))
        : []
  if (missing.length > 0)
    throw new ApiError(
      'body_keys_missing',
      `Missing body keys: ${missing.join(', ')}`,
      missing.map((key) => ({ path: key, message: `${key} is required` })),
    )
  return parseInput(schema, input)
}

/**
 * Refuses a body holding a number that is not finite (JSON 1e999 parses as Infinity, which would
 * pass a plain v.number() and be stored as null): 400 naming the field.
 */
export function assertFiniteNumbers(body: unknown): void {
  const path = findNonFiniteNumber(body)
  if (path === undefined) return
  const message = `${path === '' ? 'The body' : path} must be a finite number`
  throw new ApiError('validation_error', message, [{ path, message }])
}

/** The dotted path of the first string (or key) holding a NUL character, else undefined. */
function findNulCharacter(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined
  if (typeof value !== 'object' || value === null) return undefined
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const itemPath = path === '' ? String(key) : `${path}.${String(key)}`
    if (String(key).includes('\u0000')) return itemPath
    const found = findNulCharacter(item, itemPath)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Refuses text no database column can keep (PostgreSQL refuses the NUL character: it was a 500):
 * 400 naming the field. Bodies and queries pass through it.
 */
export function assertStorableText(input: unknown): void {
  const path = findNulCharacter(input)
  if (path === undefined) return
  const message = `${path === '' ? 'The text' : path} must not contain a NUL character`
  throw new ApiError('validation_error', message, [{ path, message }])
}

/**
 * An id of a path or query outside ROUTES (binary routes, uploads) with the same rule as
 * IdParamSchema: a whole number from 1 to ID_MAX, else 400 naming the parameter.
 */
export function parseIdParam(value: unknown, name: string): number {
  const parsed = parseInput(v.object({ [name]: idParamSchema(name) }), { [name]: value })
  return parsed[name] as number
}
