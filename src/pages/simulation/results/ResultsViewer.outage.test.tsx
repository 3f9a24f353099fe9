import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../domain/rest/resultsRoutes.ts'
import { defaultSettings } from '../../../../domain/settings.ts'
import type { SessionSnapshot } from '../../../../engine/results/ResultsSession.ts'
import { tokenStore } from '../../../api/index.ts'
import { CONNECTION_BANNER_TEXT, connectionBannerText } from './layout/ConnectionBanner.tsx'
import { ResultsViewer } from './ResultsViewer.tsx'

/*
 * Issue 13 item 9: while the server was down, a failed refresh of the output list replaced the
 * Results page with an error, unmounting the viewer (and with it the results session). The engine
 * is a recorder here; tests/e2e/results-outage.spec.ts stops and restarts a real server.
 */

const fake = vi.hoisted(() => ({ disposed: 0 }))

vi.mock('../../../../engine/client.ts', () => ({
  createEngine: () => ({
    dispatch: () => undefined,
    setAccessToken: () => undefined,
    saveImage: () => Promise.resolve(new Blob()),
    getState: () => ({ status: 'ready', snapshot: null, failure: null, dataWorkerCount: 0 }),
    subscribe: () => () => undefined,
    ready: Promise.resolve(),
    dispose: () => {
      fake.disposed++
    },
  }),
}))

const SIMULATION = {
  id: 5,
  name: 'Dam break',
  state: 'completed',
  activeRunId: 3,
  settings: defaultSettings(),
} as Simulation

const LIST: OutputManifestList = {
  simulationId: 5,
  runId: 3,
  outputs: [0, 1].map((outputNo) => ({
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
        columns: ['pressure'],
        particleCount: { full: 1000, fast: 1000 },
        triangleCount: 0,
        sizeBytes: { full: 40_000, fast: 40_000 },
      },
    ],
  })),
}

let serverDown = false
const banner = () => screen.getByRole('status', { name: 'Server connection' })

beforeEach(() => {
  serverDown = false
  fake.disposed = 0
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      if (serverDown) return Promise.reject(new TypeError('Failed to fetch'))
      const href = input instanceof Request ? input.url : input instanceof URL ? input.href : input
      const { pathname } = new URL(href, 'http://localhost')
      const body =
        pathname === '/api/simulations/5/output_manifests'
          ? LIST
          : { simulationId: 5, mode: 'post', state: null, updatedAt: null }
      return Promise.resolve(
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
      )
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('Results page during a server outage', () => {
  it('keeps the view and says it is reconnecting while the outputs cannot be refreshed', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <JotaiProvider store={createStore()}>
        <QueryClientProvider client={client}>
          <ResultsViewer simulation={SIMULATION} />
        </QueryClientProvider>
      </JotaiProvider>,
    )
    await screen.findByRole('button', { name: 'Play' })
    expect(banner().textContent).toBe('')

    serverDown = true
    act(() => {
      void client.refetchQueries({ queryKey: ['listOutputManifests'] })
    })
    await waitFor(() => expect(banner().textContent).toBe(CONNECTION_BANNER_TEXT.reconnecting))
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(fake.disposed).toBe(0)

    serverDown = false
    act(() => {
      void client.refetchQueries({ queryKey: ['listOutputManifests'] })
    })
    await waitFor(() => expect(banner().textContent).toBe(''))
    expect(fake.disposed).toBe(0)
  })
})

describe('connectionBannerText', () => {
  const snapshot = (patch: Partial<SessionSnapshot>): SessionSnapshot => ({
    status: 'open',
    attempts: 0,
    opens: 1,
    toast: null,
    ...patch,
  })

  it('says nothing while the session is open or opening for the first time', () => {
    expect(connectionBannerText(snapshot({}), false)).toBeNull()
    expect(connectionBannerText(snapshot({ status: 'connecting', opens: 0 }), false)).toBeNull()
  })

  it('says reconnecting between sockets after an open one, or while outputs cannot load', () => {
    const text = CONNECTION_BANNER_TEXT.reconnecting
    expect(connectionBannerText(snapshot({ status: 'reconnecting', attempts: 3 }), false)).toBe(
      text,
    )
    expect(connectionBannerText(snapshot({ status: 'connecting', opens: 2 }), false)).toBe(text)
    expect(connectionBannerText(snapshot({}), true)).toBe(text)
  })

  it('says the server could not be reached once the session gave up', () => {
    expect(connectionBannerText(snapshot({ status: 'failed' }), false)).toBe(
      CONNECTION_BANNER_TEXT.failed,
    )
  })
})
