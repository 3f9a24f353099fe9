import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { COMPRESSION_TEXTS, type Compression } from '../../../../domain/rest/compressionRoutes.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { tokenStore } from '../../../api/index.ts'
import { formatSize } from '../../../../domain/units.ts'
import { makeSimulation } from '../../../testing/fixtures.ts'
import { CompressedDownload } from './CompressedDownload.tsx'

/* Download with compression (issue 14) against scripted replies of the compression calls. */

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const RUNNING: Compression = {
  id: 3,
  simulationId: 4,
  state: 'running',
  progress: 0.4,
  filename: 'Dam break.tar.gz',
  inputBytes: 3_500_000,
  sizeBytes: 0,
  fileCount: 0,
  error: null,
  creatorId: 1,
  createdAt: '2026-11-27T10:00:00.000Z',
  endedAt: null,
}
const COMPLETED: Compression = {
  ...RUNNING,
  state: 'completed',
  progress: 1,
  sizeBytes: 1_200_000,
  fileCount: 12,
  endedAt: '2026-11-27T10:00:05.000Z',
}

let stored: Compression | null = null
let requests: string[] = []

function replyTo(method: string, url: URL): Response {
  const path = `${method} ${url.pathname}`
  if (path === 'GET /api/simulations/4/compression') return json({ compression: stored })
  if (path === 'POST /api/simulations/4/compression') {
    stored = RUNNING
    return json(RUNNING, 201)
  }
  if (path === 'DELETE /api/simulations/4/compression') {
    stored = stored?.state === 'running' ? { ...stored, state: 'canceled' } : null
    return json({ compression: stored })
  }
  if (path === 'GET /api/simulations/4/download')
    return new Response(new Uint8Array([31, 139]), {
      status: 200,
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': 'attachment; filename="Dam break.tar.gz"',
      },
    })
  return json({ code: 'resource_not_found', title: 'x', description: 'x' }, 404)
}

beforeEach(() => {
  stored = null
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
      requests.push(`${method} ${url.pathname}${url.search}`)
      return Promise.resolve(replyTo(method, url))
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

function renderDownload(simulation: Simulation) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <CompressedDownload simulation={simulation} />
    </QueryClientProvider>,
  )
  return queryClient
}

const finished = makeSimulation({ state: 'completed', activeRunId: 9 })

describe('CompressedDownload', () => {
  it('cannot compress a simulation that has not started', async () => {
    renderDownload(makeSimulation())
    const button = await screen.findByRole<HTMLButtonElement>('button', {
      name: 'Compress simulation',
    })
    expect(button.disabled).toBe(true)
  })

  it('compresses, shows the progress with Stop computation, and cancels', async () => {
    renderDownload(finished)
    fireEvent.click(await screen.findByRole('button', { name: 'Compress simulation' }))
    const widget = await screen.findByRole('region', { name: 'Compression job' })
    expect(requests).toContain('POST /api/simulations/4/compression')
    expect(
      within(widget)
        .getByRole('progressbar', { name: 'Compression progress' })
        .getAttribute('value'),
    ).toBe('40')
    fireEvent.click(within(widget).getByRole('button', { name: 'Stop computation' }))
    const dialog = screen.getByRole('dialog', { name: 'Stop computation?' })
    expect(within(dialog).getByText(COMPRESSION_TEXTS.stopText)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop' }))
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Done' }))
    expect(requests).toContain('DELETE /api/simulations/4/compression')
    expect(await screen.findByRole('button', { name: 'Compress simulation' })).toBeTruthy()
  })

  it('downloads a completed archive by its file name, and deletes it', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:gz', revokeObjectURL: () => {} }),
    )
    stored = COMPLETED
    renderDownload(finished)
    expect(await screen.findByText('Dam break.tar.gz')).toBeTruthy()
    expect(document.querySelector('.run-sidebar__archive')?.textContent).toBe(
      `Dam break.tar.gz: ${formatSize(COMPLETED.sizeBytes)} (12 files, ${formatSize(COMPLETED.inputBytes)} before compression)`,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Download archive' }))
    await waitFor(() =>
      expect(requests).toContain('GET /api/simulations/4/download?filename=Dam%20break.tar.gz'),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Delete archive' }))
    await waitFor(() => expect(requests).toContain('DELETE /api/simulations/4/compression'))
    expect(await screen.findByRole('button', { name: 'Compress simulation' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Download archive' })).toBeNull()
  })
})
