import * as v from 'valibot'
import { TokenResponseSchema } from '../../domain/auth.ts'
import { ApiErrorBodySchema, forcesLogin, type ApiErrorBody } from '../../domain/errors.ts'
import {
  API_PREFIX,
  ROUTES,
  routePath,
  type RouteDef,
  type RouteInput,
  type RouteName,
  type RouteResponse,
} from '../../domain/rest.ts'
import {
  ApiError,
  NETWORK_ERROR_MESSAGE,
  NETWORK_ERROR_STATUS,
  UNEXPECTED_RESPONSE_MESSAGE,
} from './ApiError.ts'
import { tokensFromResponse, type TokenStore } from './tokens.ts'

export interface ApiClientOptions {
  fetch: typeof fetch
  tokens: TokenStore
  /** Prefix of every path; API_PREFIX unless a test says otherwise. */
  baseUrl?: string
  /** The session is gone for good (refresh refused): the app shows the login page. */
  onLoginRequired?: () => void
  nowMs?: () => number
  /**
   * Runs a refresh alone among this browser's tabs (navigator.locks in the app). Each refresh
   * rotates the refresh token, and the server revokes a login whose old refresh token comes back,
   * so two tabs must never refresh with the same one.
   */
  refreshLock?: <T>(run: () => Promise<T>) => Promise<T>
  /**
   * Refresh this long before the access token expires (less a random part of up to a quarter, so
   * tabs do not all start at once). The websockets end with their token, so a page that only
   * listens would otherwise lose them every token lifetime. Off when unset.
   */
  refreshAheadMs?: number
}

export interface CallOptions {
  signal?: AbortSignal
  /** false: a lost session only throws, it does not send the person to the login page. */
  redirectOnAuthFailure?: boolean
}

/** A request outside ROUTES (binary download, multipart upload), with the same auth handling. */
export interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path under the API prefix, e.g. `/simulations/4/download`. */
  path: string
  body?: BodyInit
  expectedStatus: number
  signal?: AbortSignal
}

type QueryValue = string | number | boolean | null | undefined
type QueryInput = Record<string, QueryValue | readonly QueryValue[]>

/** Callers may leave the input out where a route has no params and no required body. */
type InputArgs<N extends RouteName> =
  object extends RouteInput<N>
    ? [input?: RouteInput<N>, options?: CallOptions]
    : [input: RouteInput<N>, options?: CallOptions]

export interface ApiClient {
  callApi: <N extends RouteName>(name: N, ...args: InputArgs<N>) => Promise<RouteResponse<N>>
  requestRaw: (request: RawRequest) => Promise<Response>
  /** Logs in and stores the tokens. */
  login: (email: string, password: string, code?: string) => Promise<void>
  /** Revokes the session on the server (best effort) and forgets the tokens. */
  logout: () => Promise<void>
}

/** `?a=1&list=2&list=3`: lists repeat their key, empty values are left out. */
export function buildQueryString(query: QueryInput | undefined): string {
  if (!query) return ''
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value]
    for (const item of values as QueryValue[]) {
      if (item === undefined || item === null || item === '') continue
      search.append(key, String(item))
    }
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}

async function readErrorBody(response: Response): Promise<ApiErrorBody | undefined> {
  try {
    const parsed = v.safeParse(ApiErrorBodySchema, await response.json())
    return parsed.success ? parsed.output : undefined
  } catch {
    return undefined
  }
}

