import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { RouterProvider, createMemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { permissionsForRole, type Role, type User } from '../../../domain/account.ts'
import { tokenStore } from '../../api/index.ts'
import { CurrentUserContext } from '../../lib/currentUser.ts'
import { ProjectsPage } from './ProjectsPage.tsx'

function userWithRole(id: number, role: Role, fullName: string): User {
  const [firstName = '', lastName = ''] = fullName.split(' ')
  return {
    id,
    firstName,
    lastName,
    fullName,
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
  }
}

const MANAGER = userWithRole(2, 'manager', 'Mia Manager')
const CONTRIBUTOR = userWithRole(3, 'contributor', 'Carl Contributor')

const PROJECT = {
  id: 7,
  name: 'Contributor sandbox',
  description: 'A place to try things out.',
  simulations: [],
  size: 0,
  creator: { id: 3, fullName: 'Carl Contributor', avatarId: 5 },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })
}

let projectRequests: URL[] = []

beforeEach(() => {
  projectRequests = []
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      if (url.pathname === '/api/projects') {
        projectRequests.push(url)
        return Promise.resolve(json({ results: [PROJECT], resultCount: 1, pageCount: 1 }))
      }
      if (url.pathname === '/api/storage_consumption/organization')
        return Promise.resolve(json({ consumed: 0, available: 100, lastUpdated: 'x' }))
      if (url.pathname === '/api/organizations') return Promise.resolve(json([]))
      return Promise.resolve(new Response('{}', { status: 404 }))
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

function renderProjectsPage(user: User, url = '/projects') {
  const router = createMemoryRouter(
    [
      {
        path: '/projects',
        element: (
          <CurrentUserContext value={user}>
            <ProjectsPage />
          </CurrentUserContext>
        ),
      },
    ],
    { initialEntries: [url] },
  )
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider store={createStore()}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </JotaiProvider>,
  )
  return router
}

describe('ProjectsPage permissions', () => {
  it('gives a contributor no My/All toggle and no owner, and asks only for their own projects', async () => {
    renderProjectsPage(CONTRIBUTOR, '/projects?view=all')
    await screen.findByRole('article', { name: 'Project Contributor sandbox' })
    expect(screen.queryByRole('button', { name: 'All projects' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'My projects' })).toBeNull()
    expect(screen.queryByText('Owner')).toBeNull()
    expect(projectRequests.at(-1)?.searchParams.getAll('createdBy')).toEqual(['3'])
  })

  it('lets a manager switch to all projects, which drops the own-projects filter', async () => {
    const router = renderProjectsPage(MANAGER)
    await screen.findByRole('article', { name: 'Project Contributor sandbox' })
    expect(screen.getByText('Owner')).toBeTruthy()
    expect(projectRequests.at(-1)?.searchParams.getAll('createdBy')).toEqual(['2'])
    expect(screen.getByRole('button', { name: 'My projects' }).getAttribute('aria-pressed')).toBe(
      'true',
    )

    fireEvent.click(screen.getByRole('button', { name: 'All projects' }))
    expect(router.state.location.search).toBe('?view=all')
    await waitFor(() => expect(projectRequests.at(-1)?.searchParams.has('createdBy')).toBe(false))
    expect(screen.getByRole('button', { name: 'All projects' }).getAttribute('aria-pressed')).toBe(
      'true',
    )
  })

  it('shows the filtered empty state when a search finds nothing', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(json({ results: [], resultCount: 0, pageCount: 0 }))),
    )
    renderProjectsPage(MANAGER, '/projects?search=nothing')
    expect(
      await screen.findByText('No projects found. Please adjust your search parameters.'),
    ).toBeTruthy()
    cleanup()
    renderProjectsPage(MANAGER)
    expect(await screen.findByText('Start creating your great project')).toBeTruthy()
  })
})
