import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Datatable } from '../../../../../domain/datatable.ts'
import {
  FakeXhr,
  errorBody,
  renderSetup,
  stubApi,
  type ApiCall,
} from '../movements/testHarness.tsx'
import { DatatableField } from './DatatableField.tsx'

/*
 * The datatable field against a stubbed API: the preview, the editor's save with the server's
 * global and cell errors, and CSV uploads (through a scripted XMLHttpRequest).
 */

const ROWS = 12
const TABLE: Datatable = {
  id: 4,
  headers: ['time', 'vel_x'],
  table: {
    time: Array.from({ length: ROWS }, (_, i) => i * 0.5),
    vel_x: Array.from({ length: ROWS }, (_, i) => i + 0.25),
  },
  resultCount: ROWS,
  pageLimit: 100,
  pageNumber: 1,
}

let saveReply: readonly [number, unknown]
let calls: ApiCall[]

beforeEach(() => {
  saveReply = [200, TABLE]
  FakeXhr.made = []
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  calls = stubApi({
    'GET /api/datatables/:id': [200, TABLE],
    'PUT /api/datatables/4/json': () => saveReply,
  })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderField(tableId: number | null = 4) {
  const onTableCreated = vi.fn()
  const view = renderSetup(
    <DatatableField
      label="Inflow profile"
      simulationId={5}
      kind="openBoundary"
      tableId={tableId}
      onTableCreated={onTableCreated}
    />,
  )
  const chooseCsv = (file: File) => {
    const input = view.container.querySelector('input[type="file"]') as HTMLInputElement
    fireEvent.change(input, { target: { files: [file] } })
  }
  return { onTableCreated, chooseCsv }
}

const csv = (name = 'profile.csv') =>
  new File(['time,vel_x\n0,1\n1,x\n'], name, { type: 'text/csv' })

async function openEditor() {
  await screen.findByRole('table', { name: 'Inflow profile preview' })
  fireEvent.click(screen.getByRole('button', { name: 'Edit table' }))
  return screen.findByRole('dialog', { name: 'Inflow profile' })
}

describe('DatatableField', () => {
  it('previews the first 10 rows of an open-boundary profile', async () => {
    renderField()
    const preview = await screen.findByRole('table', { name: 'Inflow profile preview' })
    expect(within(preview).getAllByRole('row')).toHaveLength(1 + 10)
    expect(screen.getByText('First 10 of 12 rows.')).toBeTruthy()
    expect(screen.getByText(/12 rows · 2 to 100 rows/)).toBeTruthy()
    expect(within(preview).getByText('4.5')).toBeTruthy()
  })

  it("shows the server's cell errors on their cells and its global errors on the table", async () => {
    renderField()
    const dialog = await openEditor()
    const cell = within(dialog).getByLabelText<HTMLInputElement>('vel_x, row 2')
    expect(cell.value).toBe('1.25')
    fireEvent.change(cell, { target: { value: 'fast' } })
    saveReply = [
      400,
      errorBody('validation_error', 'Validation failed', [
        { path: 'table', message: 'time column is required' },
        { path: 'table.vel_x.1', message: 'This field requires a valid number.' },
      ]),
    ]
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    await waitFor(() => expect(cell.getAttribute('aria-invalid')).toBe('true'))
    const put = calls.find((c) => c.method === 'PUT')!
    expect((put.body as { table: Record<string, unknown[]> }).table.vel_x?.[1]).toBeNull()
    expect(within(dialog).getByText('This field requires a valid number.').id).toBe(
      cell.getAttribute('aria-describedby'),
    )
    expect(within(dialog).getByRole('alert').textContent).toContain('time column is required')
    const other = within(dialog).getByLabelText('vel_x, row 1')
    expect(other.getAttribute('aria-invalid')).toBeNull()
    expect(screen.getByRole('dialog')).toBeTruthy()
  })

  it("says 'Unexpected error saving table.' when the save fails otherwise", async () => {
    renderField()
    const dialog = await openEditor()
    saveReply = [500, errorBody('database_error', 'Database error')]
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await within(dialog).findByText('Unexpected error saving table.')
  })

  it('adds and removes rows within the limits and closes once saved', async () => {
    renderField()
    const dialog = await openEditor()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add row' }))
    expect(within(dialog).getByText(/13 rows/)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove row 1' }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove row 1' }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const put = calls.find((c) => c.method === 'PUT')!
    const body = put.body as { headers: string[]; table: Record<string, (number | null)[]> }
    expect(body.headers).toEqual(['time', 'vel_x'])
    expect(body.table.time).toHaveLength(11)
    expect(body.table.time?.[0]).toBe(1)
    expect(body.table.time?.at(-1)).toBeNull()
  })

  it('makes a new table of an uploaded CSV and hands its id to the owner', async () => {
    const { chooseCsv, onTableCreated } = renderField(null)
    expect(screen.getByText(/No table yet/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Upload CSV' }))
    chooseCsv(csv())
    await waitFor(() => expect(FakeXhr.made).toHaveLength(1))
    const xhr = FakeXhr.made[0]!
    expect(xhr.url).toBe('/api/client-upload/uploads')
    expect(xhr.body?.get('kind')).toBe('openBoundary')
    expect(xhr.body?.get('simulationId')).toBe('5')
    act(() => xhr.progress(10, 20))
    expect(
      screen.getByRole('progressbar', { name: 'Upload of profile.csv' }).getAttribute('value'),
    ).toBe('50')
    act(() =>
      xhr.reply(201, {
        id: 30,
        kind: 'csv',
        fileName: 'profile.csv',
        unit: null,
        sizeBytes: 20,
        createdAt: '2026-11-26T00:00:00.000Z',
        nbrOfTriangles: null,
        watertight: null,
        datatableId: 11,
      }),
    )
    await waitFor(() => expect(onTableCreated).toHaveBeenCalledWith(11))
  })

  it("lists a refused CSV's errors under 'Validation failed'", async () => {
    const { chooseCsv } = renderField()
    await screen.findByRole('table', { name: 'Inflow profile preview' })
    chooseCsv(csv())
    await waitFor(() => expect(FakeXhr.made).toHaveLength(1))
    const xhr = FakeXhr.made[0]!
    expect(xhr.method).toBe('PUT')
    expect(xhr.url).toBe('/api/datatables/4/csv')
    act(() =>
      xhr.reply(
        400,
        errorBody('validation_error', 'Validation failed', [
          { path: 'table', message: 'Table must have at least 2 rows.' },
          { path: 'table.vel_x.0', message: 'This field requires a valid number.' },
        ]),
      ),
    )
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Validation failed')
    expect(alert.textContent).toContain('Table must have at least 2 rows.')
    expect(alert.textContent).toContain('Row 1, vel_x: This field requires a valid number.')
  })
})
