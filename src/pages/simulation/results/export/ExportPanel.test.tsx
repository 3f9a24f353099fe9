import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { ExportStatus } from '../../../../../domain/rest/exportRoutes.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import {
  EXPORT_MESSAGES,
  EXPORT_TABS,
  checkExportRequest,
  defaultExportRequest,
} from '../../../../../domain/results.ts'
import { tokenStore } from '../../../../api/index.ts'
import { PARALLEL_DOWNLOAD_HINT } from './DownloadTab.tsx'
import { ExportPanel } from './ExportPanel.tsx'
import { exportOptions } from './exportModel.ts'

const SIMULATION = { id: 5, name: 'Dam break', state: 'completed', activeRunId: 3 } as Simulation

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
        name: 'Water',
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

// Outputs 0, 1, 2 and 4: output 3 is missing.
const LIST: OutputManifestList = {
  simulationId: 5,
  runId: 3,
  outputs: [manifest(0), manifest(1), manifest(2), manifest(4)],
}

function status(patch: Partial<ExportStatus>): ExportStatus {
  return {
    id: 9,
    name: EXPORT_MESSAGES.defaultName,
    state: 'completed',
    files: [],
    warnings: [],
    errors: [],
    progress: 1,
    createdAt: '2026-11-23T10:00:00.000Z',
    expiresAt: '2026-11-24T10:00:00.000Z',
    ...patch,
  }
}

interface Call {
  method: string
  path: string
  body: unknown
}

let current: ExportStatus | null = null
const createObjectUrl = vi.fn(() => 'blob:export')
let calls: Call[] = []

function json(body: unknown, statusCode = 200) {
  return Promise.resolve(
    new Response(JSON.stringify(body), {
      status: statusCode,
      headers: { 'content-type': 'application/json' },
    }),
  )
}

beforeEach(() => {
  current = null
  calls = []
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://localhost',
      )
      const method = init?.method ?? 'GET'
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null
      calls.push({ method, path: url.pathname, body })
      if (url.pathname === '/api/simulations/5/user_exports') {
        if (method === 'GET') return json({ export: current })
        if (method === 'POST') {
          current = status({ id: 10, state: 'scheduled', progress: 0, expiresAt: null })
          return json(current, 201)
        }
        if (method === 'DELETE') {
          current = current && status({ ...current, state: 'canceled', files: [] })
          return json({ export: current })
        }
      }
      if (url.pathname === '/api/simulations/5/custom_sensors')
        return json([
          {
            id: 31,
            name: 'Probe 1',
            kind: 'point',
            appearance: { visibility: true },
            outputs: [0, 1],
            position: [0.1, 0.1, 0.1],
          },
        ])
      if (url.pathname.startsWith('/api/simulations/5/user_exports/'))
        return Promise.resolve(new Response(new Uint8Array([1, 2, 3]), { status: 200 }))
      return Promise.resolve(new Response('{}', { status: 404 }))
    }),
  )
  URL.createObjectURL = createObjectUrl
  URL.revokeObjectURL = vi.fn()
})

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <ExportPanel simulation={SIMULATION} list={LIST} />
    </QueryClientProvider>,
  )
}

async function openDialog() {
  renderPanel()
  fireEvent.click(screen.getByRole('button', { name: 'Export' }))
  const dialog = await screen.findByRole('dialog', { name: 'Export' })
  await waitFor(() => expect(calls.some((call) => call.method === 'GET')).toBe(true))
  return dialog
}

const exportButton = (dialog: HTMLElement) =>
  within(dialog).getAllByRole('button', { name: 'Export' }).at(-1)!

function check(dialog: HTMLElement, label: string) {
  fireEvent.click(within(dialog).getAllByRole('checkbox', { name: label })[0]!)
}

