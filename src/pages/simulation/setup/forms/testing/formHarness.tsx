import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import { createDefaultMaterial, type Material } from '../../../../../../domain/materials.ts'
import {
  defaultAppearance,
  defaultComponent,
  type Component,
  type Part,
  type Shape,
} from '../../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../../domain/projects.ts'
import { defaultSettings, type SimulationSettings } from '../../../../../../domain/settings.ts'
import { checkSettings } from '../../../../../../domain/settingsRules.ts'
import type { LooseVec3 } from '../../../../../../domain/vector.ts'
import { tokenStore } from '../../../../../api/index.ts'
import { toastsAtom } from '../../../../../state/toastsAtom.ts'
import { SetupEditableContext, type SetupEditable } from '../fields/editable.ts'

/*
 * The property forms against an API kept in memory (a fetch stub): settings, materials, parts,
 * the calculation domain and the setup validation answer from `api`, and every request is kept in
 * `requests`. A test changes `api` or adds a `refuse` rule to see a refusal.
 */

export const SIMULATION_ID = 4

/** A simulation of the demo project, not started (its setup editable). */
export const SIMULATION = {
  id: SIMULATION_ID,
  name: 'Dam break',
  settings: defaultSettings(),
  setupLocked: false,
} as unknown as Simulation

const NOW = '2026-11-26T00:00:00.000Z'

/** A part of the fake setup. */
export function makePart(id: number, patch: Partial<Part> & { component?: Component }): Part {
  const shape: Shape = {
    type: 'stl_cube',
    translation: [0, 0, 0],
    rotation: [0, 0, 0],
    scale: [1, 1, 1],
    flipNormals: false,
    dimensions: [1, 1, 1],
    info: null,
  }
  const part = {
    id,
    simulationId: SIMULATION_ID,
    name: `Part ${id}`,
    kind: 'solid',
    createdAt: NOW,
    updatedAt: NOW,
    createdBy: 1,
    organizationId: 1,
    seedPoint: null,
    materialId: null,
    component: defaultComponent('rigid'),
    appearance: defaultAppearance(id),
    shape,
    hasWarnings: false,
    warnings: [],
    // The geometry downloads of docs/setup-editor.md (none before a mesh or a discretization).
    meshUrl: null,
    meshHash: null,
    pointcloudUrl: null,
    pointcloudCount: null,
    ...patch,
  }
  return part
}

/** The server state the fake API answers from. */
export interface FakeApi {
  settings: SimulationSettings
  materials: Material[]
  parts: Part[]
  /** Rows of datatables by id. */
  tables: Record<number, { headers: string[]; rows: number }>
  /** Reply to PUT settings with these adjustment lines. */
  adjustments: string[]
  /** A request matching `match` ('PUT /api/parts/1') is refused with these field errors. */
  refuse: { match: string; errors: { path: string; message: string }[] } | null
}

export interface ApiRequest {
  method: string
  path: string
  body: unknown
}

export let api: FakeApi
export let requests: ApiRequest[] = []

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const notFound = () =>
  json({ code: 'resource_not_found', title: 'Not found', description: 'Not found' }, 404)

function settingsResult(adjustments: string[] = []) {
  return { settings: api.settings, issues: checkSettings(api.settings), adjustments }
}

function calcDomain() {
  const s = api.settings
  return { active: s.calcDomainActive, min: s.calcDomainMin, max: s.calcDomainMax, issues: [] }
}

function applyPart(part: Part, update: Record<string, unknown>): Part {
  const next = { ...part, ...update } as Part
  if (update.component) next.component = { ...part.component, ...update.component }
  if (update.shape) next.shape = { ...part.shape, ...update.shape }
  if (update.appearance) next.appearance = { ...part.appearance, ...update.appearance }
  return next
}

