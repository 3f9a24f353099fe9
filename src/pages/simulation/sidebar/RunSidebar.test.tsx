import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../domain/projects.ts'
import { tokenStore } from '../../../api/index.ts'
import { makeSimulation } from '../../../testing/fixtures.ts'
import { RunSidebar } from './RunSidebar.tsx'
import { statisticsJobAtom } from './statisticsJob.ts'

/*
 * The Run sidebar (issue 14 item 2) against scripted API replies: Jobs Progress with a statistics
 * calculation cancelled through 'Stop computation?', the History with levels, the Alerts with
 * operator, threshold and triggered, General Info's minutes and the checklist of each page.
 */

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const HISTORY = {
  runId: 9,
  entries: [
    { at: '2026-11-27T10:00:00.000Z', level: 'INFO', message: 'Simulation started.' },
    { at: '2026-11-27T10:00:03.000Z', level: 'WARN', message: 'Warning: runtime limit reached.' },
    {
      at: '2026-11-27T10:00:04.000Z',
      level: 'SUCCESS',
      message: 'Simulation completed: end time reached.',
    },
  ],
}

const CONDITIONS = [
  {
    id: 1,
    runId: 9,
    action: 'warning',
    valueType: 'runtime',
    operator: '>=',
    threshold: 1440,
    triggered: true,
  },
  {
    id: 2,
    runId: 9,
    action: 'stop',
    valueType: 'time',
    operator: '>',
    threshold: 500,
    triggered: false,
  },
]

function replyTo(method: string, url: URL): Response {
  const path = `${method} ${url.pathname}`
  if (path === 'GET /api/simulations/4/history') return json(HISTORY)
  if (path === 'GET /api/simulations/4/conditions')
    return json(url.searchParams.get('runId') === '9' ? CONDITIONS : [])
  if (path === 'GET /api/simulations/4/setup_validation')
    return json({
      issues: [{ level: 'info', field: 'settings.endTime', message: 'End time is required' }],
      runnable: false,
      message: null,
    })
  if (path === 'GET /api/simulations/4/discretizations') return json(null)
  if (path === 'GET /api/simulations/4/tessellation_runs') return json([])
  if (path === 'GET /api/simulations/4/user_exports') return json({ export: null })
  if (path === 'GET /api/simulations/4/sensor_outputs/recomputation')
    return json({
      id: null,
      simulationId: 4,
      runId: null,
      state: 'unknown',
      progress: 0,
      sensorIds: [],
      outputsDone: 0,
    })
  if (path === 'GET /api/simulations/4/download')
    return new Response(new Uint8Array([80, 75, 5, 6]), {
      status: 200,
      headers: {
        'content-type': 'application/zip',
        'content-disposition': 'attachment; filename="Dam break.zip"',
      },
    })
  return json({ code: 'resource_not_found', title: 'x', description: 'x' }, 404)
}

let requests: string[] = []

