/**
 * Record ids as the API takes them (issue 13: a huge or fractional id was a 500 on PostgreSQL,
 * where id columns are 32-bit integers, and a 404 on SQLite). One rule for every path, query and
 * body: a whole number from 1 to ID_MAX. Anything else is a 400 naming the field; a well-formed id
 * that does not exist, or that the caller may not see, is the route's 404.
 */
import * as v from 'valibot'

/** Largest id stored: PostgreSQL's `integer` (2³¹ − 1), which the id columns use. */
export const ID_MAX = 2 ** 31 - 1

/** Largest 0-based index the API takes (material ids within a simulation). */
export const INDEX_MAX = ID_MAX

/** '{name} must be a whole number from 1 to 2147483647'. */
export function idMessage(name: string, min = 1): string {
  return `${name} must be a whole number from ${min} to ${ID_MAX}`
}

/** An id in a JSON body: a finite whole number from 1 to ID_MAX. */
export function idSchema(name: string, typeMessage = idMessage(name)) {
  const message = idMessage(name)
  return v.pipe(
    v.number(typeMessage),
    v.finite(message),
    v.integer(message),
    v.minValue(1, message),
    v.maxValue(ID_MAX, message),
  )
}

/** A 0-based index in a JSON body (a material of a simulation): 0 to INDEX_MAX. */
export function indexSchema(name: string) {
  const message = idMessage(name, 0)
  return v.pipe(
    v.number(message),
    v.finite(message),
    v.integer(message),
    v.minValue(0, message),
    v.maxValue(INDEX_MAX, message),
  )
}

/** An id in a path or a query (a string of digits): 1 to ID_MAX, as a number. */
export function idParamSchema(name: string, min = 1) {
  const message = idMessage(name, min)
  return v.pipe(
    v.string(message),
    v.regex(/^\d{1,10}$/, message),
    v.transform(Number),
    v.minValue(min, message),
    v.maxValue(ID_MAX, message),
  )
}

/** An id of a query that may also come as a number (a typed client): 1 to ID_MAX. */
export function idQuerySchema(name: string) {
  const message = idMessage(name)
  return v.pipe(
    v.union([v.string(message), v.number(message)], message),
    v.transform(String),
    v.regex(/^\d{1,10}$/, message),
    v.transform(Number),
    v.minValue(1, message),
    v.maxValue(ID_MAX, message),
  )
}

/** True for a value idSchema accepts. */
export function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= ID_MAX
}

/**
 * The dotted path of the first number in a parsed JSON value that is not finite (JSON's 1e999
 * parses as Infinity), or undefined when every number is finite. The root itself is ''.
 */
export function findNonFiniteNumber(value: unknown, path = ''): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path
  if (typeof value !== 'object' || value === null) return undefined
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value)
  for (const [key, item] of entries) {
    const found = findNonFiniteNumber(item, path === '' ? String(key) : `${path}.${String(key)}`)
    if (found !== undefined) return found
  }
  return undefined
}
