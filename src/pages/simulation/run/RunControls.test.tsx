import { makeSimulation } from '../../../testing/fixtures.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { permissionsForRole, type User } from '../../../../domain/account.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { RUN_TEXTS } from '../../../../domain/rest/runRoutes.ts'
import { tokenStore } from '../../../api/index.ts'
import { CurrentUserContext } from '../../../lib/currentUser.ts'
import { toastsAtom } from '../../../state/toastsAtom.ts'
import { RunControls } from './RunControls.tsx'

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

function simulationIn(patch: Partial<Simulation>): Simulation {
  return makeSimulation(patch)
}

const ORGANIZATION = {
  id: 1,
  name: 'Demo Organization',
  credits: 2500,
  features: ['cpu'],
  activeSubscription: {
    kind: 'engineering',
    startDate: '',
    endDate: '',
    coreHours: 1000,
    oneOffCoreHours: 0,
    vmHoursPerMonth: 20,
    maxCores: 2,
    freeInstance: false,
  },
  freeInstanceOccupied: false,
  maximumSimulationsExceeded: false,
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function replyTo(path: string): Response {
  if (path === 'GET /api/solvers') return json(solvers)
  if (path === 'GET /api/organizations') return json([{ ...ORGANIZATION, ...organizationPatch }])
  if (path === 'GET /api/simulations/4/setup_validation')
    return json({ issues: [], runnable, message: null })
  if (path === 'GET /api/simulations/4/conditions') return json([])
  if (path === 'POST /api/simulations/4/jobs')
    return json(simulationIn({ state: 'launching', setupLocked: true }), 201)
  if (path === 'DELETE /api/simulations/4/jobs')
    return stopFails
      ? json({ code: 'internal', title: 'Internal error', description: 'Unknown error' }, 500)
      : json(simulationIn({ state: 'stopping', setupLocked: true }))
  return json({ code: 'resource_not_found', title: 'x', description: 'x' }, 404)
}

const CPU_SOLVER = { id: 1, name: 'Dive SPH (CPU)', latest: true, gpu: false }
const GPU_SOLVER = { id: 2, name: 'Dive SPH GPU (NVIDIA H200)', latest: true, gpu: true }
let solvers: unknown[] = [CPU_SOLVER]
let requests: { method: string; url: URL; body: unknown }[] = []
let runnable = true
let stopFails = false
let organizationPatch: Record<string, unknown> = {}

class FakeWebSocket {
  readyState = 0
  onopen = null
  onmessage = null
  onclose = null
  onerror = null
  send() {}
  close() {}
}

beforeEach(() => {
  requests = []
  solvers = [CPU_SOLVER]
  runnable = true
  stopFails = false
  organizationPatch = {}
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal('WebSocket', FakeWebSocket)
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      const method = init?.method ?? 'GET'
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
      requests.push({ method, url, body })
      const path = `${method} ${url.pathname}`
      return Promise.resolve(replyTo(path))
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

function renderControls(simulation: Simulation) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const store = createStore()
  render(
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <CurrentUserContext value={USER}>
          <RunControls simulation={simulation} />
        </CurrentUserContext>
      </QueryClientProvider>
    </JotaiProvider>,
  )
  return { queryClient, store }
}

describe('RunControls', () => {
  it('starts a run through the two-step start form with the chosen cores', async () => {
    renderControls(simulationIn({}))
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }))
    const dialog = await screen.findByRole('dialog', { name: 'Run simulation' })
    expect(dialog.textContent).toContain('Step 1 of 2: General')
    await waitFor(() =>
      expect(screen.getByLabelText('Cores').querySelectorAll('option')).toHaveLength(2),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getByRole('dialog').textContent).toContain('Step 2 of 2: Alerts')
    fireEvent.click(screen.getByRole('button', { name: 'Start' }))
    await screen.findByText('The simulation is launching!')
    const start = requests.find((r) => r.method === 'POST')
    expect(start?.url.pathname).toBe('/api/simulations/4/jobs')
    expect(start?.url.searchParams.get('resume')).toBe('false')
    expect(start?.body).toEqual({ cores: 2, solver_id: 1 })
  })

  it('starts the GPU solver when chosen: one core, no cores choice', async () => {
    solvers = [GPU_SOLVER, CPU_SOLVER]
    renderControls(simulationIn({}))
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }))
    await screen.findByRole('dialog', { name: 'Run simulation' })
    const gpu = await screen.findByRole<HTMLInputElement>('radio', {
      name: 'Dive SPH GPU (NVIDIA H200)',
    })
    // the default (listed first) is chosen; the cores belong to the CPU solver
    expect(gpu.checked).toBe(true)
    expect(screen.queryByLabelText('Cores')).toBeNull()
    expect(screen.getByRole('dialog').textContent).toContain(RUN_TEXTS.coresGpuHint)
    fireEvent.click(screen.getByRole('radio', { name: 'Dive SPH (CPU)' }))
    await waitFor(() =>
      expect(screen.getByLabelText('Cores').querySelectorAll('option')).toHaveLength(2),
    )
    fireEvent.click(gpu)
    expect(screen.queryByLabelText('Cores')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    fireEvent.click(screen.getByRole('button', { name: 'Start' }))
    await screen.findByText('The simulation is launching!')
    const start = requests.find((r) => r.method === 'POST')
    expect(start?.body).toEqual({ cores: 1, solver_id: 2 })
  })

  it('keeps the default solver without the cpu feature: the choice is disabled', async () => {
    solvers = [CPU_SOLVER, GPU_SOLVER]
    organizationPatch = { features: [] }
    renderControls(simulationIn({}))
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }))
    const gpu = await screen.findByRole<HTMLInputElement>('radio', {
      name: 'Dive SPH GPU (NVIDIA H200)',
    })
    await waitFor(() => expect(gpu.disabled).toBe(true))
    const cpu = screen.getByRole<HTMLInputElement>('radio', { name: 'Dive SPH (CPU)' })
    expect(cpu.checked).toBe(true)
    expect(screen.getByRole('dialog').textContent).toContain('part of the cpu feature')
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    fireEvent.click(screen.getByRole('button', { name: 'Start' }))
    await screen.findByText('The simulation is launching!')
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({ solver_id: 1 })
  })

  it('resumes on the solver type of the run, and disables Resume when none of it is listed', async () => {
    solvers = [CPU_SOLVER, GPU_SOLVER]
    renderControls(
      simulationIn({ state: 'stopped', setupLocked: true, resumable: true, gpu: true }),
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Resume' }))
    await screen.findByRole('dialog', { name: 'Resume simulation' })
    expect(screen.getAllByRole('radio').map((r) => r.parentElement?.textContent)).toEqual([
      'Dive SPH GPU (NVIDIA H200)',
    ])
    cleanup()
    solvers = [CPU_SOLVER]
    renderControls(
      simulationIn({ state: 'stopped', setupLocked: true, resumable: true, gpu: true }),
    )
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Resume' }).disabled).toBe(true),
    )
  })

  it('disables Run with the fix-errors tooltip while the setup is not runnable', async () => {
    runnable = false
    renderControls(simulationIn({}))
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run' }).disabled).toBe(true),
    )
  })

  it('asks before stopping a running simulation and then stops it', async () => {
    renderControls(simulationIn({ state: 'running', setupLocked: true, log: null }))
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }))
    const dialog = await screen.findByRole('dialog', { name: 'Stop simulation?' })
    expect(dialog.textContent).toContain('Resuming is possible only if the simulation is resumable')
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop' }))
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'DELETE' && r.url.pathname.endsWith('/jobs'))).toBe(
        true,
      ),
    )
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('shows a disabled, loading button while stopping and the progress as a percent', () => {
    renderControls(
      simulationIn({
        state: 'stopping',
        setupLocked: true,
        log: {
          progress: 0.42,
          time: 420,
          runtime: 1000,
          runtimeLeft: 1000,
          particles: 10,
          output: 3,
        },
      }),
    )
    const button = screen.getByRole<HTMLButtonElement>('button', { name: /Stopping\.\.\./ })
    expect(button.disabled).toBe(true)
    const bar = screen.getByRole('progressbar', { name: 'Run progress' })
    expect(bar.getAttribute('aria-valuenow')).toBe('42')
    expect(bar.getAttribute('aria-valuetext')).toBe('42%')
  })

  it('offers Resume for a resumable run and Restart with the Edit Setup badge otherwise', () => {
    renderControls(simulationIn({ state: 'stopped', setupLocked: true, resumable: true }))
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Edit Setup' })).toBeTruthy()
    cleanup()
    renderControls(simulationIn({ state: 'completed', setupLocked: true, resumable: false }))
    fireEvent.click(screen.getByRole('button', { name: 'Restart' }))
    expect(screen.getByRole('dialog', { name: 'Restart simulation?' })).toBeTruthy()
  })

  it('tells of a failed stop in the spec’s words only, without the server’s (issue 14)', async () => {
    stopFails = true
    const { store } = renderControls(simulationIn({ state: 'running', setupLocked: true }))
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, stop' }))
    await waitFor(() => expect(store.get(toastsAtom)).toHaveLength(1))
    expect(store.get(toastsAtom)[0]).toMatchObject({
      kind: 'error',
      title: 'Simulation could not be stopped',
      description: 'Please try again in a few moments',
    })
  })

  it('does not refetch the organization on the launching screen (issue 14)', async () => {
    const { queryClient } = renderControls(simulationIn({}))
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }))
    await screen.findByRole('dialog', { name: 'Run simulation' })
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    fireEvent.click(screen.getByRole('button', { name: 'Start' }))
    await screen.findByText('The simulation is launching!')
    const organizationCalls = () =>
      requests.filter((r) => r.url.pathname === '/api/organizations').length
    const before = organizationCalls()
    // What every TransactionMessage of the live channel does while the run bills its credits.
    for (let i = 0; i < 3; i++) await queryClient.invalidateQueries({ queryKey: ['organizations'] })
    expect(organizationCalls()).toBe(before)
  })

  it('labels the solver once with its kind', async () => {
    renderControls(simulationIn({}))
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }))
    expect(await screen.findByRole('radio', { name: 'Dive SPH (CPU)' })).toBeTruthy()
  })

  it('blocks the start when the organization runs its maximum of simulations (issue 14)', async () => {
    organizationPatch = { maximumSimulationsExceeded: true }
    renderControls(simulationIn({}))
    fireEvent.click(await screen.findByRole('button', { name: 'Run' }))
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Your organization runs as many simulations as its subscription allows.',
    )
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true)
  })
})
