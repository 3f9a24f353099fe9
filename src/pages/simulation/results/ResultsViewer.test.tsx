import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../domain/projects.ts'
import { defaultSettings } from '../../../../domain/settings.ts'
import type { OutputManifestList } from '../../../../domain/rest/resultsRoutes.ts'
import { defaultViewportState, type ViewportState } from '../../../../domain/results.ts'
import type { EngineState } from '../../../../engine/client.ts'
import type { RenderIntent, RenderSnapshot } from '../../../../engine/protocol.ts'
import { tokenStore } from '../../../api/index.ts'
import { clipAtom, colourMapChoiceAtom, partViewsAtom } from '../../../state/viewportAtoms.ts'
import { ResultsViewer } from './ResultsViewer.tsx'

/*
 * The engine is replaced by a recorder: these tests check what the page asks of it (intents) and
 * what it shows of its snapshots. The real workers are exercised by tests/e2e/viewport.spec.ts.
 */

const fake = vi.hoisted(() => ({
  intents: [] as RenderIntent[],
  tokens: [] as (string | null)[],
  disposed: 0,
  listeners: new Set<(state: EngineState) => void>(),
  state: null as EngineState | null,
}))

vi.mock('../../../../engine/client.ts', () => ({
  createEngine: (_canvas: HTMLCanvasElement, options: { accessToken?: string | null }) => {
    fake.tokens.push(options.accessToken ?? null)
    fake.state = { status: 'ready', snapshot: null, failure: null, dataWorkerCount: 0 }
    return {
      dispatch: (intent: RenderIntent) => fake.intents.push(intent),
      setAccessToken: (token: string | null) => fake.tokens.push(token),
      saveImage: () => Promise.resolve(new Blob()),
      getState: () => fake.state,
      subscribe: (listener: (state: EngineState) => void) => {
        fake.listeners.add(listener)
        return () => fake.listeners.delete(listener)
      },
      ready: Promise.resolve(),
      dispose: () => {
        fake.disposed++
      },
    }
  },
}))

const SIMULATION = {
  id: 5,
  name: 'Dam break',
  state: 'completed',
  activeRunId: 3,
  settings: defaultSettings(),
} as Simulation

function manifest(outputNo: number) {
  return {
    formatVersion: '1.0',
    simulationId: 5,
    runId: 3,
    outputNo,
    timeS: outputNo * 0.05,
    objects: [
      {
        objectId: 'fluid-0',
        kind: 'fluid' as const,
        name: 'Fluid 1',
        sourceId: 0,
        columns: ['vx', 'vy', 'vz', 'pressure', 'density', 'mass'],
        particleCount: { full: 1000, fast: 1000 },
        triangleCount: 0,
        sizeBytes: { full: 40_000, fast: 40_000 },
      },
      {
        objectId: 'wall-1',
        kind: 'wall_boundary' as const,
        name: 'Tank',
        sourceId: 1,
        columns: ['pressure'],
        particleCount: { full: 200, fast: 200 },
        triangleCount: 12,
        sizeBytes: { full: 9_000, fast: 9_000 },
      },
    ],
  }
}

const LIST: OutputManifestList = {
  simulationId: 5,
  runId: 3,
  outputs: [manifest(0), manifest(1), manifest(2)],
}

const SNAPSHOT: RenderSnapshot = {
  camera: { position: [1, 1, 1], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
  fps: 24.4,
  pointsDrawn: 123456,
  trianglesDrawn: 12,
  shownOutput: 1,
  loadedOutputs: [1],
  loadingOutputs: [2],
  bytesInFlight: 0,
  dataRange: { min: 0, max: 2.5 },
  colourRange: { min: 0, max: 2.5 },
  playing: false,
  speed: 1,
  scaleBar: null,
  pick: null,
  hover: null,
  error: null,
  colourStatus: null,
}

function publish(patch: Partial<EngineState>) {
  fake.state = { ...fake.state!, ...patch }
  act(() => {
    for (const listener of fake.listeners) listener(fake.state!)
  })
}

let manifestBody: OutputManifestList = LIST
let savedState: ViewportState | null = null
let viewportStateStatus = 200
const puts: ViewportState[] = []

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    }),
  )

