import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultMesh, type Sensor, type VolumeClip } from '../../../../../domain/meshes.ts'
import { defaultAppearance } from '../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { Engine } from '../../../../../engine/client.ts'
import type { OverlayIntent } from '../../../../../engine/overlayProtocol.ts'
import type { RenderIntent } from '../../../../../engine/protocol.ts'
import { tokenStore } from '../../../../api/index.ts'
import { Toasts } from '../../../../components/Toasts.tsx'
import { overlaysIntent, SENSOR_OVERLAY_COLOUR } from './overlayViews.ts'
import { SensorsSection } from './SensorsSection.tsx'
import { useResultsOverlays } from './useResultsOverlays.ts'

/*
 * Sensors and volume clips drawn over the results: what the page posts to the engine, and the
 * sensors' visibility toggle (against a fetch stub keeping them in memory).
 */

const SIMULATION = {
  id: 5,
  state: 'running',
  activeRunId: 3,
  settings: { airDrag: false },
} as unknown as Simulation

const surfaceMesh = { ...defaultMesh('cube', 21), meshUrl: '/api/meshes/21/mesh?v=abc' }
const clipMesh = { ...defaultMesh('sphere', 31), meshUrl: '/api/meshes/31/mesh?v=def' }

const pointSensor = (): Extract<Sensor, { kind: 'point' }> => ({
  id: 1,
  name: 'Probe',
  kind: 'point',
  position: [0.1, 0.2, 0.3],
  appearance: { visibility: true },
  outputs: [],
})

const clip = (): VolumeClip => ({
  id: 3,
  name: 'Downstream',
  mesh: clipMesh,
  appearance: { ...defaultAppearance(2), visibility: true },
  materialId: 0,
  inverted: true,
  kind: 'volumeClip',
})

let sensors: Sensor[] = []
let refuseSensorUpdates = false
const puts: { path: string; body: unknown }[] = []

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    }),
  )

beforeEach(() => {
  sensors = [pointSensor()]
  refuseSensorUpdates = false
  puts.length = 0
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://x')
      const method = init?.method ?? 'GET'
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
      if (method === 'GET' && url.pathname === '/api/simulations/5/custom_sensors')
        return json(sensors)
      if (method === 'GET' && url.pathname === '/api/simulations/5/volume_clips')
        return json([clip()])
      if (method === 'GET' && url.pathname === '/api/simulations/5/sensor_outputs/recomputation')
        return json({ id: null, simulationId: 5, runId: null, state: 'unknown', progress: 0 })
      if (method === 'PUT' && url.pathname.startsWith('/api/custom_sensors/')) {
        puts.push({ path: url.pathname, body })
        if (refuseSensorUpdates)
          return json({ code: 'conflict', title: 'Refused', message: 'Refused by the fake' }, 409)
        const sensor = sensors.find((s) => s.id === Number(url.pathname.split('/').at(-1)))!
        Object.assign(sensor, body)
        return json(sensor)
      }
      return json({ code: 'not_found', title: 'Not found', message: url.pathname }, 404)
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function Overlays({ engine }: { engine: Engine }) {
  useResultsOverlays(SIMULATION, engine)
  return <SensorsSection simulation={SIMULATION} shownOutput={0} otherNames={[]} />
}

function renderOverlays() {
  const intents: RenderIntent[] = []
  const engine = { dispatch: (intent: RenderIntent) => intents.push(intent) } as unknown as Engine
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider store={createStore()}>
      <QueryClientProvider client={queryClient}>
        <Overlays engine={engine} />
        <Toasts />
      </QueryClientProvider>
    </JotaiProvider>,
  )
  const lastOverlays = () =>
    intents.filter((intent): intent is OverlayIntent => intent.type === 'set_overlays').at(-1)
  return { lastOverlays }
}

describe('sensors and volume clips over the results', () => {
  it('posts point sensors as markers, surface sensors and clips as their placed meshes', () => {
    const surface: Sensor = {
      id: 2,
      name: 'Gauge',
      kind: 'surface',
      mesh: surfaceMesh,
      appearance: { visibility: false },
      outputs: [],
    }
    const unfinished: Sensor = { ...pointSensor(), id: 4, position: [1, null, 2] }
    const intent = overlaysIntent([pointSensor(), surface, unfinished], [clip()])
    expect(intent.sensors.map((view) => [view.id, view.geometry, view.appearance.visible])).toEqual(
      [
        ['sensor:1', { type: 'point', position: [0.1, 0.2, 0.3] }, true],
        ['sensor:2', { type: 'mesh', url: '/api/meshes/21/mesh?v=abc', hash: 'abc' }, false],
        ['sensor:4', { type: 'none' }, true],
      ],
    )
    expect(intent.sensors[0]!.appearance.color).toBe(SENSOR_OVERLAY_COLOUR)
    const [view] = intent.clips
    expect(view).toMatchObject({
      view: {
        id: 'volume_clip:3',
        kind: 'volume_clip',
        geometry: { type: 'mesh', url: '/api/meshes/31/mesh?v=def', hash: 'def' },
        appearance: { color: clip().appearance.color, visible: true },
      },
      mesh: clipMesh,
      inverted: true,
      materialId: 0,
    })
  })

  it("follows the sensors' visibility toggle, while the simulation runs too", async () => {
    const { lastOverlays } = renderOverlays()
    await waitFor(() => expect(lastOverlays()?.sensors).toHaveLength(1))
    expect(lastOverlays()?.clips.map((c) => c.view.id)).toEqual(['volume_clip:3'])
    const toggle = await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Show Probe' })
    expect(toggle.disabled).toBe(false)
    fireEvent.click(toggle)
    // At once (before the server answers), then as the server has it.
    await waitFor(() => expect(lastOverlays()?.sensors[0]?.appearance.visible).toBe(false))
    await waitFor(() =>
      expect(puts).toEqual([
        { path: '/api/custom_sensors/1', body: { appearance: { visibility: false } } },
      ]),
    )
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Show Probe' }).checked).toBe(
      false,
    )
  })

  it('rolls the toggle back when the server refuses it, with the failure toast', async () => {
    refuseSensorUpdates = true
    const { lastOverlays } = renderOverlays()
    const toggle = await screen.findByRole('checkbox', { name: 'Show Probe' })
    fireEvent.click(toggle)
    expect(await screen.findByText('Updating sensor failed')).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Show Probe' }).checked).toBe(
        true,
      ),
    )
    expect(lastOverlays()?.sensors[0]?.appearance.visible).toBe(true)
  })
})
