/**
 * The API fuzzer of issue 13: every route of domain/rest.ts ROUTES (read from the table, never
 * listed by hand) is called with its params, query and body fuzzed: wrong types, non-finite and
 * out-of-range numbers, oversized strings, huge, fractional and foreign-organization ids. A body
 * starts as a plausible value built from the route's own valibot schema, and one or more of its
 * leaves are then replaced by hostile values, so the requests reach past the first check. It counts
 * what happened; the caller asserts that nothing answered 5xx and nothing hung.
 */
import { ID_MAX } from '../../domain/ids.ts'
import { API_PREFIX, ROUTES, routePath, type RouteDef } from '../../domain/rest.ts'
import { createRandom } from '../../domain/random.ts'

/** What a run saw. */
export interface FuzzCounts {
  tried: number
  /** 2xx and 3xx: the hostile part was harmless or ignored. */
  accepted: number
  /** 4xx with the product's error body. */
  refusedCleanly: number
  /** 4xx without the product's error body. */
  refusedWithoutBody: number
  serverErrors: number
  /** No answer within the time limit, or the connection dropped. */
  lost: number
}

/** One request that answered 5xx, a 4xx without the error body, or was lost. */
export interface FuzzFailure {
  route: string
  method: string
  url: string
  body: string | undefined
  status: number | 'lost'
  reply: string
}

export interface FuzzTarget {
  baseUrl: string
  /** A manager of the organization whose ids are "own". */
  token: string
  /** Ids that exist and the token may see, by kind. */
  own: { project: number; simulation: number; part: number }
  /** Ids of another organization. */
  foreign: { project: number; simulation: number; part: number }
}

export interface FuzzOptions {
  /** Fuzzed requests per route. */
  perRoute: number
  seed: number
  /** A request without an answer after this is lost. */
  timeoutMs: number
  /** Requests in flight at once. */
  concurrency: number
}

/** Written into a body where JSON.stringify cannot: replaced by 1e999 / -1e999 on the wire. */
const POSITIVE_INFINITY = '__fuzz_inf__'
const NEGATIVE_INFINITY = '__fuzz_minus_inf__'

type Random = () => number
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T

// Valibot schemas are read structurally: the fuzzer follows `type`, `entries`, `wrapped`, …
interface SchemaLike {
  type: string
  entries?: Record<string, SchemaLike>
  wrapped?: SchemaLike
  item?: SchemaLike
  items?: SchemaLike[]
  options?: unknown[]
  literal?: unknown
  key?: SchemaLike
  value?: SchemaLike
  getter?: (input: unknown) => SchemaLike
  pipe?: { type: string; requirement?: unknown }[]
}

function minimumOf(schema: SchemaLike): number | undefined {
  const action = schema.pipe?.find((a) => a.type === 'min_value' || a.type === 'gt_value')
  return typeof action?.requirement === 'number' ? action.requirement : undefined
}

/** A plausible value of the schema (the start that mutations then spoil). */
export function sampleValue(schema: SchemaLike, random: Random, depth = 0): unknown {
  if (depth > 8) return null
  switch (schema.type) {
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      const out: Record<string, unknown> = {}
      for (const [key, entry] of Object.entries(schema.entries ?? {})) {
        const optional = ['optional', 'exact_optional', 'nullish', 'undefinedable'].includes(
          entry.type,
        )
        if (optional && random() < 0.5) continue
        out[key] = sampleValue(entry, random, depth + 1)
      }
      return out
    }
    case 'optional':
    case 'exact_optional':
    case 'nullish':
    case 'undefinedable':
    case 'nullable':
    case 'non_nullable':
    case 'non_optional':
      return schema.wrapped ? sampleValue(schema.wrapped, random, depth + 1) : null
    case 'array':
      return schema.item ? [sampleValue(schema.item, random, depth + 1)] : []
    case 'tuple':
    case 'strict_tuple':
    case 'loose_tuple':
      return (schema.items ?? []).map((item) => sampleValue(item, random, depth + 1))
    case 'union':
    case 'variant': {
      const options = (schema.options ?? []) as SchemaLike[]
      return options.length > 0 ? sampleValue(pick(random, options), random, depth + 1) : null
    }
    case 'picklist':
    case 'enum':
      return schema.options && schema.options.length > 0 ? pick(random, schema.options) : 'x'
    case 'literal':
      return schema.literal
    case 'record':
      return { fuzz: schema.value ? sampleValue(schema.value, random, depth + 1) : 1 }
    case 'lazy':
      return schema.getter ? sampleValue(schema.getter(undefined), random, depth + 1) : null
    case 'number':
      return minimumOf(schema) ?? 1
    case 'string':
      return 'fuzz'
    case 'boolean':
      return random() < 0.5
    case 'null':
      return null
    default:
      return null
  }
}

