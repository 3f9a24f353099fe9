import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  defaultMesh,
  type Mesh,
  type Sensor,
  type VolumeClip,
} from '../../../../../domain/meshes.ts'
import { defaultAppearance } from '../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import type { SensorRecomputation } from '../../../../../domain/rest/sensorRoutes.ts'
import type { Engine } from '../../../../../engine/client.ts'
import type { RenderIntent } from '../../../../../engine/protocol.ts'
import {
  ResultsSession,
  type ResultsSocketLike,
} from '../../../../../engine/results/ResultsSession.ts'
import {
  parseResultsClientFrame,
  type ResultsServerFrame,
} from '../../../../../domain/resultsProtocol.ts'
import { tokenStore } from '../../../../api/index.ts'
import { Toasts } from '../../../../components/Toasts.tsx'
import { resultsSessionFactoryAtom } from '../../../../state/resultsSession.ts'
import { viewportEngineAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { sensorDataVersionAtom } from './explorerAtoms.ts'
import { ResultsExplorer } from './ResultsExplorer.tsx'
import { COMPUTE_SENSORS_WHILE_RUNNING } from './SensorsSection.tsx'

/*
 * The explorer against a fake API (fetch stub keeping sensors, clips, meshes and the
 * recomputation in memory) and a fake engine recording intents.
 */

const SIMULATION = {
  id: 5,
  state: 'completed',
  activeRunId: 3,
  settings: { airDrag: false },
} as unknown as Simulation

const object = (
  objectId: string,
  kind: 'fluid' | 'wall_boundary' | 'open_boundary',
  name: string,
  sourceId: number,
) => ({
  objectId,
  kind,
  name,
  sourceId,
  columns: ['pressure'],
  particleCount: { full: 10, fast: 10 },
  triangleCount: 0,
  sizeBytes: { full: 100, fast: 100 },
})

const LIST: OutputManifestList = {
  simulationId: 5,
  runId: 3,
  outputs: [0, 1, 2].map((outputNo) => ({
    formatVersion: '1.0',
    simulationId: 5,
    runId: 3,
    outputNo,
    timeS: outputNo * 0.1,
    objects: [
      object('fluid-0', 'fluid', 'Water', 0),
      object('wall-2', 'wall_boundary', 'Tank', 2),
      object('open-4', 'open_boundary', 'Outlet', 4),
    ],
  })),
}

interface Call {
  method: string
  path: string
  body: unknown
}

const IDLE: SensorRecomputation = {
  id: null,
  simulationId: 5,
  runId: null,
  state: 'unknown',
  progress: 0,
  sensorIds: [],
  outputsDone: 0,
  outputsTotal: 0,
  failedOutputs: [],
  errors: [],
  warnings: [],
  createdAt: null,
  updatedAt: null,
}

let server: {
  sensors: Sensor[]
  clips: VolumeClip[]
  meshes: Map<number, Mesh>
  recomputation: SensorRecomputation
  nextId: number
  /** 'METHOD path' → status to fail with. */
  failures: Map<string, number>
  calls: Call[]
}

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    }),
  )

