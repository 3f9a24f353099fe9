import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Discretization } from '../../../../../domain/discretization.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { SetupSnapshot } from '../../../../../engine/setupProtocol.ts'
import { storeWithEngine } from '../../results/layout/testEngine.ts'
import {
  errorBody,
  renderSetup,
  stubApi,
  testPart,
  type ApiCall,
} from '../movements/testHarness.tsx'
import { DiscretizationControls } from './DiscretizationControls.tsx'
import { discretizationIssues } from './discretizationModel.ts'

/*
 * Discretize and its job widget against a stubbed API whose discretization moves on each time the
 * test refetches it (instead of waiting for the 0.5 s poll).
 */

const SIMULATION = { id: 5 } as Simulation

const record = (patch: Partial<Discretization>): Discretization => ({
  id: 21,
  simulationId: 5,
  state: 'scheduled',
  progress: 0,
  errors: [],
  warnings: [],
  summary: null,
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
  ...patch,
})

const part = (id: number, name: string, pointcloudUrl: string | null) =>
  testPart(id, name, { component: 'filling', pointcloudUrl })

const DONE = record({
  state: 'done',
  progress: 1,
  warnings: [{ description: 'Part Water column is far from the origin', partId: 12 }],
  summary: {
    particleCount: 1534,
    fluidCount: 1234,
    wallCount: 300,
    parts: [
      {
        partId: 12,
        name: 'Water',
        role: 'fluid',
        particleCount: 1234,
        particleVolume: 0.009872,
        geometricVolume: 0.0103,
        volumeDifference: -0.04155,
      },
      { partId: 13, name: 'Tank', role: 'wall', particleCount: 300, particleVolume: 0.0024 },
    ],
    fluidParticleVolume: 0.009872,
    fluidMeshVolume: 0.0103,
  },
})

let server: {
  runnable: boolean
  /** The discretization GET answers, in turn (the last one repeats). */
  sequence: (Discretization | null)[]
  parts: ReturnType<typeof part>[]
  cancelStatus: number
}
let calls: ApiCall[]

beforeEach(() => {
  server = { runnable: true, sequence: [null], parts: [part(12, 'Water', null)], cancelStatus: 200 }
  calls = stubApi({
    'GET /api/simulations/5/discretizations': () => [
      200,
      server.sequence.length > 1 ? server.sequence.shift() : server.sequence[0],
    ],
    'POST /api/simulations/5/discretizations': [201, record({})],
    'DELETE /api/simulations/5/discretizations': () =>
      server.cancelStatus === 200
        ? [200, record({ state: 'canceled' })]
        : [server.cancelStatus, errorBody('conflict', 'The discretization has already ended.')],
    'GET /api/simulations/5/setup_validation': () => [
      200,
      server.runnable
        ? { issues: [], runnable: true, message: null }
        : {
            issues: [{ level: 'info', field: 'settings.endTime', message: 'End time is required' }],
            runnable: false,
            message: 'There are errors in your setup. Please check the Input Validation bar.',
          },
    ],
    'GET /api/simulations/5/parts': () => [200, server.parts],
    'GET /api/simulations/5': [200, {}],
  })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderControls(setup: Partial<SetupSnapshot> | null = null) {
  const harness = storeWithEngine()
  const snapshotOf = (patch: Partial<SetupSnapshot>) => ({
    setup: {
      initialized: true,
      message: 'Successfully initialized.' as const,
      hovered: null,
      loading: [],
      failed: [],
      tool: 'select' as const,
      dragging: false,
      timeS: 0,
      endTimeS: 1,
      playing: false,
      speed: 1,
      loop: false,
      keyframeWarnings: [],
      pointcloudCounts: {},
      ...patch,
    },
  })
  if (setup) harness.setSnapshot(snapshotOf(setup))
  const view = renderSetup(<DiscretizationControls simulation={SIMULATION} />, harness.store)
  const poll = () => act(() => view.queryClient.refetchQueries({ queryKey: ['getDiscretization'] }))
  const setSetup = (patch: Partial<SetupSnapshot>) =>
    act(() => harness.setSnapshot(snapshotOf(patch)))
  return { ...view, poll, setSetup }
}

const toasts = () =>
  [...document.querySelectorAll('.toast')].map((node) => node.textContent).join(' | ')
const discretize = async () => {
  const button = await screen.findByRole('button', { name: 'Discretize' })
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false))
  fireEvent.click(button)
}