/** Hostile stand-ins for one value. */
function hostileValue(random: Random, target: FuzzTarget, key: string): unknown {
  const idLike = /(^id$|Id$|Ids$|^ids$)/.test(key)
  const choices: (() => unknown)[] = [
    () => POSITIVE_INFINITY,
    () => NEGATIVE_INFINITY,
    () => 1e308,
    () => -1e308,
    () => ID_MAX + 1,
    () => 2 ** 53 + 1,
    () => 1.5,
    () => -1,
    () => 0,
    () => 'x'.repeat(pick(random, [300, 5_000, 200_000])),
    () => '',
    () => '\u0000\u202e<script>',
    () => null,
    () => true,
    () => [],
    () => Array.from({ length: 2_000 }, () => 1),
    () => ({}),
    () => ({ nested: { deeper: [1, { x: 'y' }] } }),
    () => '12abc',
  ]
  if (idLike)
    choices.push(
      () => target.foreign.project,
      () => target.foreign.simulation,
      () => target.foreign.part,
      () => ID_MAX,
    )
  return pick(random, choices)()
}

/** Replaces one random leaf (or the whole value) with a hostile value. */
function mutate(value: unknown, random: Random, target: FuzzTarget, key = ''): unknown {
  if (random() < 0.25) return hostileValue(random, target, key)
  if (Array.isArray(value)) {
    if (value.length === 0) return [hostileValue(random, target, key)]
    const copy = [...value]
    const index = Math.floor(random() * copy.length)
    copy[index] = mutate(copy[index], random, target, key)
    return copy
  }
  if (typeof value === 'object' && value !== null) {
    const copy = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    if (keys.length === 0 || random() < 0.1) {
      copy[pick(random, ['unknownKey', '__proto__x', 'constructor'])] = 1
      return copy
    }
    const chosen = pick(random, keys)
    copy[chosen] = mutate(copy[chosen], random, target, chosen)
    return copy
  }
  return hostileValue(random, target, key)
}

/** Writes the body, with the infinity markers as 1e999 (what JSON.stringify cannot write). */
export function serializeBody(body: unknown): string {
  return JSON.stringify(body)
    .replaceAll(`"${POSITIVE_INFINITY}"`, '1e999')
    .replaceAll(`"${NEGATIVE_INFINITY}"`, '-1e999')
}

const HOSTILE_PARAMS = [
  String(ID_MAX + 1),
  '99999999999999999999',
  '1.5',
  '1e308',
  '-1',
  '0',
  'abc',
  'x'.repeat(3_000),
  '%00',
  '%2e%2e',
]

/** Routes whose success starts work in threads (a solver run, a discretization …). */
function startsWork(def: RouteDef): boolean {
  return (
    def.method === 'POST' &&
    /\/(jobs|discretizations|recomputation|user_exports|assemblies\/\{id\})$/.test(def.path)
  )
}

function paramValue(
  random: Random,
  target: FuzzTarget,
  def: RouteDef,
  name: string,
): string | number {
  // Destructive and heavy calls get ids that exist nowhere: their bodies are still validated.
  if (def.method === 'DELETE' || startsWork(def) || def.path.endsWith('/move'))
    return random() < 0.6 ? ID_MAX : pick(random, HOSTILE_PARAMS)
  const roll = random()
  if (roll < 0.45) {
    if (name === 'materialId') return 0
    if (def.path.startsWith('/parts/')) return target.own.part
    if (def.path.startsWith('/projects/')) return target.own.project
    return target.own.simulation
  }
  if (roll < 0.6)
    return def.path.startsWith('/parts/') ? target.foreign.part : target.foreign.simulation
  return pick(random, HOSTILE_PARAMS)
}

