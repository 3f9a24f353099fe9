import { makeSimulation as makeSimulationFixture } from '../../../../testing/fixtures.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { vi } from 'vitest'
import type { Discretization } from '../../../../../domain/discretization.ts'
import { createDefaultMaterial, type Material } from '../../../../../domain/materials.ts'
import {
  defaultMesh,
  type Mesh,
  type Sensor,
  type VolumeClip,
} from '../../../../../domain/meshes.ts'
import type { Movement } from '../../../../../domain/movements.ts'
import {
  defaultAppearance,
  defaultComponent,
  type ComponentType,
  type Part,
  type Shape,
} from '../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { CalcDomain } from '../../../../../domain/rest/setupRoutes.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import { tokenStore } from '../../../../api/index.ts'
import { Toasts } from '../../../../components/Toasts.tsx'
import { viewportEngineAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { SetupEditableContext, type SetupEditable } from '../forms/fields/editable.ts'
import { applyPartUpdate } from '../queries/partMutations.ts'
import type { RenderSnapshot } from '../../../../../engine/protocol.ts'
import { FakeEngine } from './fakeEngine.ts'

export { FakeEngine, makeSnapshot } from './fakeEngine.ts'

/*
 * Test support of the Setup view's shell (explorer, toolbar, Input Validation bar, 3D view
 * wiring): a setup server kept in memory behind a fetch stub, and a render helper with the page's
 * providers (the fake engine is fakeEngine.ts).
 */

export const SIMULATION_ID = 7
const NOW = '2026-11-26T00:00:00.000Z'

/** The download fields the server adds to parts and meshes (docs/setup-editor.md). */
const NO_FILES = { meshUrl: null, meshHash: null, pointcloudUrl: null, pointcloudCount: null }

/** A not-started simulation with default settings. */
export function makeSimulation(patch: Partial<Simulation> = {}): Simulation {
  return makeSimulationFixture({ id: SIMULATION_ID, createdAt: NOW, updatedAt: NOW, ...patch })
}

/** A 1 m cube part of a component type at `translation`, with its (placed) shape info. */
export function makePart(
  id: number,
  name: string,
  type: ComponentType,
  patch: Partial<Part> = {},
  translation: [number, number, number] = [0, 0, 0],
): Part {
  const [x, y, z] = translation
  const shape: Shape = {
    type: 'stl_cube',
    translation,
    rotation: [0, 0, 0],
    scale: [1, 1, 1],
    flipNormals: false,
    dimensions: [1, 1, 1],
    info: {
      center: [x, y, z],
      normal: null,
      isPlanar: false,
      nbrOfTriangles: 12,
      holes: [],
      nonManifold: [],
      surfaceArea: 6,
      boundingBox: { min: [x - 0.5, y - 0.5, z - 0.5], max: [x + 0.5, y + 0.5, z + 0.5] },
    },
  }
  const part = {
    id,
    simulationId: SIMULATION_ID,
    name,
    kind: type,
    createdAt: NOW,
    updatedAt: NOW,
    createdBy: 2,
    organizationId: 1,
    seedPoint: null,
    materialId: type === 'rigid' ? null : 0,
    component: defaultComponent(type),
    appearance: defaultAppearance(id),
    shape,
    hasWarnings: false,
    warnings: [],
    ...NO_FILES,
  }
  return { ...part, ...patch }
}

/** A material as the server stores it. */
export function makeMaterial(id: number, name = `Fluid ${id + 1}`): Material {
  return { ...createDefaultMaterial(id, SIMULATION_ID, NOW), name }
}

/** A point sensor. */
export function makePointSensor(id: number, name: string): Sensor {
  return {
    id,
    name,
    kind: 'point',
    appearance: { visibility: true },
    outputs: [],
    position: [0.1, 0.2, 0.3],
  }
}

/** A cube mesh with a download URL. */
export function makeMesh(
  id: number,
  meshUrl: string | null = `/api/meshes/${id}/mesh?v=m${id}`,
): Mesh {
  return { ...defaultMesh('cube', id), ...{ meshUrl } }
}

/** A volume clip on a cube mesh. */
export function makeVolumeClip(
  id: number,
  name: string,
  mesh: Mesh = makeMesh(100 + id),
): VolumeClip {
  return {
    id,
    name,
    mesh,
    appearance: defaultAppearance(id),
    materialId: null,
    inverted: false,
    kind: 'volumeClip',
  }
}

/** A translation of a part along x from 0 s to 1 s. */
export function makeMovement(id: number, partId: number, parents: number[] = []): Movement {
  return {
    id,
    partId,
    type: 'translatory',
    name: `Translation ${id}`,
    start: 0,
    end: 1,
    acc: 0,
    vel: 0.5,
    virtualMovement: false,
    direction: [1, 0, 0],
    parents,
    followers: [],
  }
}

/** The setup the fake server holds; tests change it directly. */
export interface SetupServerState {
  simulation: Simulation
  parts: Part[]
  materials: Material[]
  sensors: Sensor[]
  clips: VolumeClip[]
  movements: Movement[]
  calcDomain: CalcDomain
  issues: Issue[]
  discretization: Discretization | null
}

/** A request the fake server saw. */
export interface SeenRequest {
  method: string
  path: string
  body: unknown
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const notFound = (path: string) =>
  json({ code: 'resource_not_found', title: 'Not found', description: path }, 404)

/**
 * A setup server in memory behind a fetch stub: the setup's GET routes answer from `state`, the
 * edits the shell makes change it; `refuse` makes 'METHOD /api/path' answer 400 with `message`.
 */
export function createSetupServer(initial: Partial<SetupServerState> = {}) {
  const state: SetupServerState = {
    simulation: makeSimulation(),
    parts: [],
    materials: [makeMaterial(0, 'Water')],
    sensors: [],
    clips: [],
    movements: [],
    calcDomain: { active: false, min: [-1, -1, -1], max: [1, 1, 1], issues: [] },
    issues: [],
    discretization: null,
    ...initial,
  }
  const requests: SeenRequest[] = []
  const refusals = new Map<string, string>()
  let nextId = 500
  const base = `/api/simulations/${SIMULATION_ID}`

  function answer(method: string, path: string, body: unknown): Response {
    const refusal = refusals.get(`${method} ${path}`)
    if (refusal !== undefined)
      return json({ code: 'wrong_input', title: 'Refused', description: refusal }, 400)
    const id = Number(path.split('/')[3])
    if (method === 'GET' && path === base) return json(state.simulation)
    switch (`${method} ${path}`) {
      case `GET ${base}/parts`:
        return json(state.parts)
      case `GET ${base}/materials`:
        return json(state.materials)
      case `GET ${base}/settings`:
        return json({ settings: state.simulation.settings, issues: [], adjustments: [] })
      case `GET ${base}/calc_domain`:
        return json(state.calcDomain)
      case `PUT ${base}/calc_domain`:
        state.calcDomain = { ...state.calcDomain, active: true, ...(body as object) }
        return json(state.calcDomain)
      case `DELETE ${base}/calc_domain`:
        state.calcDomain = { ...state.calcDomain, active: false }
        return json(state.calcDomain)
      case `GET ${base}/setup_validation`:
        return json({ issues: state.issues, runnable: state.issues.length === 0, message: null })
      case `GET ${base}/custom_sensors`:
        return json(state.sensors)
      case `GET ${base}/volume_clips`:
        return json(state.clips)
      case `GET ${base}/movements`:
        return json(state.movements)
      case `GET ${base}/discretizations`:
        return json(state.discretization)
      case `GET ${base}/refinements`:
      case `GET ${base}/periodics`:
        return json([])
    }
    const [, , collection] = path.split('/')
    if (collection === 'parts' && method === 'PUT') {
      const part = state.parts.find((p) => p.id === id)
      if (!part) return notFound(path)
      const updated = applyPartUpdate(part, body as Parameters<typeof applyPartUpdate>[1])
      state.parts = state.parts.map((p) => (p.id === id ? updated : p))
      return json(updated)
    }
    if (collection === 'parts' && method === 'DELETE') {
      state.parts = state.parts.filter((p) => p.id !== id)
      return json({ id })
    }
    if (collection === 'custom_sensors' && method === 'DELETE') {
      state.sensors = state.sensors.filter((s) => s.id !== id)
      return json({ id })
    }
    if (collection === 'volume_clips' && method === 'DELETE') {
      state.clips = state.clips.filter((c) => c.id !== id)
      return json({ id })
    }
    if (method === 'POST' && path === `${base}/custom_sensors`) {
      const input = body as { name: string; position: [number, number, number] }
      const sensor = { ...makePointSensor(nextId++, input.name), position: input.position }
      state.sensors.push(sensor)
      return json(sensor, 201)
    }
    if (method === 'DELETE' && path.startsWith(`${base}/materials/`)) {
      const materialId = Number(path.split('/').at(-1))
      state.materials = state.materials.filter((m) => m.id !== materialId)
      return json({ id: materialId })
    }
    return notFound(path)
  }

  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://x')
    const method = init?.method ?? 'GET'
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
    requests.push({ method, path: url.pathname, body })
    return Promise.resolve(answer(method, url.pathname, body))
  })

  return {
    state,
    requests,
    /** Installs the fetch stub and a login (call in beforeEach; vi.unstubAllGlobals after). */
    install() {
      tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
      vi.stubGlobal('fetch', fetch)
    },
    refuse(method: string, path: string, message: string) {
      refusals.set(`${method} ${path}`, message)
    },
    /** The requests of one method and path. */
    seen(method: string, path: string) {
      return requests.filter((r) => r.method === method && r.path === path)
    },
  }
}

/** The page's providers around `ui`: query client, a jotai store (with `engine`), the editable context, toasts. */
export function renderSetup(
  ui: ReactNode,
  options: { engine?: FakeEngine; editable?: SetupEditable; snapshot?: RenderSnapshot | null } = {},
) {
  const store = createStore()
  if (options.engine) store.set(viewportEngineAtom, options.engine)
  if (options.snapshot !== undefined)
    store.set(viewportStateAtom, {
      status: 'ready',
      snapshot: options.snapshot,
      failure: null,
      dataWorkerCount: 0,
    })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const editable = options.editable ?? { editable: true, reason: null }
  const result = render(
    <QueryClientProvider client={queryClient}>
      <JotaiProvider store={store}>
        <MemoryRouter>
          <SetupEditableContext.Provider value={editable}>{ui}</SetupEditableContext.Provider>
          <Toasts />
        </MemoryRouter>
      </JotaiProvider>
    </QueryClientProvider>,
  )
  return { ...result, store, queryClient }
}