async function readBody(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? ''
  if (type.includes('json')) return response.json()
  const text = await response.text()
  if (type === '' && text !== '') {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

/**
 * The typed client over domain/rest.ts ROUTES. On a 401 it refreshes the tokens once (one refresh
 * in flight for all callers) and retries; a refused refresh clears the tokens and asks for login.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { tokens } = options
  const baseUrl = options.baseUrl ?? API_PREFIX
  const nowMs = options.nowMs ?? (() => Date.now())
  let refreshInFlight: Promise<boolean> | null = null
  let logoutInFlight: Promise<void> | null = null

  function requireLogin(redirect: boolean): void {
    tokens.clear()
    if (redirect) options.onLoginRequired?.()
  }

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await options.fetch(url, init)
    } catch (error) {
      if (init.signal?.aborted) throw error
      throw new ApiError(NETWORK_ERROR_STATUS, undefined, {
        message: NETWORK_ERROR_MESSAGE,
        cause: error,
      })
    }
  }

  async function refreshOnce(redirect: boolean, seenRefreshToken: string | undefined) {
    const current = tokens.read()
    if (!current) {
      requireLogin(redirect)
      return false
    }
    // Another tab refreshed while this one waited for the lock: its tokens are the new ones.
    if (seenRefreshToken !== undefined && current.refreshToken !== seenRefreshToken) return true
    const response = await send(`${baseUrl}${ROUTES.refresh.path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ refreshToken: current.refreshToken }),
    }).catch(() => null)
    if (!response) return false
    if (response.status === ROUTES.refresh.status) {
      const parsed = v.safeParse(TokenResponseSchema, await readBody(response).catch(() => null))
      if (!parsed.success) return false
      tokens.write(tokensFromResponse(parsed.output, nowMs()))
      return true
    }
    const body = await readErrorBody(response)
    if (forcesLogin(body) || response.status === 401) requireLogin(redirect)
    return false
  }

  /** Single flight: concurrent 401s share one refresh, since each refresh rotates the token. */
  function refreshTokens(redirect: boolean): Promise<boolean> {
    const seen = tokens.read()?.refreshToken
    const run = () => refreshOnce(redirect, seen)
    refreshInFlight ??= (options.refreshLock ? options.refreshLock(run) : run()).finally(() => {
      refreshInFlight = null
    })
    return refreshInFlight
  }

  let aheadTimer: ReturnType<typeof setTimeout> | undefined
  /** (Re)arms the refresh ahead of expiry after every change of the tokens, other tabs' too. */
  function scheduleRefreshAhead(aheadMs: number): void {
    clearTimeout(aheadTimer)
    const current = tokens.read()
    if (!current) return
    const spread = Math.random() * (aheadMs / 4)
    const delay = Math.max(0, current.expiresAtMs - aheadMs + spread - nowMs())
    aheadTimer = setTimeout(() => void refreshTokens(false), delay)
  }
  const aheadMs = options.refreshAheadMs
  if (aheadMs !== undefined) {
    tokens.subscribe(() => scheduleRefreshAhead(aheadMs))
    scheduleRefreshAhead(aheadMs)
  }

  async function authorizedFetch(
    url: string,
    init: RequestInit,
    needsAuth: boolean,
    redirect: boolean,
  ): Promise<Response> {
    const withToken = (accessToken: string | undefined): RequestInit => {
      const headers = new Headers(init.headers)
      if (needsAuth && accessToken) headers.set('Authorization', `Bearer ${accessToken}`)
      return { ...init, headers }
    }
    const used = tokens.read()
    if (needsAuth && !used) {
      requireLogin(redirect)
      throw new ApiError(401, undefined, { message: 'You are not logged in.' })
    }
    const response = await send(url, withToken(used?.accessToken))
    if (response.status !== 401 || !needsAuth) return response
    // Another call may have refreshed meanwhile: then just retry with the newer token.
    const latest = tokens.read()
    if (latest && latest.accessToken !== used?.accessToken)
      return send(url, withToken(latest.accessToken))
    if (!(await refreshTokens(redirect))) return response
    return send(url, withToken(tokens.read()?.accessToken))
  }

  async function failure(response: Response, redirect: boolean): Promise<ApiError> {
    if (response.status < 400) return new ApiError(response.status, undefined)
    const body = await readErrorBody(response)
    if (forcesLogin(body)) requireLogin(redirect)
    return new ApiError(response.status, body)
  }

  async function callApi<N extends RouteName>(
    name: N,
    ...[input, callOptions = {}]: InputArgs<N>
  ): Promise<RouteResponse<N>> {
    const def: RouteDef = ROUTES[name]
    const { params, query, body } = (input ?? {}) as {
      params?: Record<string, string | number>
      query?: QueryInput
      body?: unknown
    }
    const redirect = callOptions.redirectOnAuthFailure ?? true
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const url = `${baseUrl}${routePath(def.path, params)}${buildQueryString(query)}`
    const response = await authorizedFetch(
      url,
      {
        method: def.method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: callOptions.signal,
      },
      def.auth,
      redirect,
    )
    if (response.status !== def.status) throw await failure(response, redirect)
    const data = await readBody(response).catch((error: unknown) => {
      throw new ApiError(response.status, undefined, {
        message: UNEXPECTED_RESPONSE_MESSAGE,
        cause: error,
      })
    })
    const parsed = v.safeParse(def.response, data)
    if (!parsed.success)
      throw new ApiError(response.status, undefined, {
        message: UNEXPECTED_RESPONSE_MESSAGE,
        cause: parsed.issues,
      })
    return parsed.output as RouteResponse<N>
  }

  async function requestRaw(request: RawRequest): Promise<Response> {
    const response = await authorizedFetch(
      `${baseUrl}${request.path}`,
      { method: request.method, body: request.body, signal: request.signal },
      true,
      true,
    )
    if (response.status !== request.expectedStatus) throw await failure(response, true)
    return response
  }

  async function login(email: string, password: string, code?: string): Promise<void> {
    const reply = await callApi('login', {
      body: { email, password, ...(code !== undefined && { code }) },
    })
    tokens.write(tokensFromResponse(reply, nowMs()))
  }

  async function revokeAndForget(): Promise<void> {
    const current = tokens.read()
    if (!current) return
    try {
      await callApi(
        'logout',
        { body: { refreshToken: current.refreshToken } },
        { redirectOnAuthFailure: false },
      )
    } catch {
      // Revoking is best effort: the tokens are forgotten here either way.
    } finally {
      tokens.clear()
    }
  }

  /** One logout at a time: a second call (a re-run effect, another button) joins the first. */
  function logout(): Promise<void> {
    logoutInFlight ??= revokeAndForget().finally(() => {
      logoutInFlight = null
    })
    return logoutInFlight
  }

  return { callApi, requestRaw, login, logout }
}
