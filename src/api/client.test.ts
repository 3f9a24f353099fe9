import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApiErrorBody } from '../../domain/errors.ts'
import { ApiError, UNEXPECTED_RESPONSE_MESSAGE } from './ApiError.ts'
import { buildQueryString, createApiClient, type ApiClientOptions } from './client.ts'
import { AUTH_STORAGE_KEY, createTokenStore, type TokenStore } from './tokens.ts'

interface Recorded {
  url: string
  method: string
  headers: Headers
  body: string | undefined
}

type Handler = (request: Recorded) => Response | Promise<Response>

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

function errorBody(code: ApiErrorBody['code'], title: string, description: string): ApiErrorBody {
  return { code, title, description }
}

const USER = {
  id: 2,
  firstName: 'Mia',
  lastName: 'Manager',
  fullName: 'Mia Manager',
  email: 'manager@dive.example',
  phoneNumber: null,
  department: null,
  location: null,
  avatarId: 0,
  role: 'manager',
  active: true,
  organization: { id: 1, name: 'Demo Organization' },
  activeAccessGrantId: null,
  permissions: ['PROJECTS_VIEW_ALL'],
  createdAt: '2026-01-01T00:00:00.000Z',
}

function setup(handler: Handler, extra: Partial<ApiClientOptions> = {}) {
  const requests: Recorded[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request: Recorded = {
      url: input instanceof Request ? input.url : input.toString(),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    }
    requests.push(request)
    return handler(request)
  })
  const tokens: TokenStore = createTokenStore(window.localStorage)
  const onLoginRequired = vi.fn()
  const client = createApiClient({
    fetch: fetchMock,
    tokens,
    onLoginRequired,
    nowMs: () => 1_000,
    ...extra,
  })
  return { client, tokens, requests, onLoginRequired }
}

function storeTokens(tokens: TokenStore, accessToken = 'access-1', refreshToken = 'refresh-1') {
  tokens.write({ accessToken, refreshToken, expiresAtMs: 10_000 })
}

beforeEach(() => {
  window.localStorage.clear()
})

describe('buildQueryString', () => {
  it('repeats list parameters and leaves out empty values', () => {
    expect(buildQueryString({ q: 'dam', createdBy: [2, 3], search: '', none: undefined })).toBe(
      '?q=dam&createdBy=2&createdBy=3',
    )
  })

  it('is empty when nothing is left', () => {
    expect(buildQueryString({ projectIds: [] })).toBe('')
  })
})

