import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import {
  defaultAppearance,
  defaultComponent,
  type ComponentType,
} from '../../../../../domain/parts.ts'
import { tokenStore } from '../../../../api/index.ts'
import { Toasts } from '../../../../components/Toasts.tsx'
import type { UploadTransport, UploadXhr } from '../uploads/uploadRequest.ts'

/*
 * Test support for the Setup view's movement, upload, datatable and discretization pieces: a
 * fetch stub answering routes from a table, a scripted XMLHttpRequest for upload progress, and a
 * render with react-query, a Jotai store and the toast stack.
 */

/** One recorded API call. */
export interface ApiCall {
  method: string
  path: string
  body: unknown
}

/** A route's answer: [status, body], or a function of the request body. */
export type RouteReply =
  readonly [number, unknown] | ((body: unknown, path: string) => readonly [number, unknown])

/**
 * Stubs fetch: 'GET /api/simulations/5/parts' → reply. Patterns may end in ':id' for one
 * trailing number. Unknown routes answer 404. Returns the calls made, in order.
 */
export function stubApi(routes: Record<string, RouteReply>): ApiCall[] {
  const calls: ApiCall[] = []
  tokenStore.write({ accessToken: 'token-1', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://x')
      const method = init?.method ?? 'GET'
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
      calls.push({ method, path: url.pathname, body })
      const exact = routes[`${method} ${url.pathname}`]
      const pattern = routes[`${method} ${url.pathname.replace(/\/\d+$/, '/:id')}`]
      const route = exact ?? pattern
      const [status, reply] = route
        ? typeof route === 'function'
          ? route(body, url.pathname)
          : route
        : [404, { code: 'resource_not_found', title: 'Not found', description: url.pathname }]
      return Promise.resolve(
        new Response(JSON.stringify(reply), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
      )
    }),
  )
  return calls
}

/** An API error body as the server sends it. */
export function errorBody(
  code: string,
  description: string,
  errors?: { path: string; message: string }[],
) {
  return { code, title: code, description, ...(errors ? { errors } : {}) }
}

/** Renders with a fresh query client (no retries), the given Jotai store and the toasts. */
export function renderSetup(ui: ReactNode, store = createStore()) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  const view = render(
    <QueryClientProvider client={queryClient}>
      <JotaiProvider store={store}>
        {ui}
        <Toasts />
      </JotaiProvider>
    </QueryClientProvider>,
  )
  return { ...view, store, queryClient }
}

/** A scripted XMLHttpRequest: the test sends progress and the reply. */
export class FakeXhr implements UploadXhr {
  /** Every FakeXhr made (for a test that stubs the global XMLHttpRequest with this class). */
  static made: FakeXhr[] = []
  method = ''
  url = ''
  headers = new Map<string, string>()
  body: FormData | null = null
  upload: UploadXhr['upload'] = { onprogress: null }
  onload: UploadXhr['onload'] = null
  onerror: UploadXhr['onerror'] = null
  onabort: UploadXhr['onabort'] = null
  status = 0
  responseText = ''

  constructor() {
    FakeXhr.made.push(this)
  }

  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value)
  }
  send(body: FormData) {
    this.body = body
  }
  abort() {
    this.onabort?.(new ProgressEvent('abort'))
  }
  /** Reports `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.(
      new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
    )
  }
  /** Answers with a status and a JSON body. */
  reply(status: number, body: unknown) {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.onload?.(new ProgressEvent('load'))
  }
  /** The file sent, by its form field. */
  file(): File | null {
    const value = this.body?.get('file')
    return value instanceof File ? value : null
  }
}

/** A transport whose XHRs the test drives; `renewToken` counts and swaps the token. */
export function fakeTransport() {
  const sent: FakeXhr[] = []
  let accessToken = 'token-1'
  let renewals = 0
  const transport: UploadTransport = {
    createXhr: () => {
      const xhr = new FakeXhr()
      sent.push(xhr)
      return xhr
    },
    tokens: { read: () => ({ accessToken, refreshToken: 'r', expiresAtMs: 0 }) },
    renewToken: () => {
      renewals++
      accessToken = `token-${renewals + 1}`
      return Promise.resolve()
    },
  }
  return { transport, sent, renewals: () => renewals }
}

/** A part as the API sends it (a 1 m cube of simulation 5), with what a test changes. */
export function testPart(
  id: number,
  name: string,
  patch: {
    component?: ComponentType
    pointcloudUrl?: string | null
    center?: [number, number, number]
  } = {},
) {
  const center = patch.center ?? null
  return {
    id,
    simulationId: 5,
    name,
    kind: patch.component ?? 'rigid',
    createdAt: '2026-11-26T00:00:00.000Z',
    updatedAt: '2026-11-26T00:00:00.000Z',
    createdBy: 1,
    organizationId: 1,
    seedPoint: null,
    materialId: patch.component === 'rigid' || !patch.component ? null : 0,
    component: defaultComponent(patch.component ?? 'rigid'),
    appearance: defaultAppearance(0),
    shape: {
      type: 'stl_cube',
      translation: [0, 0, 0],
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
      flipNormals: false,
      dimensions: [1, 1, 1],
      info: center && {
        center,
        normal: null,
        isPlanar: false,
        nbrOfTriangles: 12,
        holes: [],
        nonManifold: [],
        surfaceArea: 6,
        boundingBox: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] },
      },
    },
    hasWarnings: false,
    warnings: [],
    meshUrl: null,
    meshHash: null,
    pointcloudUrl: patch.pointcloudUrl ?? null,
    pointcloudCount: patch.pointcloudUrl ? 1234 : null,
  }
}