function handle(method: string, path: string, body: unknown): Promise<Response> {
  const failure = server.failures.get(`${method} ${path}`)
  if (failure)
    return json({ code: 'conflict', title: 'Refused', message: 'Refused by the fake' }, failure)
  const id = Number(path.split('/').at(-1))
  switch (`${method} ${path.replace(/\/\d+$/, '/:id')}`) {
    case 'GET /api/simulations/5/custom_sensors':
      return json(server.sensors)
    case 'POST /api/simulations/5/custom_sensors': {
      const input = body as { name: string; kind: 'point'; position: [number, number, number] }
      const sensor: Sensor = {
        id: server.nextId++,
        name: input.name,
        kind: 'point',
        position: input.position,
        appearance: { visibility: true },
        outputs: [],
      }
      server.sensors.push(sensor)
      return json(sensor, 201)
    }
    case 'PUT /api/custom_sensors/:id': {
      const sensor = server.sensors.find((candidate) => candidate.id === id)!
      Object.assign(sensor, body)
      return json(sensor)
    }
    case 'DELETE /api/custom_sensors/:id':
      server.sensors = server.sensors.filter((sensor) => sensor.id !== id)
      return json({ id })
    case 'POST /api/simulations/5/meshes': {
      const mesh = { ...defaultMesh((body as Mesh).kind, server.nextId++), ...(body as object) }
      server.meshes.set(mesh.id, mesh)
      return json(mesh, 201)
    }
    case 'PUT /api/meshes/:id': {
      const mesh = { ...server.meshes.get(id)!, ...(body as object) } as Mesh
      server.meshes.set(id, mesh)
      return json(mesh)
    }
    case 'GET /api/simulations/5/volume_clips':
      return json(server.clips)
    case 'POST /api/simulations/5/volume_clips': {
      const input = body as { name: string; meshId: number; materialId: number | null }
      const clip: VolumeClip = {
        id: server.nextId++,
        name: input.name,
        mesh: server.meshes.get(input.meshId)!,
        appearance: defaultAppearance(0),
        materialId: input.materialId ?? null,
        inverted: false,
        kind: 'volumeClip',
      }
      server.clips.push(clip)
      return json(clip, 201)
    }
    case 'PUT /api/simulations/5/volume_clips': {
      for (const update of body as { id: number; appearance?: { visibility: boolean } }[]) {
        const clip = server.clips.find((candidate) => candidate.id === update.id)!
        if (update.appearance)
          clip.appearance = { ...clip.appearance, visibility: update.appearance.visibility }
      }
      return json(server.clips)
    }
    case 'DELETE /api/volume_clips/:id':
      server.clips = server.clips.filter((clip) => clip.id !== id)
      return json({ id })
    case 'GET /api/simulations/5/sensor_outputs/recomputation':
      return json(server.recomputation)
    case 'POST /api/simulations/5/sensor_outputs/recomputation':
      server.recomputation = { ...IDLE, id: 9, state: 'running', progress: 0.25 }
      return json(server.recomputation, 201)
    case 'DELETE /api/simulations/5/sensor_outputs/recomputation':
      server.recomputation = { ...server.recomputation, state: 'canceled' }
      return json(server.recomputation)
  }
  return json({ code: 'not_found', title: 'Not found', message: path }, 404)
}

/*
 * The results server behind the session: fetch.info lists one mask per clip in `masked`, and
 * stats.calc over a clip's masks answers null (empty) for the clips in `emptyClips`. Statistics
 * replies wait in `held` while `holdStatistics` is set.
 */
const results = {
  masked: new Set<number>(),
  emptyClips: new Set<number>(),
  holdStatistics: false,
  held: [] as (() => void)[],
}

const MASK_ID_BASE = 1000

class FakeResultsSocket implements ResultsSocketLike {
  readyState = 0
  binaryType = 'blob'
  onopen: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  onerror: ((event: unknown) => void) | null = null

  constructor() {
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
    const requestId = frame.requestId
    switch (frame.type) {
      case 'sys.hello':
        return this.reply({ type: 'sys.hello.resp', requestId, protocolVersion: 1 })
      case 'sys.heartbeat':
        return this.reply({ type: 'sys.heartbeat.resp', requestId })
      case 'fetch.info':
        for (const outputNo of frame.outputs)
          this.reply({
            type: 'fetch.info.resp',
            requestId,
            outputNo,
            timeS: 0,
            objects: [],
            masks: [...results.masked].map((clipId) => ({
              id: MASK_ID_BASE + clipId,
              materialId: 0,
              appearance: { visibility: true },
              volumeClipId: clipId,
            })),
            stats: {
              full: { particleCount: 10, triangleCount: 0 },
              fast: { particleCount: 10, triangleCount: 0 },
            },
          })
        return
      case 'stats.calc': {
        const clipId = (frame.masks[0] ?? 0) - MASK_ID_BASE
        const answer = () => {
          this.reply({
            type: 'stats.calc.output_statistic',
            requestId,
            outputNo: frame.outputs[0] ?? 0,
            statistic: 'min',
            value: results.emptyClips.has(clipId) ? null : -0.2,
          })
          this.reply({ type: 'stats.calc.done', requestId, state: 'completed' })
        }
        if (results.holdStatistics) results.held.push(answer)
        else answer()
        return
      }
      case 'cancel':
        return this.reply({
          type: 'cancel.resp',
          requestId,
          targetRequestId: frame.targetRequestId,
          canceled: false,
        })
      default:
        return this.reply({ type: 'error', requestId, message: 'unexpected' })
    }
  }
}