function reply(method: string, path: string, body: unknown): Response {
  const key = `${method} ${path}`
  if (api.refuse && api.refuse.match === key)
    return json(
      {
        code: 'validation_error',
        title: 'Validation error',
        description: api.refuse.errors[0]?.message ?? 'Invalid input',
        errors: api.refuse.errors,
      },
      400,
    )
  const sim = `/api/simulations/${SIMULATION_ID}`
  if (key === `GET ${sim}/settings`) return json(settingsResult())
  if (key === `PUT ${sim}/settings`) {
    api.settings = { ...api.settings, ...(body as Partial<SimulationSettings>) }
    return json(settingsResult(api.adjustments))
  }
  if (key === `GET ${sim}/calc_domain`) return json(calcDomain())
  if (key === `PUT ${sim}/calc_domain`) {
    const edit = body as { active?: boolean; min?: LooseVec3; max?: LooseVec3 }
    api.settings = {
      ...api.settings,
      calcDomainActive: edit.active ?? true,
      calcDomainMin: edit.min ?? api.settings.calcDomainMin,
      calcDomainMax: edit.max ?? api.settings.calcDomainMax,
    }
    return json(calcDomain())
  }
  if (key === `DELETE ${sim}/calc_domain`) {
    api.settings = { ...api.settings, calcDomainActive: false }
    return json(calcDomain())
  }
  if (key === `GET ${sim}/setup_validation`)
    return json({ issues: [], runnable: true, message: null })
  if (key === `GET ${sim}/materials`) return json(api.materials)
  if (key === `GET ${sim}/parts`) return json(api.parts)
  if (key === `PUT ${sim}/parts`) {
    const updates = body as ({ id: number } & Record<string, unknown>)[]
    api.parts = api.parts.map((p) => {
      const update = updates.find((u) => u.id === p.id)
      return update ? applyPart(p, update) : p
    })
    return json(api.parts.filter((p) => updates.some((u) => u.id === p.id)))
  }
  if (key === `GET ${sim}/movements`) return json([])
  if (key === `GET ${sim}/discretizations`) return notFound()
  if (key === `GET ${sim}/custom_sensors` || key === `GET ${sim}/volume_clips`) return json([])
  if (key === 'GET /api/material_presets')
    return json([
      {
        id: 1,
        name: 'Water',
        density: 998.2,
        kinematicViscosity: 1.004e-6,
        gamma: 7,
        thermalConductivity: 0.598,
        specificHeatCapacity: 4182,
        physicalSpeedOfSound: 1482,
        description: 'Fresh water at 20 °C',
      },
      {
        id: 3,
        name: 'Air',
        density: 1.204,
        kinematicViscosity: 1.516e-5,
        gamma: 1.4,
        thermalConductivity: 0.0257,
        specificHeatCapacity: 1005,
        physicalSpeedOfSound: 343,
        description: 'Dry air at 20 °C, 1 atm',
      },
    ])
  const material = new RegExp(`^(PUT|DELETE) ${sim}/materials/(\\d+)$`).exec(key)
  if (material) {
    const id = Number(material[2])
    if (material[1] === 'DELETE') {
      api.materials = api.materials.filter((m) => m.id !== id)
      return json({ id })
    }
    const existing =
      api.materials.find((m) => m.id === id) ?? createDefaultMaterial(id, SIMULATION_ID, NOW)
    const next = { ...existing, ...(body as Partial<Material>) }
    api.materials = [...api.materials.filter((m) => m.id !== id), next].sort((a, b) => a.id - b.id)
    return json(next)
  }
  const part = /^PUT \/api\/parts\/(\d+)$/.exec(key)
  if (part) {
    const id = Number(part[1])
    api.parts = api.parts.map((p) =>
      p.id === id ? applyPart(p, body as Record<string, unknown>) : p,
    )
    return json(api.parts.find((p) => p.id === id))
  }
  const table = /^GET \/api\/datatables\/(\d+)$/.exec(key)
  if (table) {
    const found = api.tables[Number(table[1])]
    if (!found) return notFound()
    return json({
      id: Number(table[1]),
      headers: found.headers,
      table: Object.fromEntries(found.headers.map((h) => [h, []])),
      resultCount: found.rows,
      pageLimit: 10,
      pageNumber: 1,
    })
  }
  return notFound()
}

/** Starts every test with the default setup: settings, material 0, no parts. */
export function resetFakeApi(patch: Partial<FakeApi> = {}) {
  api = {
    settings: defaultSettings(),
    materials: [createDefaultMaterial(0, SIMULATION_ID, NOW)],
    parts: [],
    tables: {},
    adjustments: [],
    refuse: null,
    ...patch,
  }
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
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
      requests.push({ method, path: url.pathname, body })
      return Promise.resolve(reply(method, url.pathname, body))
    }),
  )
}

/** Requests that changed something (PUT, POST, DELETE). */
export function edits(): ApiRequest[] {
  return requests.filter((r) => r.method !== 'GET')
}

/** Renders a form with its own stores; returns the jotai store (selection, toasts). */
export function renderWithSetup(
  element: ReactNode,
  options: { store?: ReturnType<typeof createStore>; editable?: SetupEditable } = {},
) {
  const store = options.store ?? createStore()
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <SetupEditableContext.Provider value={options.editable ?? { editable: true, reason: null }}>
          {element}
        </SetupEditableContext.Provider>
      </QueryClientProvider>
    </JotaiProvider>,
  )
  return store
}

/** Titles of the toasts on screen. */
export function toastTitles(store: ReturnType<typeof createStore>): string[] {
  return store.get(toastsAtom).map((t) => t.title)
}

/** Types into a field and commits it (blur), as a person does. */
export function typeAndCommit(input: HTMLElement, text: string) {
  fireEvent.change(input, { target: { value: text } })
  fireEvent.blur(input)
}

/** The text input of a labelled number field. */
export function numberInput(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { selector: 'input' })
}