describe('callApi', () => {
  it('fills path params, sends the bearer token and a JSON body, and parses the reply', async () => {
    const { client, tokens, requests } = setup(() =>
      json(201, {
        id: 9,
        name: 'Wave tank',
        description: '',
        simulations: [],
        size: 0,
        creator: { id: 2, fullName: 'Mia Manager', avatarId: 0 },
        createdAt: 'x',
        updatedAt: 'x',
      }),
    )
    storeTokens(tokens)
    const project = await client.callApi('createProject', { body: { name: 'Wave tank' } })
    expect(project.name).toBe('Wave tank')
    expect(requests[0]?.url).toBe('/api/projects')
    expect(requests[0]?.method).toBe('POST')
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer access-1')
    expect(requests[0]?.headers.get('Content-Type')).toBe('application/json')
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({ name: 'Wave tank' })
  })

  it('puts list filters into the query string as repeated keys', async () => {
    const { client, tokens, requests } = setup(() =>
      json(200, { results: [], resultCount: 0, pageCount: 0 }),
    )
    storeTokens(tokens)
    await client.callApi('listProjects', {
      query: { q: 'dam break', pageLimit: 15, createdBy: [2, 5], projectIds: [] },
    })
    expect(requests[0]?.url).toBe('/api/projects?q=dam+break&pageLimit=15&createdBy=2&createdBy=5')
  })

  it('sends no body and no content type for a call without one', async () => {
    const { client, tokens, requests } = setup(() => json(201, {}))
    storeTokens(tokens)
    await client.callApi('cloneSimulation', { params: { id: '4' } }).catch(() => undefined)
    expect(requests[0]?.url).toBe('/api/simulations/4')
    expect(requests[0]?.body).toBeUndefined()
    expect(requests[0]?.headers.has('Content-Type')).toBe(false)
  })

  it('rejects a success status other than the expected one as an unexpected status', async () => {
    const { client, tokens } = setup(() => json(200, { id: 1 }))
    storeTokens(tokens)
    const error = await client
      .callApi('deleteSimulation', { params: { id: '1' } })
      .then(() => null)
      .catch((e: unknown) => e)
    expect(error).toBeNull()
    const wrong = await client
      .callApi('cloneSimulation', { params: { id: '1' } })
      .catch((e: unknown) => e)
    expect(wrong).toBeInstanceOf(ApiError)
    expect((wrong as ApiError).message).toBe('The API returned an unexpected status code')
    expect((wrong as ApiError).status).toBe(200)
  })

  it('turns an error reply into an ApiError with status, class, title and body', async () => {
    const { client, tokens } = setup(() =>
      json(404, errorBody('resource_not_found', 'Resource not found', 'Simulation not found')),
    )
    storeTokens(tokens)
    const error = (await client
      .callApi('getSimulation', { params: { id: '7' } })
      .catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(404)
    expect(error.errorClass).toBe('not_found')
    expect(error.title).toBe('Resource not found')
    expect(error.message).toBe('Simulation not found')
    expect(error.body?.code).toBe('resource_not_found')
  })

  it('shows the title of a 5xx and the first field message of a validation error', async () => {
    let reply = json(500, errorBody('database_error', 'Database error', 'SQLITE_BUSY'))
    const { client, tokens } = setup(() => reply)
    storeTokens(tokens)
    const serverError = (await client.callApi('currentUser').catch((e: unknown) => e)) as ApiError
    expect(serverError.message).toBe('Database error')
    expect(serverError.errorClass).toBe('internal')

    reply = json(400, {
      ...errorBody('validation_error', 'Validation error', 'Project name is required'),
      errors: [{ path: 'name', message: 'Project name is required' }],
    })
    const invalid = (await client
      .callApi('createProject', { body: { name: '' } })
      .catch((e: unknown) => e)) as ApiError
    expect(invalid.message).toBe('Project name is required')
    expect(invalid.errorClass).toBe('generic')
  })

  it('uses the unexpected-status message when an error reply has no error body', async () => {
    const { client, tokens } = setup(() => new Response('Bad gateway', { status: 502 }))
    storeTokens(tokens)
    const error = (await client.callApi('currentUser').catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(502)
    expect(error.errorClass).toBe('bad_gateway')
    expect(error.message).toBe('The API returned an unexpected status code')
  })

  it('refuses a reply that breaks the response schema', async () => {
    const { client, tokens } = setup(() => json(200, { id: 'not a user' }))
    storeTokens(tokens)
    const error = (await client.callApi('currentUser').catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe(UNEXPECTED_RESPONSE_MESSAGE)
  })

  it('reports a failed fetch as a network error with status 0', async () => {
    const { client, tokens } = setup(() => {
      throw new TypeError('Failed to fetch')
    })
    storeTokens(tokens)
    const error = (await client.callApi('currentUser').catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(0)
  })
})

describe('token refresh', () => {
  it('refreshes once for concurrent 401s and retries every call with the new token', async () => {
    let refreshCalls = 0
    const { client, tokens, requests } = setup(async (request) => {
      if (request.url === '/api/auth/refresh') {
        refreshCalls++
        await new Promise((resolve) => setTimeout(resolve, 5))
        return json(200, { accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 900 })
      }
      if (request.headers.get('Authorization') === 'Bearer access-2') return json(200, USER)
      return json(401, errorBody('unauthorized', 'Unauthorized', 'Token expired'))
    })
    storeTokens(tokens)
    const users = await Promise.all([
      client.callApi('currentUser'),
      client.callApi('currentUser'),
      client.callApi('currentUser'),
    ])
    expect(users.map((user) => user.fullName)).toEqual([
      'Mia Manager',
      'Mia Manager',
      'Mia Manager',
    ])
    expect(refreshCalls).toBe(1)
    const refresh = requests.find((r) => r.url === '/api/auth/refresh')
    expect(JSON.parse(refresh?.body ?? '')).toEqual({ refreshToken: 'refresh-1' })
    expect(tokens.read()).toEqual({
      accessToken: 'access-2',
      refreshToken: 'refresh-2',
      expiresAtMs: 1_000 + 900_000,
    })
  })

  it('retries with a token another call already refreshed instead of refreshing again', async () => {
    let refreshCalls = 0
    const { client, tokens } = setup((request) => {
      if (request.url === '/api/auth/refresh') {
        refreshCalls++
        return json(200, { accessToken: 'access-3', refreshToken: 'refresh-3', expiresIn: 900 })
      }
      if (request.headers.get('Authorization') === 'Bearer access-1') {
        // Meanwhile another tab rotated the tokens.
        storeTokens(tokens, 'access-2', 'refresh-2')
        return json(401, errorBody('unauthorized', 'Unauthorized', 'Token expired'))
      }
      return json(200, USER)
    })
    storeTokens(tokens)
    await client.callApi('currentUser')
    expect(refreshCalls).toBe(0)
  })

  it.each(['invalid_grant', 'missing_refresh_token'] as const)(
    'clears the tokens and asks for login when the refresh is refused with %s',
    async (code) => {
      const { client, tokens, onLoginRequired } = setup((request) => {
        if (request.url === '/api/auth/refresh') return json(401, errorBody(code, 'No', 'No'))
        return json(401, errorBody('unauthorized', 'Unauthorized', 'Token expired'))
      })
      storeTokens(tokens)
      const error = (await client.callApi('currentUser').catch((e: unknown) => e)) as ApiError
      expect(error.status).toBe(401)
      expect(error.errorClass).toBe('auth')
      expect(tokens.read()).toBeNull()
      expect(window.localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull()
      expect(onLoginRequired).toHaveBeenCalledTimes(1)
    },
  )

  it('keeps the tokens when the refresh fails for another reason', async () => {
    const { client, tokens, onLoginRequired } = setup((request) => {
      if (request.url === '/api/auth/refresh')
        return json(503, errorBody('unknown_error', 'Unavailable', 'Down'))
      return json(401, errorBody('unauthorized', 'Unauthorized', 'Token expired'))
    })
    storeTokens(tokens)
    await expect(client.callApi('currentUser')).rejects.toBeInstanceOf(ApiError)
    expect(tokens.read()?.refreshToken).toBe('refresh-1')
    expect(onLoginRequired).not.toHaveBeenCalled()
  })

  it('does not refresh for calls that need no token', async () => {
    const { client, requests } = setup(() =>
      json(
        401,
        errorBody('authentication_failed', 'Authentication Failed', 'Wrong e-mail or password.'),
      ),
    )
    const error = (await client
      .callApi('login', { body: { email: 'a@b.example', password: 'x' } })
      .catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('Wrong e-mail or password.')
    expect(requests).toHaveLength(1)
  })
})

describe('token refresh across tabs and ahead of expiry', () => {
  it('uses the tokens another tab refreshed while this one waited for the refresh lock', async () => {
    let refreshCalls = 0
    const otherTab = createTokenStore(window.localStorage)
    const { client, tokens } = setup(
      (request) => {
        if (request.url === '/api/auth/refresh') {
          refreshCalls++
          return json(200, { accessToken: 'access-3', refreshToken: 'refresh-3', expiresIn: 900 })
        }
        if (request.headers.get('Authorization') === 'Bearer access-9') return json(200, USER)
        return json(401, errorBody('unauthorized', 'Unauthorized', 'Token expired'))
      },
      {
        // The other tab holds the lock and rotates the tokens first.
        refreshLock: (run) => {
          otherTab.write({ accessToken: 'access-9', refreshToken: 'refresh-9', expiresAtMs: 9e9 })
          return run()
        },
      },
    )
    storeTokens(tokens)
    expect((await client.callApi('currentUser')).fullName).toBe('Mia Manager')
    expect(refreshCalls).toBe(0)
    expect(tokens.read()?.refreshToken).toBe('refresh-9')
  })

  it('refreshes a minute before the access token expires, and again before the new one does', async () => {
    vi.useFakeTimers({ now: 0 })
    vi.spyOn(Math, 'random').mockReturnValue(0)
    try {
      const sent: string[] = []
      const tokens = createTokenStore(window.localStorage)
      tokens.write({ accessToken: 'access-1', refreshToken: 'refresh-1', expiresAtMs: 900_000 })
      createApiClient({
        fetch: vi.fn((_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
          sent.push((JSON.parse(init?.body as string) as { refreshToken: string }).refreshToken)
          const n = sent.length + 1
          const body = { accessToken: `access-${n}`, refreshToken: `refresh-${n}`, expiresIn: 900 }
          return Promise.resolve(json(200, body))
        }),
        tokens,
        refreshAheadMs: 60_000,
      })
      await vi.advanceTimersByTimeAsync(839_999)
      expect(sent).toEqual([])
      await vi.advanceTimersByTimeAsync(1)
      expect(sent).toEqual(['refresh-1'])
      expect(tokens.read()).toMatchObject({ refreshToken: 'refresh-2', expiresAtMs: 1_740_000 })
      await vi.advanceTimersByTimeAsync(840_000)
      expect(sent).toEqual(['refresh-1', 'refresh-2'])
      // Logged out: nothing left to refresh.
      tokens.clear()
      await vi.advanceTimersByTimeAsync(2_000_000)
      expect(sent).toHaveLength(2)
    } finally {
      vi.restoreAllMocks()
      vi.useRealTimers()
    }
  })
})

describe('login and logout', () => {
  it('stores the tokens of a successful login', async () => {
    const { client, tokens } = setup(() =>
      json(200, { accessToken: 'a', refreshToken: 'r', expiresIn: 60 }),
    )
    await client.login('manager@dive.example', 'dive-demo')
    expect(tokens.read()).toEqual({ accessToken: 'a', refreshToken: 'r', expiresAtMs: 61_000 })
  })

  it('revokes the session and forgets the tokens even when revoking fails', async () => {
    const { client, tokens, requests, onLoginRequired } = setup(() =>
      json(500, errorBody('unknown_error', 'Unknown error', 'boom')),
    )
    storeTokens(tokens)
    await client.logout()
    expect(requests[0]?.url).toBe('/api/auth/logout')
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({ refreshToken: 'refresh-1' })
    expect(tokens.read()).toBeNull()
    expect(onLoginRequired).not.toHaveBeenCalled()
  })
})

describe('logout', () => {
  it('sends one revoke for logouts called at the same time', async () => {
    const { client, tokens, requests } = setup(() => json(200, { ok: true }))
    storeTokens(tokens)
    await Promise.all([client.logout(), client.logout()])
    expect(requests.filter((r) => r.url === '/api/auth/logout')).toHaveLength(1)
    expect(tokens.read()).toBeNull()
  })
})

describe('token store', () => {
  it('treats unreadable stored tokens as logged out', () => {
    window.localStorage.setItem(AUTH_STORAGE_KEY, '{"accessToken":1}')
    expect(createTokenStore(window.localStorage).read()).toBeNull()
  })

  it('returns the same object until the stored tokens change', () => {
    const tokens = createTokenStore(window.localStorage)
    storeTokens(tokens)
    const first = tokens.read()
    expect(tokens.read()).toBe(first)
    storeTokens(tokens, 'other')
    expect(tokens.read()).not.toBe(first)
  })
})