const intents: RenderIntent[] = []
const fakeEngine = { dispatch: (intent: RenderIntent) => intents.push(intent) } as unknown as Engine

beforeEach(() => {
  intents.length = 0
  results.masked.clear()
  results.emptyClips.clear()
  results.holdStatistics = false
  results.held.length = 0
  server = {
    sensors: [],
    clips: [],
    meshes: new Map(),
    recomputation: IDLE,
    nextId: 100,
    failures: new Map(),
    calls: [],
  }
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://x')
      const method = init?.method ?? 'GET'
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
      server.calls.push({ method, path: url.pathname, body })
      return handle(method, url.pathname, body)
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderExplorer(simulation: Simulation = SIMULATION, shownOutput = 1) {
  const store = createStore()
  store.set(viewportEngineAtom, fakeEngine)
  store.set(resultsSessionFactoryAtom, {
    create: () =>
      new ResultsSession({
        url: 'ws://test/ws/results',
        createSocket: () => new FakeResultsSocket(),
        readToken: () => 'token',
      }),
  })
  store.set(viewportStateAtom, {
    status: 'ready',
    failure: null,
    dataWorkerCount: 1,
    snapshot: { shownOutput } as never,
  })
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider store={store}>
      <QueryClientProvider client={client}>
        <ResultsExplorer simulation={simulation} list={LIST} />
        <Toasts />
      </QueryClientProvider>
    </JotaiProvider>,
  )
  return store
}

const callsTo = (method: string, path: string) =>
  server.calls.filter((call) => call.method === method && call.path === path)

const sensor = (patch: Partial<Sensor> = {}): Sensor =>
  ({
    id: 7,
    name: 'Probe',
    kind: 'point',
    position: [0.1, 0.2, 0.3],
    appearance: { visibility: true },
    outputs: [],
    ...patch,
  }) as Sensor

describe('ResultsExplorer: output objects', () => {
  it('lists fluids, walls and open boundaries and sends their views to the engine', () => {
    renderExplorer()
    expect(screen.getByRole('list', { name: 'Fluids' }).textContent).toContain('Water')
    expect(screen.getByRole('list', { name: 'Walls' }).textContent).toContain('Tank')
    expect(screen.getByRole('list', { name: 'Open boundaries' }).textContent).toContain('Outlet')

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show Water' }))
    expect(intents.at(-1)).toEqual({
      type: 'set_material_display',
      objectId: 'fluid-0',
      mode: 'particles_spheres',
      visible: false,
    })
    fireEvent.change(screen.getByLabelText('Display mode of Water'), {
      target: { value: 'surface' },
    })
    expect(intents.at(-1)).toMatchObject({ mode: 'surface', visible: false })

    fireEvent.change(screen.getByLabelText('View of Tank'), { target: { value: 'wireframe' } })
    expect(intents.at(-1)).toEqual({
      type: 'set_part_view',
      objectId: 'wall-2',
      mode: 'wireframe',
      visible: true,
    })
    expect(screen.getByLabelText<HTMLSelectElement>('View of Outlet').value).toBe('surface')
  })

  it('shows Air Drag and Periodic Boundary as read-only items', () => {
    renderExplorer({ ...SIMULATION, settings: { airDrag: true } } as unknown as Simulation)
    expect(screen.getByRole('listitem', { name: 'Air Drag' }).textContent).toContain('Enabled')
    expect(screen.getByRole('listitem', { name: 'Periodic Boundary' }).textContent).toContain(
      'Not defined',
    )
  })
})

describe('ResultsExplorer: sensors', () => {
  it('adds a point sensor after the form is valid, and shows it in pre mode with the hint', async () => {
    renderExplorer()
    await screen.findByText('No sensors yet.')
    fireEvent.click(screen.getByRole('button', { name: 'Add sensor' }))
    const dialog = screen.getByRole('dialog', { name: 'Add sensor' })
    const name = within(dialog).getByLabelText('Name')
    expect((name as HTMLInputElement).value).toBe('Sensor 1')

    fireEvent.change(name, { target: { value: 'Tank' } })
    fireEvent.change(within(dialog).getByLabelText('Position y (m)'), { target: { value: 'x' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    expect(within(dialog).getByText('Name is already used')).toBeTruthy()
    expect(within(dialog).getByText('This field requires a valid number.')).toBeTruthy()
    expect(callsTo('POST', '/api/simulations/5/custom_sensors')).toHaveLength(0)

    fireEvent.change(name, { target: { value: 'Probe A' } })
    fireEvent.change(within(dialog).getByLabelText('Position x (m)'), {
      target: { value: '0.5' },
    })
    fireEvent.change(within(dialog).getByLabelText('Position y (m)'), { target: { value: '0' } })
    fireEvent.change(within(dialog).getByLabelText('Position z (m)'), {
      target: { value: '0.25' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(callsTo('POST', '/api/simulations/5/custom_sensors')[0]?.body).toEqual({
      kind: 'point',
      name: 'Probe A',
      position: [0.5, 0, 0.25],
    })
    const list = screen.getByRole('list', { name: 'Sensor list' })
    await within(list).findByText('Probe A')
    expect(within(list).getByLabelText('Probe A mode').textContent).toContain('Pre')
    expect(within(list).getByText(/Compute Sensors after changing its definition/)).toBeTruthy()
  })

  it('shows a sensor with data at the shown output in post mode, without the hint', async () => {
    server.sensors = [sensor({ outputs: [0, 1, 2] })]
    renderExplorer(SIMULATION, 1)
    const mode = await screen.findByLabelText('Probe mode')
    expect(mode.textContent).toContain('Post')
    expect(screen.queryByText(/Compute Sensors after changing/)).toBeNull()
  })

  it('edits a sensor position with PUT /custom_sensors/{id}', async () => {
    server.sensors = [sensor()]
    renderExplorer()
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Probe' }))
    const dialog = screen.getByRole('dialog', { name: 'Edit sensor' })
    expect(within(dialog).getByLabelText<HTMLInputElement>('Position z (m)').value).toBe('0.3')
    fireEvent.change(within(dialog).getByLabelText('Position z (m)'), { target: { value: '0.4' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(callsTo('PUT', '/api/custom_sensors/7')[0]?.body).toEqual({
      name: 'Probe',
      position: [0.1, 0.2, 0.4],
    })
  })

  it('sends a surface sensor mesh only when its shape changed (a mesh change clears samples)', async () => {
    const mesh = { ...defaultMesh('circle', 60), radius: 0.2 }
    server.meshes.set(60, mesh)
    server.sensors = [
      { id: 8, name: 'Disc', kind: 'surface', mesh, appearance: { visibility: true }, outputs: [] },
    ]
    renderExplorer()
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Disc' }))
    let dialog = screen.getByRole('dialog', { name: 'Edit sensor' })
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Mesh kind').disabled).toBe(true)
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Disc A' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(callsTo('PUT', '/api/meshes/60')).toHaveLength(0)
    expect(callsTo('PUT', '/api/custom_sensors/8')[0]?.body).toEqual({ name: 'Disc A' })

    fireEvent.click(await screen.findByRole('button', { name: 'Edit Disc A' }))
    dialog = screen.getByRole('dialog', { name: 'Edit sensor' })
    fireEvent.change(within(dialog).getByLabelText('Radius (m)'), { target: { value: '0.3' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(callsTo('PUT', '/api/meshes/60')).toHaveLength(1))
    expect(callsTo('PUT', '/api/meshes/60')[0]?.body).toMatchObject({ kind: 'circle', radius: 0.3 })
  })

  it('deletes only on the second click; leaving the armed button disarms it', async () => {
    server.sensors = [sensor()]
    renderExplorer()
    const button = await screen.findByRole('button', { name: 'Delete Probe' })
    fireEvent.click(button)
    expect(button.getAttribute('aria-label')).toBe('Confirm: Delete Probe')
    fireEvent.blur(button)
    expect(button.getAttribute('aria-label')).toBe('Delete Probe')
    fireEvent.click(button)
    expect(callsTo('DELETE', '/api/custom_sensors/7')).toHaveLength(0)
    fireEvent.click(button)
    await waitFor(() => expect(callsTo('DELETE', '/api/custom_sensors/7')).toHaveLength(1))
    await waitFor(() => expect(screen.queryByText('Probe')).toBeNull())
  })

  it('shows a toast when the server refuses a new sensor and keeps the dialog open', async () => {
    server.failures.set('POST /api/simulations/5/custom_sensors', 409)
    renderExplorer()
    await screen.findByText('No sensors yet.')
    fireEvent.click(screen.getByRole('button', { name: 'Add sensor' }))
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect(await screen.findByText('Adding sensor failed')).toBeTruthy()
    expect(screen.getByRole('dialog', { name: 'Add sensor' })).toBeTruthy()
  })

  it('locks adding, editing and deleting sensors while the simulation runs', async () => {
    server.sensors = [sensor()]
    renderExplorer({ ...SIMULATION, state: 'running' })
    await screen.findByText('Probe')
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add sensor' }).disabled).toBe(
      true,
    )
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Edit Probe' }).disabled).toBe(
      true,
    )
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Delete Probe' }).disabled).toBe(
      true,
    )
    expect(
      screen.getByText(
        'Sensors cannot be added or edited while the simulation is running or scheduled.',
      ),
    ).toBeTruthy()
  })
})

describe('ResultsExplorer: sensor computation', () => {
  it('computes sensors, then stops after the confirmation: Yes, stop → Stopping... → Done', async () => {
    server.sensors = [sensor()]
    const store = renderExplorer()
    const compute = await screen.findByRole('button', { name: 'Compute Sensors' })
    await waitFor(() => expect((compute as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(compute)
    const stop = await screen.findByRole('button', { name: 'Stop computation' })
    expect(screen.getByLabelText('Sensor computation progress').textContent).toContain('25%')
    expect(callsTo('POST', '/api/simulations/5/sensor_outputs/recomputation')).toHaveLength(1)

    fireEvent.click(stop)
    const dialog = screen.getByRole('dialog', { name: 'Stop computation?' })
    expect(dialog.textContent).toContain(
      'There is no resume option. You will need to recompute Sensors from the beginning.',
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop' }))
    await within(dialog).findByRole('button', { name: 'Done' })
    expect(callsTo('DELETE', '/api/simulations/5/sensor_outputs/recomputation')).toHaveLength(1)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    // The job ended: the sensors are refetched and sensor data holders are told to resync.
    await screen.findByRole('button', { name: 'Compute Sensors' })
    await waitFor(() => expect(store.get(sensorDataVersionAtom)).toBe(1))
  })

  it('names the outputs whose computation failed', async () => {
    server.sensors = [sensor()]
    server.recomputation = { ...IDLE, id: 3, state: 'done', progress: 1, failedOutputs: [2, 5] }
    renderExplorer()
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Computation failed for outputs: 2, 5',
    )
  })

  it('cannot compute sensors while the simulation runs (issue 14)', async () => {
    server.sensors = [sensor()]
    renderExplorer({ ...SIMULATION, state: 'running' })
    await screen.findByText('Probe')
    const compute = await screen.findByRole<HTMLButtonElement>('button', {
      name: 'Compute Sensors',
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(compute.disabled).toBe(true)
    expect(compute.title).toBe(COMPUTE_SENSORS_WHILE_RUNNING)
  })

  it('cannot compute without sensors', async () => {
    renderExplorer()
    await screen.findByText('No sensors yet.')
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Compute Sensors' }).disabled,
    ).toBe(true)
  })
})

describe('ResultsExplorer: volume clips', () => {
  it('adds a cube clip (mesh first, then the clip) and shows its item state', async () => {
    renderExplorer()
    await screen.findByText('No volume clips yet.')
    fireEvent.click(screen.getByRole('button', { name: 'Add volume clip' }))
    const dialog = screen.getByRole('dialog', { name: 'Add volume clip' })
    fireEvent.change(within(dialog).getByLabelText('Dimensions y (m)'), { target: { value: '0' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    expect(within(dialog).getByText('Dimensions must be greater than 0.')).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('Dimensions y (m)'), {
      target: { value: '0.5' },
    })
    fireEvent.change(within(dialog).getByLabelText('Material'), { target: { value: '0' } })
    fireEvent.click(within(dialog).getByLabelText('Inverted'))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())

    expect(callsTo('POST', '/api/simulations/5/meshes')[0]?.body).toEqual({
      kind: 'cube',
      center: [0, 0, 0],
      dimensions: [1, 0.5, 1],
    })
    expect(callsTo('POST', '/api/simulations/5/volume_clips')[0]?.body).toEqual({
      name: 'Volume Clip 1',
      meshId: 100,
      materialId: 0,
      inverted: true,
    })
    const item = await screen.findByRole('listitem', { name: 'Volume Clip 1' })
    // No mask for the new clip in this output yet.
    await waitFor(() =>
      expect(item.textContent).toContain('Results can not be loaded yet, please wait.'),
    )
  })

  it('shows a clip loading while its mask is worked out, then empty or valid', async () => {
    const clip = (id: number, name: string): VolumeClip => ({
      id,
      name,
      mesh: defaultMesh('cube', id + 50),
      appearance: defaultAppearance(0),
      materialId: null,
      inverted: false,
      kind: 'volumeClip',
    })
    server.clips = [clip(30, 'Inside'), clip(31, 'Outside')]
    results.masked.add(30).add(31)
    results.emptyClips.add(31)
    results.holdStatistics = true
    renderExplorer()
    const inside = await screen.findByRole('listitem', { name: 'Inside' })
    await within(inside).findByRole('status', { name: 'Loading Inside' })
    expect(inside.textContent).not.toContain('Results can not be loaded yet')

    act(() => {
      for (const answer of results.held.splice(0)) answer()
    })
    const outside = screen.getByRole('listitem', { name: 'Outside' })
    await waitFor(() =>
      expect(outside.textContent).toContain(
        'Volume Clip is empty at current output. Check position and normal orientation.',
      ),
    )
    expect(inside.textContent).not.toContain('Volume Clip is empty')
    expect(within(inside).queryByRole('status')).toBeNull()
  })

  it('rolls visibility back and shows a toast when the server refuses', async () => {
    const mesh = defaultMesh('sphere', 50)
    server.clips = [
      {
        id: 20,
        name: 'Ball',
        mesh,
        appearance: defaultAppearance(0),
        materialId: null,
        inverted: false,
        kind: 'volumeClip',
      },
    ]
    server.failures.set('PUT /api/simulations/5/volume_clips', 500)
    renderExplorer()
    const toggle = await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Show Ball' })
    expect(toggle.checked).toBe(true)
    fireEvent.click(toggle)
    expect(await screen.findByText('Updating volume clip failed')).toBeTruthy()
    await waitFor(() => expect(toggle.checked).toBe(true))
    expect(callsTo('PUT', '/api/simulations/5/volume_clips')[0]?.body).toEqual([
      { id: 20, appearance: { visibility: false } },
    ])
  })

  it('deletes a clip on the second click', async () => {
    server.clips = [
      {
        id: 21,
        name: 'Slab',
        mesh: defaultMesh('plane', 51),
        appearance: defaultAppearance(0),
        materialId: null,
        inverted: false,
        kind: 'volumeClip',
      },
    ]
    renderExplorer()
    const button = await screen.findByRole('button', { name: 'Delete Slab' })
    fireEvent.click(button)
    expect(callsTo('DELETE', '/api/volume_clips/21')).toHaveLength(0)
    fireEvent.click(button)
    await waitFor(() => expect(callsTo('DELETE', '/api/volume_clips/21')).toHaveLength(1))
  })
})
