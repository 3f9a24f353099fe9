import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import type { Simulation } from '../../../../../domain/projects.ts'
import {
  defaultMeshingParameters,
  type Assembly,
  type AssemblyNode,
  type AssemblyPart,
  type AssemblyPartCreate,
  type AssemblyPartUpdate,
  type TessellationRun,
} from '../../../../../domain/tessellation.ts'
import { Toasts } from '../../../../components/Toasts.tsx'
import { toastsAtom } from '../../../../state/toastsAtom.ts'
import { errorBody, stubApi, type ApiCall } from '../movements/testHarness.tsx'
import { assemblyWizardAtom, type AssemblyWizardState } from '../state/setupAtoms.ts'

/*
 * The assembly wizard's tests against an assembly API kept in memory (a fetch stub answering the
 * routes of domain/rest/assemblyRoutes.ts): one simulation (5) with one CAD file (3), its parts
 * and tessellation runs. A test changes `server` to see other states or a refusal.
 */

export const SIMULATION = { id: 5, name: 'Pump' } as Simulation

const node = (entryId: string, labelName: string, children: AssemblyNode[] = []): AssemblyNode => ({
  entryId,
  labelName,
  children,
})

/** as1: a plate, an L-bracket assembly with its bolts, a box of 8 screws and a nut assembly. */
export const TREE: AssemblyNode[] = [
  node('1', 'as1', [
    node('1.1', 'plate'),
    node('1.2', 'l-bracket-assembly', [
      node('1.2.1', 'l-bracket'),
      node('1.2.2', 'bolt'),
      node('1.2.3', 'bolt'),
    ]),
    node(
      '1.3',
      'screw-box',
      Array.from({ length: 8 }, (_, i) => node(`1.3.${i + 1}`, `screw ${i + 1}`)),
    ),
    node('1.4', 'nut-bolt-assembly', [node('1.4.1', 'nut')]),
  ]),
]

/** The CAD file as the API sends it (read: its tree is there). */
export function makeAssembly(patch: Partial<Assembly> = {}): Assembly {
  return {
    id: 3,
    filename: 'as1-oc-214.stp',
    state: 'done',
    assemblyMetadata: TREE,
    latestTessellationRunId: null,
    tessellationWarnings: [],
    tessellationErrors: [],
    createdAt: '2026-11-26T00:00:00.000Z',
    ...patch,
  }
}

/** A part of the wizard as the API sends it. */
export function makeAssemblyPart(id: number, patch: Partial<AssemblyPart> = {}): AssemblyPart {
  return {
    id,
    name: `Part ${id}`,
    assemblyNodeIds: ['1.1'],
    componentType: 'rigid',
    meshingParameters: defaultMeshingParameters(),
    needsTessellation: true,
    setupPartId: null,
    warnings: [],
    ...patch,
  }
}

/** The fake server's state. */
export interface FakeAssemblyServer {
  assembly: Assembly
  parts: AssemblyPart[]
  runs: TessellationRun[]
  /** 'POST /api/assemblies/3' → refused with this status and description. */
  refuse: Record<string, [number, string]>
}

export let server: FakeAssemblyServer
export let calls: ApiCall[]

/** Starts a test with the CAD file read and no parts. */
export function resetAssemblyServer(patch: Partial<FakeAssemblyServer> = {}) {
  server = { assembly: makeAssembly(), parts: [], runs: [], refuse: {}, ...patch }
  let nextPartId = 100
  const refused = (key: string) => {
    const refusal = server.refuse[key]
    return refusal ? ([refusal[0], errorBody('conflict', refusal[1])] as const) : null
  }
  calls = stubApi({
    'GET /api/assemblies/3': () => [200, server.assembly],
    'GET /api/simulations/5/assemblies': () => [200, [server.assembly]],
    'GET /api/simulations/5/tessellation_runs': () => [200, server.runs],
    'GET /api/assemblies/3/parts': () => [200, server.parts],
    'POST /api/assemblies/3/parts': (body) => {
      const create = body as AssemblyPartCreate
      const part = makeAssemblyPart(nextPartId++, {
        name: create.name,
        assemblyNodeIds: create.assemblyNodeIds,
        componentType: create.componentType,
        meshingParameters: create.meshingParameters ?? defaultMeshingParameters(),
      })
      server.parts = [...server.parts, part]
      return [201, part]
    },
    'PUT /api/assemblies/3/parts': (body) => {
      const refusal = refused('PUT /api/assemblies/3/parts')
      if (refusal) return refusal
      const update = body as AssemblyPartUpdate
      server.parts = server.parts.map((p) =>
        p.id === update.id
          ? {
              ...p,
              ...update,
              needsTessellation: update.meshingParameters ? true : p.needsTessellation,
            }
          : p,
      )
      return [200, server.parts.find((p) => p.id === update.id)]
    },
    'DELETE /api/assemblies/3/parts': (body) => {
      const ids = (body as { partIds: number[] }).partIds
      server.parts = server.parts.filter((p) => !ids.includes(p.id))
      return [200, { ids }]
    },
    'POST /api/assemblies/3': () => {
      const refusal = refused('POST /api/assemblies/3')
      if (refusal) return refusal
      const run: TessellationRun = { id: 9, assemblyId: 3, state: 'scheduled', progress: 0 }
      server.runs = [run, ...server.runs]
      server.assembly = { ...server.assembly, latestTessellationRunId: run.id }
      return [201, run]
    },
    'DELETE /api/tessellation_runs/9': () => {
      server.runs = server.runs.map((r) => (r.id === 9 ? { ...r, state: 'canceled' } : r))
      return [200, server.runs.find((r) => r.id === 9)]
    },
  })
}

/** Changes (POST, PUT, DELETE) sent to the assembly routes, in order. */
export function edits(): ApiCall[] {
  return calls.filter((c) => c.method !== 'GET')
}

/**
 * Renders with react-query (no retries), a Jotai store with the wizard open on `wizard`, a router
 * (toast links) and the toast stack.
 */
export function renderWizard(
  ui: ReactNode,
  wizard: AssemblyWizardState | null = { assemblyId: 3, step: 'organize' },
) {
  const store = createStore()
  store.set(assemblyWizardAtom, wizard)
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  const view = render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient}>
        <JotaiProvider store={store}>
          {ui}
          <Toasts />
        </JotaiProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  )
  return { ...view, store, queryClient }
}

/** Toasts on screen: kind, title, description and links. */
export function toastsOf(store: ReturnType<typeof createStore>) {
  return store.get(toastsAtom)
}
