import { makeSimulation } from '../../testing/fixtures.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { RouterProvider, createMemoryRouter } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { permissionsForRole, type User } from '../../../domain/account.ts'
import { tokenStore } from '../../api/index.ts'
import { ROUTE_OBJECTS } from '../../routes/router.tsx'
import { LOAD_SETUP_TEXTS, simulationModeOf } from './SimulationLayout.tsx'

/*
 * The simulation routes as the app declares them (ROUTE_OBJECTS), against a fetch stub that knows
 * the logged-in user, one simulation and its project; everything else answers 404.
 */

const USER: User = {
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

/** GET /api/simulations/1 of the seeded demo, as the server sends it. */
const SIMULATION_JSON = makeSimulation({
  id: 1,
  description: 'Collapse of a water column.',
  projectId: 1,
  project: { id: 1, name: 'Demo project' },
})

const PROJECT_JSON = {
  id: 1,
  name: 'Demo project',
  description: '',
  simulations: [],
  size: 0,
  creator: { id: 2, fullName: 'Mia Manager', avatarId: 0 },
  createdAt: '2026-11-26T22:44:53.798Z',
  updatedAt: '2026-11-26T22:44:53.798Z',
}

let simulation: Record<string, unknown>
let requested: string[] = []
let serverDown = false
let simulationUnreachable = false
let queryClientOfRender: QueryClient | null = null

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

beforeEach(() => {
  requested = []
  serverDown = false
  simulationUnreachable = false
  simulation = {
    ...SIMULATION_JSON,
    state: 'completed',
    activeRunId: 3,
    log: { progress: 1, time: 1, runtime: 10, runtimeLeft: null, particles: 100, output: 50 },
  }
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://x')
      requested.push(url.pathname)
      if (serverDown || (simulationUnreachable && url.pathname === '/api/simulations/1'))
        return Promise.reject(new TypeError('Failed to fetch'))
      if (url.pathname === '/api/users') return Promise.resolve(json(USER))
      if (url.pathname === '/api/simulations/1') return Promise.resolve(json(simulation))
      if (url.pathname === '/api/projects/1') return Promise.resolve(json(PROJECT_JSON))
      return Promise.resolve(
        json({ code: 'resource_not_found', title: 'Not found', message: url.pathname }, 404),
      )
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

// The pages load lazily (issue 23: code split by route); the first import of a page's module graph
// can take seconds here, past findBy's 1 s, so the tests start with them loaded.
beforeAll(async () => {
  await Promise.all([
    import('../../components/shell/AppShell.tsx'),
    import('./SimulationLayout.tsx'),
    import('./PreprocessorPage.tsx'),
    import('./DashboardPage.tsx'),
    import('./PostprocessorPage.tsx'),
  ])
}, 60_000)

function renderAt(path: string) {
  const router = createMemoryRouter(ROUTE_OBJECTS, { initialEntries: [path] })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  queryClientOfRender = queryClient
  render(
    <QueryClientProvider client={queryClient}>
      <JotaiProvider store={createStore()}>
        <RouterProvider router={router} />
      </JotaiProvider>
    </QueryClientProvider>,
  )
  return router
}

describe('simulationModeOf', () => {
  it('reads the mode from /simulation/{id}/{mode} and nothing longer or else', () => {
    expect(simulationModeOf('/simulation/1/preprocessor')).toBe('preprocessor')
    expect(simulationModeOf('/simulation/12/dashboard/')).toBe('dashboard')
    expect(simulationModeOf('/simulation/1/postprocessor')).toBe('postprocessor')
    expect(simulationModeOf('/simulation/1/preprocessor/geometry')).toBeNull()
    expect(simulationModeOf('/simulation/1/setup')).toBeNull()
    expect(simulationModeOf('/simulation/1')).toBeNull()
    expect(simulationModeOf('/simulation/x/preprocessor')).toBeNull()
  })
})

describe('simulation routes', () => {
  it('shows the not-found page for an unknown sub-route of a mode, outside the simulation frame', async () => {
    renderAt('/simulation/1/preprocessor/geometry')
    expect(await screen.findByRole('heading', { name: "It's empty here!" })).toBeTruthy()
    expect(screen.queryByRole('navigation', { name: 'Simulation pages' })).toBeNull()
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).toBeNull()
    expect(screen.queryByLabelText('Object explorer')).toBeNull()
    expect(requested).not.toContain('/api/simulations/1')
  })

  it('shows the not-found page for an unknown mode and for the bare simulation path', async () => {
    renderAt('/simulation/1/setup')
    expect(await screen.findByRole('heading', { name: "It's empty here!" })).toBeTruthy()
    cleanup()
    renderAt('/simulation/1')
    expect(await screen.findByRole('heading', { name: "It's empty here!" })).toBeTruthy()
  })

  it('shows the Setup page inside its frame on the exact route', async () => {
    renderAt('/simulation/1/preprocessor')
    const tabs = await screen.findByRole('navigation', { name: 'Simulation pages' })
    expect(within(tabs).getByRole('link', { name: 'Setup' }).getAttribute('aria-current')).toBe(
      'page',
    )
    expect(screen.getByLabelText('Object explorer')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: "It's empty here!" })).toBeNull()
  })
})