function fuzzQuery(random: Random, target: FuzzTarget, def: RouteDef): string {
  const schema = def.query as unknown as SchemaLike | undefined
  const keys = Object.keys(schema?.entries ?? {})
  if (keys.length === 0) return random() < 0.2 ? '?unknown=1' : ''
  const params = new URLSearchParams()
  for (const key of keys) {
    if (random() < 0.5) continue
    const value = hostileValue(random, target, key)
    params.append(
      key,
      value === POSITIVE_INFINITY
        ? 'Infinity'
        : typeof value === 'string'
          ? value
          : JSON.stringify(value),
    )
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/** The requests of one route: method, URL, body text. */
export function buildRequests(
  name: string,
  def: RouteDef,
  target: FuzzTarget,
  random: Random,
  count: number,
): { url: string; body: string | undefined }[] {
  const requests: { url: string; body: string | undefined }[] = []
  const paramNames = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string)
  for (let i = 0; i < count; i++) {
    const params: Record<string, string | number> = {}
    for (const param of paramNames) params[param] = paramValue(random, target, def, param)
    const path = routePath(def.path, params)
    const url = `${API_PREFIX}${path}${def.query ? fuzzQuery(random, target, def) : ''}`
    let body: string | undefined
    if (def.body) {
      const sample = sampleValue(def.body, random)
      let mutated = sample
      const mutations = 1 + Math.floor(random() * 3)
      for (let m = 0; m < mutations; m++) mutated = mutate(mutated, random, target)
      body = serializeBody(mutated)
    } else if (def.method !== 'GET' && random() < 0.3) {
      body = serializeBody(mutate({}, random, target))
    }
    requests.push({ url, body })
  }
  void name
  return requests
}

/** Sends every route's fuzzed requests and counts the answers. */
export async function fuzzRoutes(
  target: FuzzTarget,
  options: FuzzOptions,
): Promise<{ counts: FuzzCounts; failures: FuzzFailure[] }> {
  const random = createRandom(options.seed)
  const counts: FuzzCounts = {
    tried: 0,
    accepted: 0,
    refusedCleanly: 0,
    refusedWithoutBody: 0,
    serverErrors: 0,
    lost: 0,
  }
  const failures: FuzzFailure[] = []
  const queue: { route: string; method: string; url: string; body: string | undefined }[] = []
  for (const [name, def] of Object.entries(ROUTES) as [string, RouteDef][]) {
    // Logging out would end the session the fuzzer runs in; its body is fuzzed on refresh.
    if (name === 'logout') continue
    for (const request of buildRequests(name, def, target, random, options.perRoute))
      queue.push({ route: name, method: def.method, ...request })
  }

  const send = async (item: (typeof queue)[number]) => {
    counts.tried++
    const headers: Record<string, string> = { authorization: `Bearer ${target.token}` }
    if (item.body !== undefined) headers['content-type'] = 'application/json'
    try {
      const response = await fetch(`${target.baseUrl}${item.url}`, {
        method: item.method,
        headers,
        body: item.body,
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      const text = await response.text()
      if (response.status >= 500) {
        counts.serverErrors++
        failures.push({ ...item, status: response.status, reply: text.slice(0, 300) })
      } else if (response.status >= 400) {
        let clean = false
        try {
          const parsed = JSON.parse(text) as { code?: unknown; description?: unknown }
          clean = typeof parsed.code === 'string' && typeof parsed.description === 'string'
        } catch {
          clean = false
        }
        if (clean) counts.refusedCleanly++
        else {
          counts.refusedWithoutBody++
          failures.push({ ...item, status: response.status, reply: text.slice(0, 300) })
        }
      } else counts.accepted++
    } catch (error) {
      counts.lost++
      failures.push({ ...item, status: 'lost', reply: String(error).slice(0, 300) })
    }
  }

  let next = 0
  const workers = Array.from({ length: options.concurrency }, async () => {
    while (next < queue.length) {
      const item = queue[next++]
      if (item) await send(item)
    }
  })
  await Promise.all(workers)
  return { counts, failures }
}

/** One line of counts, as the report prints them. */
export function formatCounts(label: string, counts: FuzzCounts): string {
  return (
    `${label}: tried ${counts.tried}, accepted ${counts.accepted}, refused cleanly (4xx) ` +
    `${counts.refusedCleanly}, 4xx without error body ${counts.refusedWithoutBody}, ` +
    `5xx ${counts.serverErrors}, lost/hung ${counts.lost}`
  )
}