beforeEach(() => {
  fake.intents = []
  fake.tokens = []
  fake.disposed = 0
  fake.listeners.clear()
  manifestBody = LIST
  savedState = null
  viewportStateStatus = 200
  puts.length = 0
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : null
      const href = input instanceof Request ? input.url : input instanceof URL ? input.href : input
      const url = new URL(href, 'http://localhost')
      const method = (request?.method ?? init?.method ?? 'GET').toUpperCase()
      if (url.pathname === '/api/simulations/5/output_manifests') return json(manifestBody)
      if (url.pathname === '/api/simulations/5/runs/viewport_state') {
        if (viewportStateStatus !== 200)
          return json(
            { code: 'unknown_error', title: 'x', description: 'down' },
            viewportStateStatus,
          )
        if (method === 'PUT') {
          const body = JSON.parse(
            request ? await request.text() : (init?.body as string),
          ) as ViewportState
          puts.push(body)
          savedState = body
        }
        return json({ simulationId: 5, mode: 'post', state: savedState, updatedAt: null })
      }
      return Promise.resolve(new Response('{}', { status: 404 }))
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

function renderViewer(store = createStore()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <JotaiProvider store={store}>
      <QueryClientProvider client={client}>
        <ResultsViewer simulation={SIMULATION} />
      </QueryClientProvider>
    </JotaiProvider>,
  )
}

/** The controls are on screen and the viewport's engine is in place (its effect has run). */
async function waitForEngine() {
  const play = await screen.findByRole('button', { name: 'Play' })
  await waitFor(() => expect((play as HTMLButtonElement).disabled).toBe(false))
}

const ofType = <T extends RenderIntent['type']>(type: T) =>
  fake.intents.filter(
    (intent): intent is Extract<RenderIntent, { type: T }> => intent.type === type,
  )

describe('ResultsViewer', () => {
  it('hands the listed outputs to the engine with their bundle URLs and sizes, and the token', async () => {
    renderViewer()
    await waitFor(() => expect(ofType('set_outputs')).toHaveLength(1))
    expect(fake.tokens[0]).toBe('a')
    expect(ofType('set_outputs')[0]).toEqual({
      type: 'set_outputs',
      simulationId: 5,
      runId: 3,
      outputs: [0, 1, 2].map((outputNo) => ({
        outputNo,
        timeS: outputNo * 0.05,
        bundleUrl: `/api/simulations/5/runs/3/outputs/${outputNo}/bundle`,
        estimatedBytes: 49_000,
      })),
    })
    expect(ofType('set_part_view')).toEqual([
      { type: 'set_part_view', objectId: 'wall-1', mode: 'translucent', visible: true },
    ])
    expect(ofType('set_colour')[0]).toEqual({
      type: 'set_colour',
      attribute: 'velocity',
      columns: ['vx', 'vy', 'vz'],
      scheme: 'rainbow',
      range: null,
    })
  })

  it('recolours on a scheme, attribute or component change, and applies a typed range', async () => {
    renderViewer()
    await waitForEngine()
    fireEvent.click(screen.getByRole('button', { name: 'Colour scheme' }))
    fireEvent.click(screen.getByRole('option', { name: 'Diverging' }))
    expect(ofType('set_colour').at(-1)).toMatchObject({ scheme: 'diverging' })
    fireEvent.change(screen.getByLabelText('Component'), { target: { value: 'z' } })
    expect(ofType('set_colour').at(-1)).toMatchObject({ columns: ['vz'] })
    fireEvent.change(screen.getByLabelText('Attribute'), { target: { value: 'pressure' } })
    expect(ofType('set_colour').at(-1)).toMatchObject({
      attribute: 'pressure',
      columns: ['pressure'],
      range: null,
    })
    expect(screen.queryByLabelText('Component')).toBeNull()
    fireEvent.change(screen.getByLabelText('Min'), { target: { value: '10' } })
    fireEvent.change(screen.getByLabelText('Max'), { target: { value: '200' } })
    fireEvent.blur(screen.getByLabelText('Max'))
    expect(ofType('set_colour').at(-1)).toMatchObject({ range: { min: 10, max: 200 } })
    fireEvent.click(screen.getByRole('button', { name: 'Rescale' }))
    expect(ofType('set_colour').at(-1)).toMatchObject({ range: null })
  })

  it("refuses a range whose max is not above its min with the spec's message", async () => {
    renderViewer()
    await waitForEngine()
    fireEvent.change(screen.getByLabelText('Min'), { target: { value: '5' } })
    fireEvent.change(screen.getByLabelText('Max'), { target: { value: '1' } })
    fireEvent.blur(screen.getByLabelText('Max'))
    expect(screen.getByRole('alert').textContent).toContain('Max must be greater than Min.')
    expect(ofType('set_colour').some((intent) => intent.range !== null)).toBe(false)
  })

  it('plays, pauses, changes speed in powers of two and seeks with the output slider', async () => {
    renderViewer()
    await waitForEngine()
    fireEvent.click(screen.getByRole('button', { name: 'Faster' }))
    expect(ofType('set_speed').at(-1)).toEqual({ type: 'set_speed', speed: 2 })
    expect(screen.getByLabelText('Speed').textContent).toContain('2×')
    fireEvent.click(screen.getByRole('button', { name: 'Play' }))
    expect(ofType('play').at(-1)).toEqual({ type: 'play', speed: 2, loop: true })
    publish({ snapshot: { ...SNAPSHOT, playing: true } })
    fireEvent.click(await screen.findByRole('button', { name: 'Pause' }))
    expect(ofType('pause')).toHaveLength(1)
    fireEvent.change(screen.getByLabelText('Output'), { target: { value: '2' } })
    expect(ofType('show_output').at(-1)).toEqual({ type: 'show_output', outputNo: 2 })
  })

  it('toggles playback with Space unless a field has focus', async () => {
    renderViewer()
    await waitForEngine()
    fireEvent.keyDown(document.body, { code: 'Space', key: ' ' })
    expect(ofType('play')).toHaveLength(1)
    fireEvent.keyDown(screen.getByLabelText('Min'), { code: 'Space', key: ' ' })
    expect(ofType('play')).toHaveLength(1)
  })

  it('shows fps, points, the shown output with its time, loading outputs and the engine error', async () => {
    renderViewer()
    await waitForEngine()
    publish({ snapshot: SNAPSHOT })
    await waitFor(() => expect(screen.getByTestId('viewport-fps').textContent).toContain('24 fps'))
    expect(screen.getByTestId('viewport-points').textContent).toContain('123,456 points')
    expect(screen.getByTestId('timeline-label').textContent).toContain('Output 1 · 0.05 s')
    expect(screen.getByText('Loading output 2…')).toBeTruthy()
    publish({
      snapshot: { ...SNAPSHOT, error: 'Output 2 could not be loaded. The bundle is truncated.' },
    })
    // Readouts render at most every 120 ms: the second snapshot shows up a moment later.
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('The bundle is truncated.'),
    )
  })

  it('sends the detail level and dataset chosen in the dataset chip', async () => {
    renderViewer()
    await waitForEngine()
    expect(ofType('set_detail').at(-1)).toEqual({ type: 'set_detail', level: 'High' })
    expect(ofType('set_dataset').at(-1)).toEqual({ type: 'set_dataset', dataset: 'full' })
    fireEvent.click(screen.getByRole('button', { name: /^Dataset/ }))
    fireEvent.click(screen.getByLabelText('Medium (50 %)'))
    fireEvent.click(screen.getByRole('radio', { name: /^Fast/ }))
    expect(ofType('set_detail').at(-1)).toEqual({ type: 'set_detail', level: 'Medium' })
    expect(ofType('set_dataset').at(-1)).toEqual({ type: 'set_dataset', dataset: 'fast' })
  })

  it('restores the saved viewport state: colour map, clip, part views, then camera and output', async () => {
    savedState = {
      ...defaultViewportState(),
      camera: { position: [3, 2, 1], target: [0.5, 0.5, 0], up: [0, 0, 1], mode: 'orthographic' },
      colorMap: {
        scheme: 'blueRedYellow',
        attribute: 'pressure',
        subAttribute: null,
        min: 0,
        max: 900,
      },
      output: 2,
      clippingPlane: { enabled: true, axis: 'z', flipped: false, offsetM: 0.1 },
      parts: { 'wall-1': { visible: false, viewMode: 'wireframe' } },
      materials: { 'fluid-0': { visible: true, displayMode: 'particles_circles' } },
    }
    renderViewer()
    await waitForEngine()
    await waitFor(() => expect(ofType('set_camera')).toHaveLength(1))
    expect(ofType('set_camera')[0]?.camera).toEqual(savedState.camera)
    // The camera and output come after the outputs, or the first output would re-fit the camera.
    const order = fake.intents.map((intent) => intent.type)
    expect(order.indexOf('set_outputs')).toBeLessThan(order.indexOf('set_camera'))
    expect(ofType('show_output').at(-1)).toEqual({ type: 'show_output', outputNo: 2 })
    expect(ofType('set_colour').at(-1)).toMatchObject({
      attribute: 'pressure',
      scheme: 'blueRedYellow',
      range: { min: 0, max: 900 },
    })
    expect(ofType('set_clip').at(-1)?.clip).toEqual(savedState.clippingPlane)
    expect(ofType('set_part_view').at(-1)).toEqual({
      type: 'set_part_view',
      objectId: 'wall-1',
      mode: 'wireframe',
      visible: false,
    })
    expect(ofType('set_material_display').at(-1)).toEqual({
      type: 'set_material_display',
      objectId: 'fluid-0',
      mode: 'particles_circles',
      visible: true,
    })
  })

  it("starts from default views, not the previous simulation's, when nothing was saved", async () => {
    const store = createStore()
    store.set(colourMapChoiceAtom, {
      attribute: 'pressure',
      subOption: 'magnitude',
      scheme: 'binary',
      range: { min: 1, max: 2 },
    })
    store.set(clipAtom, { enabled: true, axis: 'y', flipped: true, offsetM: 3 })
    store.set(partViewsAtom, { 'wall-1': { visible: false, viewMode: 'surface' } })
    renderViewer(store)
    await waitForEngine()
    expect(ofType('set_colour').at(-1)).toMatchObject({
      attribute: 'velocity',
      scheme: 'rainbow',
      range: null,
    })
    expect(ofType('set_clip').at(-1)?.clip.enabled).toBe(false)
    expect(ofType('set_part_view').at(-1)).toMatchObject({ mode: 'translucent', visible: true })
  })

  it('saves the viewport state every 5 s when it changed, with the camera up normalized', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderViewer()
    await waitForEngine()
    publish({
      snapshot: { ...SNAPSHOT, camera: { ...SNAPSHOT.camera, up: [0, 0, 2] }, shownOutput: 1 },
    })
    await act(() => vi.advanceTimersByTimeAsync(5000))
    await waitFor(() => expect(puts).toHaveLength(1))
    expect(puts[0]).toMatchObject({
      camera: { position: [1, 1, 1], up: [0, 0, 1], mode: 'perspective' },
      colorMap: { attribute: 'velocity', subAttribute: 'magnitude', scheme: 'rainbow', min: null },
      output: 1,
      coordinateSystem: true,
      clippingPlane: { enabled: false, axis: 'x' },
    })
    // Nothing changed: nothing sent.
    await act(() => vi.advanceTimersByTimeAsync(5000))
    expect(puts).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: 'Colour scheme' }))
    fireEvent.click(screen.getByRole('option', { name: 'Binary' }))
    await act(() => vi.advanceTimersByTimeAsync(5000))
    await waitFor(() => expect(puts).toHaveLength(2))
    expect(puts[1]?.colorMap?.scheme).toBe('binary')
  })

  it('only logs a viewport state that cannot be restored or saved', async () => {
    viewportStateStatus = 500
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderViewer()
    await waitForEngine()
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('Restoring the viewport state failed:', expect.anything()),
    )
    publish({ snapshot: SNAPSHOT })
    await act(() => vi.advanceTimersByTimeAsync(5000))
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('Saving the viewport state failed:', expect.anything()),
    )
    expect(screen.queryByRole('alert')).toBeNull()
    expect(ofType('set_camera')).toHaveLength(0)
    warn.mockRestore()
  })

  it('uses the small-screen layout below 1700 px: the explorer folds away on demand', async () => {
    const width = window.innerWidth
    try {
      window.innerWidth = 1699
      const view = renderViewer()
      await waitForEngine()
      const page = view.container.querySelector('.results-page')!
      expect(page.getAttribute('data-small-screen')).toBe('true')
      const toggle = screen.getByRole('button', { name: 'Explorer' })
      expect(screen.getByRole('complementary', { name: 'Explorer' })).toBeTruthy()
      fireEvent.click(toggle)
      expect(screen.queryByRole('complementary', { name: 'Explorer' })).toBeNull()
      act(() => {
        window.innerWidth = 1700
        window.dispatchEvent(new Event('resize'))
      })
      expect(page.getAttribute('data-small-screen')).toBeNull()
      expect(screen.queryByRole('button', { name: 'Explorer' })).toBeNull()
      expect(screen.getByRole('complementary', { name: 'Explorer' })).toBeTruthy()
    } finally {
      window.innerWidth = width
    }
  })

  it('says so when the run has no outputs yet, and starts no engine', async () => {
    manifestBody = { simulationId: 5, runId: null, outputs: [] }
    renderViewer()
    expect(await screen.findByText('No outputs yet')).toBeTruthy()
    expect(fake.tokens).toHaveLength(0)
  })

  it('disposes the engine when the page goes away', async () => {
    const view = renderViewer()
    await screen.findByRole('button', { name: 'Play' })
    view.unmount()
    expect(fake.disposed).toBe(1)
  })
})