describe('ExportPanel', () => {
  it('opens a dialog with the two tabs and the default export name', async () => {
    const dialog = await openDialog()
    expect(within(dialog).getByText(EXPORT_MESSAGES.defaultName)).toBeTruthy()
    const tabs = within(dialog).getAllByRole('tab')
    expect(tabs.map((tab) => tab.textContent)).toEqual([...EXPORT_TABS])
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true')
  })

  it('blocks an export with nothing selected with the spec messages', async () => {
    const dialog = await openDialog()
    expect(within(dialog).getByText(EXPORT_MESSAGES.selectItem)).toBeTruthy()
    expect(within(dialog).getByText(EXPORT_MESSAGES.configurationError)).toBeTruthy()
    expect((exportButton(dialog) as HTMLButtonElement).disabled).toBe(true)
    check(dialog, 'Logs')
    expect(within(dialog).queryByText(EXPORT_MESSAGES.selectItem)).toBeNull()
    expect((exportButton(dialog) as HTMLButtonElement).disabled).toBe(false)
  })

  it('says when the single output has no data, and defaults to the last output', async () => {
    const dialog = await openDialog()
    check(dialog, 'Water')
    const output = within(dialog).getByLabelText<HTMLInputElement>('Output')
    expect(output.value).toBe('4')
    fireEvent.change(output, { target: { value: '3' } })
    expect(within(dialog).getByText(EXPORT_MESSAGES.missingSingleOutput)).toBeTruthy()
    expect(within(dialog).getByText(EXPORT_MESSAGES.configurationError)).toBeTruthy()
  })

  it('checks the step size of a range and warns about the missing outputs of the range', async () => {
    const dialog = await openDialog()
    check(dialog, 'Water')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Range' }))
    const step = within(dialog).getByLabelText<HTMLInputElement>('Step size')
    expect(step.value).toBe('1')
    fireEvent.change(within(dialog).getByLabelText('To output'), { target: { value: '4' } })
    expect(within(dialog).getByText(EXPORT_MESSAGES.missingOutputs([3]))).toBeTruthy()
    expect(within(dialog).queryByText(EXPORT_MESSAGES.configurationError)).toBeNull()
    for (const stepSize of [101, 0]) {
      fireEvent.change(step, { target: { value: String(stepSize) } })
      const expected = checkExportRequest(
        {
          ...defaultExportRequest(5, 4),
          materials: [0],
          outputMode: 'range',
          outputsRange: [0, 4],
          stepSize,
        },
        exportOptions(LIST).context,
      ).find((issue) => issue.field === 'stepSize')!
      expect(within(dialog).getByText(expected.message)).toBeTruthy()
      expect(within(dialog).getByText(EXPORT_MESSAGES.configurationError)).toBeTruthy()
    }
  })

  it('asks before exporting without attributes and starts nothing on No', async () => {
    const dialog = await openDialog()
    check(dialog, 'Water')
    fireEvent.click(exportButton(dialog))
    const confirmation = await screen.findByText(EXPORT_MESSAGES.confirmNoAttributes)
    expect(confirmation).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'No' }))
    expect(screen.queryByText(EXPORT_MESSAGES.confirmNoAttributes)).toBeNull()
    expect(calls.some((call) => call.method === 'POST')).toBe(false)
  })

  it('asks both confirmations in order over a previous export, then posts the request', async () => {
    current = status({ files: [{ id: 1, filename: 'Water_000001.vtu', state: 'created' }] })
    const dialog = await openDialog()
    fireEvent.click(within(dialog).getByRole('tab', { name: EXPORT_TABS[0] }))
    check(dialog, 'Water')
    fireEvent.click(exportButton(dialog))
    expect(await screen.findByText(EXPORT_MESSAGES.confirmNew)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }))
    expect(await screen.findByText(EXPORT_MESSAGES.confirmNoAttributes)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }))
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true))
    const post = calls.find((call) => call.method === 'POST')!
    expect(post.body).toMatchObject({
      simulationId: 5,
      materials: [0],
      attributes: [],
      outputMode: 'single',
      outputsSingle: 4,
      boundariesType: 'vtu',
    })
    const tab = await screen.findByRole('tab', { name: EXPORT_TABS[1] })
    await waitFor(() => expect(tab.getAttribute('aria-selected')).toBe('true'))
  })

  it('exports the chosen objects and attribute without asking when there is no previous export', async () => {
    const dialog = await openDialog()
    check(dialog, 'Water')
    check(dialog, 'Tank')
    await waitFor(() => check(dialog, 'Probe 1'))
    check(dialog, 'Pressure')
    fireEvent.click(exportButton(dialog))
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true))
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      materials: [0],
      boundaries: [1],
      sensors: [31],
      attributes: ['pressure'],
    })
  })

  it('shows a running export with cancel, polls it every 5 s, and says the files were deleted after cancel', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    current = status({ state: 'running', progress: 0.4, expiresAt: null })
    const dialog = await openDialog()
    expect(await within(dialog).findByText(/Exporting files… 40 %/)).toBeTruthy()
    const gets = () => calls.filter((call) => call.method === 'GET').length
    const before = gets()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_100)
    })
    await waitFor(() => expect(gets()).toBe(before + 1))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel export' }))
    expect(await within(dialog).findByText(EXPORT_MESSAGES.deleted)).toBeTruthy()
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true)
  })

  it('shows a failed export with its reason and the errors per output', async () => {
    current = status({
      state: 'failed',
      errors: [
        {
          description: 'Output 1 could not be read.',
          details: { description: 'Water: truncated' },
          outputs: [1],
        },
      ],
    })
    const dialog = await openDialog()
    fireEvent.click(within(dialog).getByRole('tab', { name: EXPORT_TABS[1] }))
    expect(await within(dialog).findByText(EXPORT_MESSAGES.failed)).toBeTruthy()
    expect(within(dialog).getByText('Output 1 could not be read.')).toBeTruthy()
    expect(within(dialog).getByText(/Outputs: 1/)).toBeTruthy()
  })

  it('disables the download tab after the previous export expired and shows it as unknown', async () => {
    current = status({ state: 'expired' })
    const dialog = await openDialog()
    await waitFor(() =>
      expect(
        within(dialog).getByRole<HTMLButtonElement>('tab', { name: EXPORT_TABS[1] }).disabled,
      ).toBe(true),
    )
    expect(within(dialog).getByText('unknown')).toBeTruthy()
  })

  it('lists the files of a completed export with the parallel download hint and downloads one', async () => {
    current = status({
      files: [
        { id: 1, filename: 'Water_000004.vtu', state: 'created' },
        { id: 2, filename: 'logs.csv', state: 'created' },
      ],
      warnings: [{ description: EXPORT_MESSAGES.missingOutputs([3]), outputs: [3] }],
    })
    const dialog = await openDialog()
    const file = await within(dialog).findByRole('button', { name: 'Water_000004.vtu' })
    expect(within(dialog).getByText(PARALLEL_DOWNLOAD_HINT)).toBeTruthy()
    expect(within(dialog).getByText(EXPORT_MESSAGES.missingOutputs([3]))).toBeTruthy()
    fireEvent.click(file)
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/api/simulations/5/user_exports/1')).toBe(true),
    )
    await waitFor(() => expect(createObjectUrl).toHaveBeenCalled())
  })
})