beforeEach(() => {
  requests = []
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      const method = init?.method ?? 'GET'
      requests.push(`${method} ${url.pathname}${url.search}`)
      return Promise.resolve(replyTo(method, url))
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

function renderSidebar(simulation: Simulation, mode: 'dashboard' | 'postprocessor' = 'dashboard') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const store = createStore()
  render(
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <RunSidebar simulation={simulation} mode={mode} />
        </MemoryRouter>
      </QueryClientProvider>
    </JotaiProvider>,
  )
  return store
}

const finished = makeSimulation({
  state: 'completed',
  activeRunId: 9,
  setupLocked: true,
  solver: { name: 'Dive SPH (CPU)' },
  cores: 2,
  log: { progress: 1, time: 1000, runtime: 150_000, runtimeLeft: 0, particles: 11686, output: 49 },
})

describe('RunSidebar', () => {
  it('cancels a running statistics calculation from Jobs Progress after Stop computation?', async () => {
    const store = renderSidebar(finished, 'postprocessor')
    expect(await screen.findByText(/No jobs yet/)).toBeTruthy()
    const cancel = vi.fn(() => {
      const job = store.get(statisticsJobAtom)
      if (job) store.set(statisticsJobAtom, { ...job, state: 'canceled' })
    })
    act(() =>
      store.set(statisticsJobAtom, {
        simulationId: 4,
        state: 'running',
        progress: 0.25,
        outputCount: 8,
        cancel,
      }),
    )
    const widget = await screen.findByRole('region', { name: 'Statistics job' })
    expect(widget.querySelector('.job-widget__state')?.textContent).toContain('Running')
    expect(
      within(widget)
        .getByRole('progressbar', { name: 'Statistics progress' })
        .getAttribute('value'),
    ).toBe('25')
    fireEvent.click(within(widget).getByRole('button', { name: 'Stop computation' }))
    const dialog = screen.getByRole('dialog', { name: 'Stop computation?' })
    expect(cancel).not.toHaveBeenCalled()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop' }))
    expect(cancel).toHaveBeenCalledTimes(1)
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(widget.querySelector('.job-widget__state')?.textContent).toContain('Canceled')
    expect(within(widget).queryByRole('button', { name: 'Stop computation' })).toBeNull()
  })

  it('ignores the statistics of another simulation', async () => {
    const store = renderSidebar(finished)
    act(() =>
      store.set(statisticsJobAtom, {
        simulationId: 5,
        state: 'running',
        progress: 0,
        outputCount: 1,
        cancel: () => {},
      }),
    )
    expect(await screen.findByText(/No jobs yet/)).toBeTruthy()
  })

  it('reads the History with each entry’s level, from the keyboard', async () => {
    renderSidebar(finished)
    const jobsTab = screen.getByRole('tab', { name: 'Jobs Progress' })
    jobsTab.focus()
    fireEvent.keyDown(jobsTab, { key: 'End' })
    const historyTab = screen.getByRole('tab', { name: 'History' })
    expect(historyTab.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(historyTab)
    const list = await screen.findByRole('list', { name: 'Run history' })
    const entries = within(list).getAllByRole('listitem')
    expect(entries.map((e) => e.querySelector('.run-history__level')?.textContent)).toEqual([
      'INFO',
      'WARN',
      'SUCCESS',
    ])
    expect(entries[1]?.textContent).toContain('Warning: runtime limit reached.')
  })

  it('lists the run’s alerts with operator, threshold and whether each triggered', async () => {
    renderSidebar(finished)
    fireEvent.click(screen.getByRole('tab', { name: 'Alerts' }))
    const table = await screen.findByRole('table', { name: 'Run alerts' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Warning', 'Runtime', '≥', '1 days', 'Yes'],
      ['Stop', 'Physical time', '>', '0.5 s', 'No'],
    ])
    // Not running: the next run's alerts can be edited.
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy()
  })

  it('locks the alerts while the simulation runs', async () => {
    renderSidebar({ ...finished, state: 'running' })
    fireEvent.click(screen.getByRole('tab', { name: 'Alerts' }))
    expect(
      await screen.findByText('Alerts cannot be edited while the simulation is running.'),
    ).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull()
  })

  it('shows runtime in minutes and the solver without a doubled kind', () => {
    renderSidebar(finished)
    fireEvent.click(screen.getByRole('tab', { name: 'General Info' }))
    const facts = screen.getByRole('tabpanel')
    expect(facts.textContent).toContain('Runtime2.5 min')
    expect(facts.textContent).toContain('SolverDive SPH (CPU)')
    expect(facts.textContent).not.toContain('(CPU) (CPU)')
    expect(facts.textContent).toContain('Outputs written50')
  })

  it('checks the setup on the Monitor page and sends the Results page to the setup', async () => {
    renderSidebar(finished)
    fireEvent.click(screen.getByRole('tab', { name: 'Input Validation' }))
    const checklist = await screen.findByRole('list', { name: 'Setup checklist' })
    expect(
      within(checklist)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['No errors', '1 missing input', 'No warnings'])
    cleanup()
    requests = []
    renderSidebar(finished, 'postprocessor')
    fireEvent.click(screen.getByRole('tab', { name: 'Input Validation' }))
    const link = screen.getByRole('link', { name: 'Go to the setup to validate' })
    expect(link.getAttribute('href')).toBe('/simulation/4/preprocessor')
    await waitFor(() => expect(requests.some((r) => r.includes('setup_validation'))).toBe(false))
  })

  it('downloads a started simulation as a ZIP, and not before it started', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:zip', revokeObjectURL: () => {} }),
    )
    renderSidebar(makeSimulation())
    fireEvent.click(screen.getByRole('tab', { name: 'Download' }))
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Download simulation' }).disabled,
    ).toBe(true)
    expect(
      screen.getByText('Download is available once the simulation has been started.'),
    ).toBeTruthy()
    cleanup()
    renderSidebar(finished)
    fireEvent.click(screen.getByRole('tab', { name: 'Download' }))
    fireEvent.click(screen.getByRole('button', { name: 'Download simulation' }))
    await waitFor(() => expect(requests).toContain('GET /api/simulations/4/download'))
    await screen.findByRole('button', { name: 'Download simulation' })
  })
})
