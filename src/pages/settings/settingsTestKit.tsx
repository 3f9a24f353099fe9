import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import type { ReactNode } from 'react'
import { RouterProvider, createMemoryRouter } from 'react-router'
import { vi } from 'vitest'
import { permissionsForRole, type Role, type User } from '../../../domain/account.ts'
import { tokenStore } from '../../api/index.ts'
import { CurrentUserContext } from '../../lib/currentUser.ts'

/*
 * The settings pages' test kit: a demo user of any role, a fetch stub that answers the routes a
 * test names (404 for the rest) and logs what the page sent, and the page rendered inside its
 * providers (jotai, react-query without retries, a memory router, the current user).
 */

const NAMES: Record<Role, { id: number; firstName: string; lastName: string }> = {
  admin: { id: 1, firstName: 'Ada', lastName: 'Admin' },
  manager: { id: 2, firstName: 'Mia', lastName: 'Manager' },
  contributor: { id: 3, firstName: 'Carl', lastName: 'Contributor' },
  support: { id: 4, firstName: 'Sam', lastName: 'Support' },
}

/** A user of the demo organization with `role`'s permissions; `patch` overrides any field. */
export function settingsUser(role: Role, patch: Partial<User> = {}): User {
  const { id, firstName, lastName } = NAMES[role]
  return {
    id,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
    email: `${role}@dive.example`,
    phoneNumber: null,
    department: null,
    location: null,
    avatarId: 0,
    role,
    active: true,
    organization: { id: 1, name: 'Demo Organization' },
    activeAccessGrantId: null,
    permissions: [...permissionsForRole(role)],
    createdAt: '2026-01-01T00:00:00.000Z',
    ...patch,
  }
}

/** A JSON response. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/** One request the page sent. */
export interface SentRequest {
  method: string
  url: URL
  /** The URL's path, e.g. '/api/mgmt/users/3'. */
  path: string
  /** The parsed JSON body, if any. */
  body: unknown
}

/** Answers a request, or undefined for a 404. */
export type AnswerRequest = (request: SentRequest) => Response | undefined

/**
 * Logs in (tokens in the store) and stubs fetch with `answer`; returns the live log of requests.
 * Call it in beforeEach (or a test) and `resetSettingsApi` in afterEach.
 */
export function stubSettingsApi(answer: AnswerRequest): SentRequest[] {
  const sent: SentRequest[] = []
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      const request: SentRequest = {
        method: init?.method ?? 'GET',
        url,
        path: url.pathname,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      }
      sent.push(request)
      return Promise.resolve(answer(request) ?? new Response('{}', { status: 404 }))
    }),
  )
  return sent
}

/** Unmounts, removes the fetch stub and logs out (afterEach). */
export function resetSettingsApi(): void {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
}

/** Renders `page` at `path` for `user` inside the app's providers. */
export function renderSettingsPage(path: string, page: ReactNode, user: User): QueryClient {
  const router = createMemoryRouter(
    [
      {
        path,
        element: <CurrentUserContext value={user}>{page}</CurrentUserContext>,
      },
      { path: '*', element: <p>Navigated away</p> },
    ],
    { initialEntries: [path] },
  )
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider store={createStore()}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </JotaiProvider>,
  )
  return client
}
