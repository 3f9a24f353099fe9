import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { RouterProvider, createMemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  permissionsForRole,
  subscriptionCoreHours,
  type Organization,
  type User,
} from '../../../domain/account.ts'
import { tokenStore } from '../../api/index.ts'
import { CurrentUserContext } from '../../lib/currentUser.ts'
import { SubscriptionPage } from './SubscriptionPage.tsx'

const MANAGER: User = {
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
  permissions: [...permissionsForRole('manager')],
  createdAt: '2026-01-01T00:00:00.000Z',
}

const ORGANIZATION: Organization = {
  id: 1,
  name: 'Demo Organization',
  credits: 2500,
  features: ['cpu', 'vmHours'],
  activeSubscription: {
    kind: 'performance',
    startDate: '2026-01-01T00:00:00.000Z',
    endDate: '2099-01-01T00:00:00.000Z',
    coreHours: 1000,
    oneOffCoreHours: 50,
    vmHoursPerMonth: 20,
    maxCores: 16,
    freeInstance: true,
  },
  freeInstanceOccupied: true,
  maximumSimulationsExceeded: false,
}

let organization: Organization = ORGANIZATION
let historyStart: string | null = null

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })
}

beforeEach(() => {
  organization = ORGANIZATION
  historyStart = null
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      if (url.pathname === '/api/organizations') return Promise.resolve(json([organization]))
      if (url.pathname === '/api/storage_consumption/organization')
        return Promise.resolve(
          json({ consumed: 2.5e9, available: 1e12, lastUpdated: '2026-11-20T10:00:00.000Z' }),
        )
      if (url.pathname === '/api/credits/history') {
        historyStart = url.searchParams.get('startDate')
        return Promise.resolve(
          json([
            { credits: 60, simulationHours: 1, date: '2026-11-20', sequenceId: 1, issuer: null },
            { credits: 90, simulationHours: 1.5, date: '2026-11-21', sequenceId: 2, issuer: null },
          ]),
        )
      }
      return Promise.resolve(new Response('{}', { status: 404 }))
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

function renderSubscription() {
  const router = createMemoryRouter(
    [
      {
        path: '/settings/subscription',
        element: (
          <CurrentUserContext value={MANAGER}>
            <SubscriptionPage />
          </CurrentUserContext>
        ),
      },
    ],
    { initialEntries: ['/settings/subscription'] },
  )
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider store={createStore()}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </JotaiProvider>,
  )
}

/** The value next to a term of a facts list. */
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling

describe('SubscriptionPage', () => {
  it('shows the plan, the core hours the runs used since its start, and its limits', async () => {
    renderSubscription()
    expect(await screen.findByText('Performance')).toBeTruthy()
    expect(fact('Start date')?.textContent).toBe('01.01.2026')
    expect(fact('Core hours')?.textContent).toBe('1,000 h')
    expect(fact('One-off core hours')?.textContent).toBe('50 h')
    expect(await screen.findByText('2.5 h')).toBeTruthy()
    expect(fact('Core hours left')?.textContent).toBe('1,047.5 h')
    expect(historyStart).toBe(ORGANIZATION.activeSubscription?.startDate)
    expect(fact('VM hours per month')?.textContent).toBe('20 h')
    expect(fact('Maximum cores per simulation')?.textContent).toBe('16')
    expect(fact('Free instance')?.textContent).toBe('Included, in use')
    expect(fact('Simulations')?.textContent).toBe('Within the limit')
    expect(fact('Storage')?.textContent).toBe('2.5 GB of 1.0 TB used')
    expect(screen.getByText('CPU solver choice')).toBeTruthy()
    expect(screen.getByText('Virtual machine hours')).toBeTruthy()
  })

  it('says when there is no subscription and when the simulation maximum is reached', async () => {
    organization = { ...ORGANIZATION, activeSubscription: null, maximumSimulationsExceeded: true }
    renderSubscription()
    expect(await screen.findByText('Your organization has no active subscription.')).toBeTruthy()
    expect(fact('Simulations')?.textContent).toBe('Maximum number of simulations reached')
    expect(fact('Free instance')?.textContent).toBe('Not included')
    expect(historyStart).toBeNull()
  })

  it('never counts more core hours left than none', () => {
    expect(subscriptionCoreHours({ coreHours: 10, oneOffCoreHours: 0 }, 12)).toEqual({
      total: 10,
      used: 12,
      left: 0,
    })
  })
})