describe('leaving Results for Setup', () => {
  it("asks 'Load Setup?' while a run is loaded: 'No, stay' stays on Results", async () => {
    const router = renderAt('/simulation/1/postprocessor')
    const tabs = await screen.findByRole('navigation', { name: 'Simulation pages' })
    fireEvent.click(within(tabs).getByRole('link', { name: 'Setup' }))
    const dialog = screen.getByRole('dialog', { name: LOAD_SETUP_TEXTS.title })
    fireEvent.click(within(dialog).getByRole('button', { name: 'No, stay' }))
    expect(screen.queryByRole('dialog', { name: LOAD_SETUP_TEXTS.title })).toBeNull()
    expect(router.state.location.pathname).toBe('/simulation/1/postprocessor')
  })

  it("goes to Setup on 'Yes, load'", async () => {
    const router = renderAt('/simulation/1/postprocessor')
    const tabs = await screen.findByRole('navigation', { name: 'Simulation pages' })
    fireEvent.click(within(tabs).getByRole('link', { name: 'Setup' }))
    const dialog = screen.getByRole('dialog', { name: LOAD_SETUP_TEXTS.title })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, load' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/simulation/1/preprocessor'))
    expect(await screen.findByLabelText('Object explorer')).toBeTruthy()
  })

  it("asks 'Load Setup?' from Results of a running simulation too (issue 14)", async () => {
    simulation = { ...simulation, state: 'running', setupLocked: true }
    const router = renderAt('/simulation/1/postprocessor')
    const tabs = await screen.findByRole('navigation', { name: 'Simulation pages' })
    fireEvent.click(within(tabs).getByRole('link', { name: 'Setup' }))
    expect(screen.getByRole('dialog', { name: LOAD_SETUP_TEXTS.title })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/simulation/1/postprocessor')
  })

  it('goes straight to Setup from the other pages', async () => {
    const router = renderAt('/simulation/1/dashboard')
    const tabs = await screen.findByRole('navigation', { name: 'Simulation pages' })
    fireEvent.click(within(tabs).getByRole('link', { name: 'Setup' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/simulation/1/preprocessor'))
    expect(screen.queryByRole('dialog', { name: LOAD_SETUP_TEXTS.title })).toBeNull()
  })
})

// Issue 13 item 9: a failed refresh during a server outage replaced the whole page with an error.
describe('a server outage', () => {
  it('keeps the simulation page when a refresh of the simulation fails', async () => {
    renderAt('/simulation/1/dashboard')
    await screen.findByRole('navigation', { name: 'Simulation pages' })
    serverDown = true
    act(() => {
      void queryClientOfRender?.refetchQueries({ queryKey: ['getSimulation'] })
    })
    await waitFor(() =>
      expect(
        queryClientOfRender?.getQueryState(['getSimulation', { params: { id: '1' } }])?.status,
      ).toBe('error'),
    )
    expect(screen.getByRole('navigation', { name: 'Simulation pages' })).toBeTruthy()
    expect(screen.queryByText(/Could not load the simulation/)).toBeNull()
  })

  it('says the simulation could not be loaded when there is nothing to show', async () => {
    simulationUnreachable = true
    renderAt('/simulation/1/dashboard')
    expect(await screen.findByText(/Could not load the simulation/)).toBeTruthy()
  })
})
