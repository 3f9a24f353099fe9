import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultMesh } from '../../../../../domain/meshes.ts'
import { defaultAppearance } from '../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import {
  parseResultsClientFrame,
  type ResultsClientFrame,
  type ResultsServerFrame,
} from '../../../../../domain/resultsProtocol.ts'
import type { RenderSnapshot } from '../../../../../engine/protocol.ts'
import {
  ResultsSession,
  type ResultsSocketLike,
} from '../../../../../engine/results/ResultsSession.ts'
import { tokenStore } from '../../../../api/index.ts'
import { resultsSessionFactoryAtom } from '../../../../state/resultsSession.ts'
import { toastsAtom } from '../../../../state/toastsAtom.ts'
import { INITIAL_ENGINE_STATE, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { chartWindowsAtom } from '../charts/chartStore.ts'
import { sensorDataVersionAtom } from '../explorer/explorerAtoms.ts'
import { ResultsConnectionToast } from './ConnectionToast.tsx'
import { StatisticsPanel } from './StatisticsPanel.tsx'

/*
 * The panel talks to a real ResultsSession whose socket is an in-process fake results server:
 * these tests see the frames the panel sends and answer them like the server would.
 */

type StatsCalc = Extract<ResultsClientFrame, { type: 'stats.calc' }>
/** How the fake server answers a stats.calc: value per output and statistic, or a scripted end. */
type CalcBehaviour = 'answer' | 'hang' | 'silent' | 'fail'

const server = {
  received: [] as ResultsClientFrame[],
  behaviour: 'answer' as CalcBehaviour,
  missingOutputs: [] as number[],
  sockets: [] as FakeServerSocket[],
  /** Drops the first socket when it is asked stats.info. */
  dropFirstStatsInfo: false,
  sensorState: 'pending' as 'pending' | 'ready',
  /** Sensors added since the panel opened (objects of fetch.info after Probe). */
  addedSensors: [] as { id: number; kind: 'sensor'; name: string }[],
}

/** value = 1000 × outputNo + index of the statistic + 0.123456789012345 */
function valueOf(outputNo: number, statistic: string): number {
  return 1000 * outputNo + ['mean', 'min', 'max'].indexOf(statistic) + 0.123456789012345
}

class FakeServerSocket implements ResultsSocketLike {
  readyState = 0
  binaryType = 'blob'
  onopen: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  onerror: ((event: unknown) => void) | null = null

  constructor() {
    server.sockets.push(this)
    setTimeout(() => {
      this.readyState = 1
      this.onopen?.({})
    }, 0)
  }

  close(): void {
    this.readyState = 3
  }

  reply(frame: ResultsServerFrame): void {
    setTimeout(() => {
      if (this.readyState === 1) this.onmessage?.({ data: JSON.stringify(frame) })
    }, 0)
  }

  send(data: string): void {
    const frame = parseResultsClientFrame(data)
    server.received.push(frame)
    const requestId = frame.requestId
    switch (frame.type) {
      case 'sys.hello':
        return this.reply({ type: 'sys.hello.resp', requestId, protocolVersion: 1 })
      case 'sys.heartbeat':
        return this.reply({ type: 'sys.heartbeat.resp', requestId })
      case 'stats.info':
        if (server.dropFirstStatsInfo && server.sockets[0] === this) {
          this.readyState = 3
          setTimeout(() => this.onclose?.({ code: 1006 }), 0)
          return
        }
        return this.reply({
          type: 'stats.info.resp',
          requestId,
          attributes: [
            {
              attribute: 'pressure',
              subAttributes: [],
              operations: ['mean', 'min', 'max', 'median'],
            },
            {
              attribute: 'velocity',
              subAttributes: ['x', 'y', 'z', 'magnitude'],
              operations: ['mean', 'min', 'max'],
            },
          ],
        })
      case 'fetch.available_outputs':
        return this.reply({
          type: 'fetch.available_outputs.resp',
          requestId,
          outputs: [0, 1, 2, 3, 4].map((outputNo) => ({
            outputNo,
            states: { visualization: 'ready', sensor: server.sensorState },
            wallSensorState: 'unknown',
          })),
        })
      case 'fetch.info':
        for (const outputNo of frame.outputs)
          this.reply({
            type: 'fetch.info.resp',
            requestId,
            outputNo,
            timeS: outputNo * 0.1,
            objects: [
              { id: 1, kind: 'fluid', name: 'Water' },
              { id: 2, kind: 'fluid', name: 'Oil' },
              { id: 3, kind: 'wall_boundary', name: 'Tank' },
              { id: 40, kind: 'sensor', name: 'Probe' },
              ...server.addedSensors,
            ],
            masks: [{ id: 70, materialId: 1, appearance: { visibility: true } }],
            stats: {
              full: { particleCount: 100, triangleCount: 0 },
              fast: { particleCount: 10, triangleCount: 0 },
            },
          })
        return
      case 'stats.calc':
        return this.calculate(frame)
      case 'cancel':
        this.reply({
          type: 'cancel.resp',
          requestId,
          targetRequestId: frame.targetRequestId,
          canceled: true,
        })
        return this.reply({
          type: 'stats.calc.done',
          requestId: frame.targetRequestId,
          state: 'canceled',
        })
      default:
        return this.reply({ type: 'error', requestId, message: 'unexpected' })
    }
  }

  calculate(frame: StatsCalc): void {
    const requestId = frame.requestId
    if (server.behaviour === 'fail')
      return this.reply({ type: 'stats.calc.done', requestId, state: 'failed' })
    if (server.behaviour === 'silent') return
    for (const outputNo of frame.outputs) {
      if (server.missingOutputs.includes(outputNo)) {
        this.reply({ type: 'stats.calc.error', requestId, outputNo, message: 'missing' })
        continue
      }
      for (const statistic of Object.keys(frame.operations))
        this.reply({
          type: 'stats.calc.output_statistic',
          requestId,
          outputNo,
          statistic,
          value: valueOf(outputNo, statistic),
        })
      if (server.behaviour === 'hang') return
    }
    if (frame.mode === 'both')
      for (const statistic of Object.keys(frame.operations))
        this.reply({ type: 'stats.calc.all_output_statistic', requestId, statistic, value: 42 })
    this.reply({ type: 'stats.calc.done', requestId, state: 'completed' })
  }
}

const SIMULATION = {
  id: 9,
  name: 'Dam',
  state: 'completed',
  settings: { outputTimeInterval: 0.1 },
} as unknown as Simulation

const SNAPSHOT = {
  shownOutput: 2,
  playing: false,
} as RenderSnapshot

let clips: unknown[] = []
let recomputationState = 'unknown'

function renderPanel() {
  const store = createStore()
  store.set(resultsSessionFactoryAtom, {
    create: () =>
      new ResultsSession({
        url: 'ws://test/ws/results',
        createSocket: () => new FakeServerSocket(),
        readToken: () => 'token',
        // Reconnects 100 × faster than the real backoff.
        timers: {
          setTimeout: (callback, ms) => setTimeout(callback, ms / 100),
          clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
        },
      }),
  })
  store.set(viewportStateAtom, { ...INITIAL_ENGINE_STATE, status: 'ready', snapshot: SNAPSHOT })
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const view = render(
    <QueryClientProvider client={client}>
      <JotaiProvider store={store}>
        <StatisticsPanel simulation={SIMULATION} />
        <ResultsConnectionToast simulation={SIMULATION} />
      </JotaiProvider>
    </QueryClientProvider>,
  )
  return { store, view }
}

function calcRequests(): StatsCalc[] {
  return server.received.filter((f): f is StatsCalc => f.type === 'stats.calc')
}

function setShown(store: ReturnType<typeof createStore>, patch: Partial<RenderSnapshot>) {
  act(() => {
    store.set(viewportStateAtom, {
      ...INITIAL_ENGINE_STATE,
      status: 'ready',
      snapshot: { ...SNAPSHOT, ...patch },
    })
  })
}

async function chooseOutputRange() {
  fireEvent.change(await screen.findByLabelText('Outputs'), { target: { value: 'outputRange' } })
}

beforeEach(() => {
  server.received = []
  server.behaviour = 'answer'
  server.missingOutputs = []
  server.sockets = []
  server.dropFirstStatsInfo = false
  server.sensorState = 'pending'
  server.addedSensors = []
  recomputationState = 'unknown'
  clips = []
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://x')
      if (url.pathname === '/api/simulations/9/sensor_outputs/recomputation')
        return new Response(
          JSON.stringify({
            id: recomputationState === 'unknown' ? null : 1,
            simulationId: 9,
            runId: 1,
            state: recomputationState,
            progress: 0.5,
            sensorIds: [40],
            outputsDone: 2,
            outputsTotal: 5,
            failedOutputs: [],
            errors: [],
            warnings: [],
            createdAt: null,
            updatedAt: null,
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        )
      if (url.pathname === '/api/simulations/9/volume_clips')
        return new Response(JSON.stringify(clips), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        })
      return new Response('{}', { status: 404 })
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('StatisticsPanel', () => {
  it('computes the shown output on its own in current mode, with 12 significant digits', async () => {
    renderPanel()
    const table = await screen.findByRole('table', { name: 'Statistics results' })
    expect(within(table).getByText('Pressure (Pa)')).toBeTruthy()
    // 2000.123456789012345 → 12 significant digits.
    expect(within(table).getByText('2000.12345679')).toBeTruthy()
    expect(within(table).getByText('2002.12345679')).toBeTruthy()
    expect(calcRequests()).toHaveLength(1)
    expect(calcRequests()[0]).toMatchObject({
      simId: 9,
      outputs: [2],
      attribute: 'pressure',
      dataset: 'raw',
      objIds: [1, 2],
      masks: [],
      operations: { mean: ['mean'], min: ['min'], max: ['max'] },
      mode: 'output_only',
    })
  })

  it('recomputes when the shown output changes, but not while playing', async () => {
    const { store } = renderPanel()
    await screen.findByText('2000.12345679')
    setShown(store, { shownOutput: 3 })
    await screen.findByText('3000.12345679')
    expect(calcRequests().at(-1)?.outputs).toEqual([3])
    setShown(store, { shownOutput: 4, playing: true })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(calcRequests()).toHaveLength(2)
  })

  it('recomputes on a config change: a vector attribute asks for its component', async () => {
    renderPanel()
    await screen.findByText('2000.12345679')
    fireEvent.change(screen.getByLabelText('Attribute'), { target: { value: 'velocity' } })
    expect(screen.getByLabelText<HTMLSelectElement>('Component').value).toBe('magnitude')
    await waitFor(() => expect(calcRequests().at(-1)?.attribute).toBe('velocity'))
    expect(calcRequests().at(-1)?.subAttribute).toBe('magnitude')
    fireEvent.change(screen.getByLabelText('Component'), { target: { value: 'z' } })
    await waitFor(() => expect(calcRequests().at(-1)?.subAttribute).toBe('z'))
  })

  it('asks to Load in output range mode and checks the range with the spec messages', async () => {
    renderPanel()
    await chooseOutputRange()
    expect(screen.getByText('Click the Load button to view the selected data.')).toBeTruthy()
    const end = screen.getByLabelText('End output')
    fireEvent.change(end, { target: { value: '9' } })
    expect(screen.getByText('The simulation only has 4 outputs.')).toBeTruthy()
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Load' }).disabled).toBe(true)
    fireEvent.change(screen.getByLabelText('Start output'), { target: { value: '3' } })
    fireEvent.change(end, { target: { value: '1' } })
    expect(screen.getByText('The end output must be bigger than the start.')).toBeTruthy()
    fireEvent.change(end, { target: { value: '4' } })
    expect(screen.queryByText('The end output must be bigger than the start.')).toBeNull()
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Load' }).disabled).toBe(false)
  })

  it('checks a time range against the last output time', async () => {
    renderPanel()
    fireEvent.change(await screen.findByLabelText('Outputs'), { target: { value: 'timeRange' } })
    fireEvent.change(screen.getByLabelText('End time (s)'), { target: { value: '0.9' } })
    expect(screen.getByText('The simulation only lasts 0.4 seconds.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('End time (s)'), { target: { value: '0.3' } })
    fireEvent.change(screen.getByLabelText('Start time (s)'), { target: { value: '0.35' } })
    expect(screen.getByText('The end time must be bigger than the start.')).toBeTruthy()
  })

  it('loads a range: values per output, the aggregate, and Plot adds the series to the charts', async () => {
    const { store } = renderPanel()
    await chooseOutputRange()
    fireEvent.click(screen.getByRole('button', { name: 'Load' }))
    const perOutput = await screen.findByRole('table', { name: 'Statistics per output' })
    expect(within(perOutput).getAllByRole('row')).toHaveLength(6)
    expect(within(perOutput).getByText('4000.12345679')).toBeTruthy()
    expect(within(perOutput).getByText('0.4')).toBeTruthy()
    const summary = screen.getByRole('table', { name: 'Statistics summary' })
    expect(within(summary).getAllByText('42')).toHaveLength(3)
    expect(within(summary).getByRole('row', { name: /^Max Max 42/ })).toBeTruthy()
    expect(calcRequests().at(-1)).toMatchObject({ outputs: [0, 1, 2, 3, 4], mode: 'both' })
    expect(screen.queryByText('Click the Load button to view the selected data.')).toBeNull()

    fireEvent.click(within(summary).getByRole('button', { name: 'Plot Max' }))
    const windows = store.get(chartWindowsAtom)
    expect(windows).toHaveLength(1)
    const dataset = windows[0]?.datasets[0]
    expect(dataset).toMatchObject({ operation: 'max', attribute: 'pressure', objs: [1, 2] })
    expect(dataset?.data.map((p) => p.x)).toEqual([0, 1, 2, 3, 4])
    expect(dataset?.data[3]?.y).toBeCloseTo(3002.123456789, 6)
    expect(windows[0]?.layout.yLabel).toBe('Pressure (Pa)')
    expect(Object.values(windows[0]?.layout.datasetLayouts ?? {})[0]?.name).toBe(
      'Pressure max (Water, Oil)',
    )
  })

  it('lets each operation choose its aggregator over the outputs', async () => {
    renderPanel()
    await chooseOutputRange()
    fireEvent.change(screen.getByLabelText('Max over outputs'), { target: { value: 'median' } })
    fireEvent.click(screen.getByRole('button', { name: 'Load' }))
    const summary = await screen.findByRole('table', { name: 'Statistics summary' })
    expect(calcRequests().at(-1)?.operations).toEqual({
      mean: ['mean'],
      min: ['min'],
      max: ['median'],
    })
    expect(within(summary).getByRole('row', { name: /^Max Median/ })).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Max over outputs'), { target: { value: 'max' } })
    expect(screen.getByText('Click the Load button to view the selected data.')).toBeTruthy()
  })

  it('lists missing outputs: one by one below 6, else as a count', async () => {
    server.missingOutputs = [1, 3]
    renderPanel()
    await chooseOutputRange()
    fireEvent.click(screen.getByRole('button', { name: 'Load' }))
    expect(await screen.findByText('Missing data in outputs: 1, 3')).toBeTruthy()
    const perOutput = screen.getByRole('table', { name: 'Statistics per output' })
    expect(within(perOutput).getAllByText('–').length).toBeGreaterThanOrEqual(3)
  })

  it('shows progress and cancels: the server is told and the panel says Computation cancelled.', async () => {
    server.behaviour = 'hang'
    renderPanel()
    await chooseOutputRange()
    fireEvent.click(screen.getByRole('button', { name: 'Load' }))
    const progress = await screen.findByRole('progressbar', { name: 'Statistics progress' })
    await waitFor(() => expect(progress.getAttribute('value')).toBe('20'))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(await screen.findByText('Computation cancelled.')).toBeTruthy()
    const cancel = server.received.filter((f) => f.type === 'cancel').at(-1)
    expect(cancel).toMatchObject({ targetRequestId: calcRequests().at(-1)?.requestId })
    // A cancelled calculation offers no "Load previous data".
    fireEvent.click(screen.getByLabelText('Oil'))
    expect(screen.queryByRole('button', { name: 'Load previous data' })).toBeNull()
  })

  it('says Computation cancelled. beside the Load prompt when nothing had arrived yet', async () => {
    server.behaviour = 'silent'
    renderPanel()
    await chooseOutputRange()
    fireEvent.click(screen.getByRole('button', { name: 'Load' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }))
    expect(await screen.findByText('Computation cancelled.')).toBeTruthy()
    expect(screen.getByText('Click the Load button to view the selected data.')).toBeTruthy()
  })

  it('says Computation failed for unknown reason. when the server fails', async () => {
    server.behaviour = 'fail'
    renderPanel()
    expect(await screen.findByText('Computation failed for unknown reason.')).toBeTruthy()
  })

  it('fails a calculation whose socket drops, with the unknown-reason message', async () => {
    server.behaviour = 'hang'
    renderPanel()
    await screen.findByRole('progressbar', { name: 'Statistics progress' })
    act(() => {
      const socket = server.sockets[0]
      if (!socket) throw new Error('no socket')
      socket.readyState = 3
      socket.onclose?.({ code: 1006 })
    })
    expect(await screen.findByText('Computation failed for unknown reason.')).toBeTruthy()
  })

  it('goes through the state priority list: different objects, empty selection', async () => {
    renderPanel()
    await screen.findByText('2000.12345679')
    fireEvent.click(screen.getByLabelText('Tank'))
    expect(await screen.findByText('Select fluids, walls or sensors, not a mix.')).toBeTruthy()
    expect(calcRequests()).toHaveLength(1)
    // Walls alone are fine again.
    fireEvent.click(screen.getByLabelText('Water'))
    fireEvent.click(screen.getByLabelText('Oil'))
    await waitFor(() => expect(calcRequests().at(-1)?.objIds).toEqual([3]))
    fireEvent.click(screen.getByLabelText('Tank'))
    expect(await screen.findByText('Select at least one object.')).toBeTruthy()
  })

  it('says what sensors lack: computing, or no results yet; with results it computes over them', async () => {
    recomputationState = 'running'
    renderPanel()
    await screen.findByText('2000.12345679')
    const only = (name: string) => {
      for (const other of ['Water', 'Oil', 'Tank', 'Probe']) {
        const box = screen.getByLabelText<HTMLInputElement>(other)
        if (box.checked !== (other === name)) fireEvent.click(box)
      }
    }
    only('Probe')
    expect(await screen.findByText('Sensors are being computed...')).toBeTruthy()
    cleanup()

    recomputationState = 'unknown'
    renderPanel()
    await screen.findByText('2000.12345679')
    only('Probe')
    expect(
      await screen.findByText('No sensor results for the selected outputs. Compute Sensors first.'),
    ).toBeTruthy()
    cleanup()

    server.sensorState = 'ready'
    renderPanel()
    await screen.findByText('2000.12345679')
    only('Probe')
    await waitFor(() => expect(calcRequests().at(-1)?.objIds).toEqual([40]))
  })

  it('lists a sensor added and computed after it opened, without a reload (issue 14)', async () => {
    const { store } = renderPanel()
    await screen.findByText('2000.12345679')
    expect(screen.queryByLabelText('Gauge')).toBeNull()
    server.addedSensors = [{ id: 41, kind: 'sensor', name: 'Gauge' }]
    // The explorer's sign that a sensor recomputation ended.
    act(() => store.set(sensorDataVersionAtom, 1))
    expect(await screen.findByLabelText('Gauge')).toBeTruthy()
  })

  it('offers Load previous data after the selection changed, and it restores the loaded config', async () => {
    renderPanel()
    await chooseOutputRange()
    fireEvent.click(screen.getByRole('button', { name: 'Load' }))
    await screen.findByRole('table', { name: 'Statistics per output' })
    fireEvent.click(screen.getByLabelText('Oil'))
    expect(screen.getByText('Click the Load button to view the selected data.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Load previous data' }))
    expect(screen.getByLabelText<HTMLInputElement>('Oil').checked).toBe(true)
    expect(screen.getByRole('table', { name: 'Statistics per output' })).toBeTruthy()
    expect(calcRequests()).toHaveLength(2)
  })

  it('uses a volume clip as the selection mask when one exists', async () => {
    clips = [
      {
        id: 70,
        name: 'Box clip',
        mesh: defaultMesh('cube', 5),
        appearance: defaultAppearance(0),
        materialId: null,
        inverted: false,
        kind: 'volumeClip',
      },
    ]
    renderPanel()
    await screen.findByText('2000.12345679')
    const clip = await screen.findByLabelText('Volume clip')
    fireEvent.change(clip, { target: { value: '70' } })
    await waitFor(() => expect(calcRequests().at(-1)?.masks).toEqual([70]))
    // In a range mode a new clip asks for a Load like any other change.
    await chooseOutputRange()
    fireEvent.click(screen.getByRole('button', { name: 'Load' }))
    await screen.findByRole('table', { name: 'Statistics per output' })
    fireEvent.change(clip, { target: { value: '' } })
    expect(screen.getByText('Click the Load button to view the selected data.')).toBeTruthy()
  })

  it('asks again what failed when the socket dropped, once the session is back', async () => {
    server.dropFirstStatsInfo = true
    const { store } = renderPanel()
    expect(await screen.findByText('2000.12345679')).toBeTruthy()
    expect(server.sockets.length).toBeGreaterThanOrEqual(2)
    expect(store.get(toastsAtom).map((t) => t.title)).toContain(
      'Reconnected to the results server.',
    )
  })

  it('shows the connection toast for 3 s when the session opens', async () => {
    const { store } = renderPanel()
    await waitFor(() =>
      expect(store.get(toastsAtom).map((t) => t.title)).toContain(
        'Connected to the results server.',
      ),
    )
    expect(store.get(toastsAtom)[0]?.durationMs).toBe(3000)
  })
})