describe('DiscretizationControls', () => {
  it('refuses to discretize while the Input Validation bar has errors or missing items', async () => {
    server.runnable = false
    renderControls()
    await discretize()
    await waitFor(() => expect(toasts()).toContain('Discretization failed'))
    expect(toasts()).toContain(
      'There are errors in your setup. Please check the Input Validation bar.',
    )
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  it('shows progress and Cancel while running, then the particle counts and the first warning', async () => {
    const { poll } = renderControls()
    server.sequence = [record({}), record({ state: 'running', progress: 0.4 }), DONE]
    await discretize()
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true))
    expect((await screen.findByTestId('discretization-status')).textContent).toBe(
      'Discretization scheduled',
    )
    await poll()
    await waitFor(() =>
      expect(screen.getByTestId('discretization-status').textContent).toBe('Discretizing'),
    )
    expect(
      screen.getByRole('progressbar', { name: 'Discretization progress' }).getAttribute('value'),
    ).toBe('40')
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy()

    const partsFetches = calls.filter((c) => c.path === '/api/simulations/5/parts').length
    await poll()
    await waitFor(() =>
      expect(screen.getByTestId('discretization-status').textContent).toBe('Discretized'),
    )
    await waitFor(() => expect(toasts()).toContain('Discretization warning'))
    expect(toasts()).toContain('Part Water column is far from the origin')
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull()
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/simulations/5/parts').length).toBeGreaterThan(
        partsFetches,
      ),
    )
    fireEvent.click(screen.getByText('1,534 particles'))
    const table = screen.getByRole('table', { name: 'Particles per part' })
    // the fluid's volume from its particles against its own, flagged beyond 1 %
    const water = within(table).getByRole('row', { name: /Water Fluid 9.87 L of 10.3 L/ })
    expect(water.textContent).toBe('WaterFluid9.87 L of 10.3 L (−4.2 %)1,234')
    expect(within(water).getByText(/9.87 L/).className).toBe('discretization__volume--off')
    expect(within(table).getByRole('row', { name: /Tank Wall 300/ })).toBeTruthy()
    expect(within(table).getByRole('row', { name: /Total 1,534/ })).toBeTruthy()
    expect(screen.getByText('Water:')).toBeTruthy()
  })

  it("toasts 'Discretization failed' with the first error of a failed run", async () => {
    const { poll } = renderControls()
    server.sequence = [
      record({}),
      record({
        state: 'failed',
        errors: [
          { description: 'Part Water has no volume to fill.', partId: 12 },
          { description: 'Second error', partId: null },
        ],
      }),
    ]
    await discretize()
    await screen.findByTestId('discretization-status')
    await poll()
    await waitFor(() => expect(toasts()).toContain('Part Water has no volume to fill.'))
    expect(toasts()).toContain('Discretization failed')
    expect(toasts()).not.toContain('Second error')
  })

  it('says nothing about a discretization that had ended before the page opened', async () => {
    server.sequence = [DONE]
    renderControls()
    await screen.findByText('1,534 particles')
    expect(toasts()).toBe('')
  })

  it("says 'Loaded pointclouds' once the view draws the new particles", async () => {
    const { poll, setSetup } = renderControls({})
    server.sequence = [record({}), DONE]
    await discretize()
    await screen.findByTestId('discretization-status')
    server.parts = [part(12, 'Water', '/api/parts/12/pointcloud?v=abc')]
    await poll()
    await waitFor(() => expect(toasts()).toContain('Discretization warning'))
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/simulations/5/parts').length).toBe(2),
    )
    setSetup({ loading: ['part:12'], pointcloudCounts: { 'part:12': 1000 } })
    expect(toasts()).not.toContain('Loaded pointclouds')
    setSetup({ pointcloudCounts: { 'part:12': 1234 } })
    await waitFor(() => expect(toasts()).toContain('Loaded pointclouds'))
  })

  it('reports a discretization once, even when a stale reply shows it running after its end', async () => {
    const { poll, setSetup } = renderControls({})
    // the started record's reply or a late poll can land after the end was seen
    server.sequence = [record({}), DONE, record({ state: 'running', progress: 0.5 }), DONE]
    await discretize()
    await screen.findByTestId('discretization-status')
    server.parts = [part(12, 'Water', '/api/parts/12/pointcloud?v=abc')]
    await poll()
    await waitFor(() => expect(toasts()).toContain('Discretization warning'))
    setSetup({ pointcloudCounts: { 'part:12': 1234 } })
    await waitFor(() => expect(toasts()).toContain('Loaded pointclouds'))
    await poll()
    await waitFor(() =>
      expect(screen.getByTestId('discretization-status').textContent).toBe('Discretizing'),
    )
    await poll()
    await waitFor(() =>
      expect(screen.getByTestId('discretization-status').textContent).toBe('Discretized'),
    )
    setSetup({ pointcloudCounts: { 'part:12': 1235 } })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const titles = [...document.querySelectorAll('.toast__title')].map((n) => n.textContent)
    expect(titles.filter((t) => t === 'Discretization warning')).toHaveLength(1)
    expect(titles.filter((t) => t === 'Loaded pointclouds')).toHaveLength(1)
  })

  it("does not wait for walls' point clouds, which the view loads on request only", async () => {
    const { poll, setSetup } = renderControls({})
    server.sequence = [record({}), DONE]
    await discretize()
    await screen.findByTestId('discretization-status')
    server.parts = [
      part(12, 'Water', '/api/parts/12/pointcloud?v=abc'),
      testPart(13, 'Tank', { component: 'rigid', pointcloudUrl: '/api/parts/13/pointcloud?v=def' }),
    ]
    await poll()
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/simulations/5/parts').length).toBe(2),
    )
    // the water is drawn; the tank's cloud is not shown, so never counted
    setSetup({ pointcloudCounts: { 'part:12': 1234 } })
    await waitFor(() => expect(toasts()).toContain('Loaded pointclouds'))
  })

  it("cancels after 'Stop computation?', and says so when cancelling fails", async () => {
    server.sequence = [record({ state: 'running', progress: 0.2 })]
    renderControls()
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }))
    let dialog = screen.getByRole('dialog', { name: 'Stop computation?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop' }))
    await within(dialog).findByRole('button', { name: 'Done' })
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }))

    server.sequence = [record({ state: 'running', progress: 0.3 })]
    server.cancelStatus = 409
    cleanup()
    renderControls()
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }))
    dialog = screen.getByRole('dialog', { name: 'Stop computation?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop' }))
    await waitFor(() => expect(toasts()).toContain('Canceling discretization failed'))
    expect(toasts()).toContain('The discretization has already ended.')
  })
})

describe('discretizationIssues', () => {
  it('puts part messages on the part and the rest on the discretization', () => {
    expect(
      discretizationIssues(
        record({
          state: 'failed',
          errors: [{ description: 'No fluid.', partId: null }],
          warnings: [{ description: 'Thin wall.', partId: 13 }],
        }),
      ),
    ).toEqual([
      { level: 'error', field: 'discretization', message: 'No fluid.' },
      { level: 'warning', field: 'parts.13.discretization', message: 'Thin wall.' },
    ])
  })
})
