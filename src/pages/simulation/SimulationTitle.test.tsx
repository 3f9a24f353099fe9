import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { tokenStore } from '../../api/index.ts'
import { toastsAtom } from '../../state/toastsAtom.ts'
import { makeSimulation } from '../../testing/fixtures.ts'
import { RENAME_FAILED_TITLE, SimulationTitle } from './SimulationTitle.tsx'

/* The header's inline rename of a simulation (issue 14 item 4). */

let puts: unknown[] = []
let refuse = false

beforeEach(() => {
  puts = []
  refuse = false
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { name: string }) : {}
      puts.push(body)
      const reply = refuse
        ? { code: 'conflict', title: 'Conflict', description: 'Name is already used' }
        : makeSimulation({ name: (body as { name: string }).name })
      return Promise.resolve(
        new Response(JSON.stringify(reply), {
          status: refuse ? 409 : 200,
          headers: { 'content-type': 'application/json' },
        }),
      )
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

function renderTitle() {
  const store = createStore()
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <SimulationTitle simulation={makeSimulation({ name: 'Dam break' })} />
      </QueryClientProvider>
    </JotaiProvider>,
  )
  return { store, queryClient }
}

const field = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Simulation name' })

describe('SimulationTitle', () => {
  it('renames with Enter through PUT /simulations/{id}', async () => {
    const { queryClient } = renderTitle()
    fireEvent.click(screen.getByRole('button', { name: 'Rename simulation' }))
    fireEvent.change(field(), { target: { value: '  Dam break 2 ' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    await waitFor(() => expect(puts).toEqual([{ name: 'Dam break 2' }]))
    // The header reads the simulation from this cache entry.
    await waitFor(() =>
      expect(
        queryClient.getQueryData<{ name: string }>(['getSimulation', { params: { id: '4' } }])
          ?.name,
      ).toBe('Dam break 2'),
    )
  })

  it('refuses an empty name and stays in the field', () => {
    renderTitle()
    fireEvent.click(screen.getByRole('button', { name: 'Rename simulation' }))
    fireEvent.change(field(), { target: { value: '   ' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(screen.getByRole('alert').textContent).toBe('Simulation name cannot be empty.')
    expect(field().getAttribute('aria-invalid')).toBe('true')
    expect(puts).toEqual([])
  })

  it('ignores an unchanged name and Escape', () => {
    renderTitle()
    fireEvent.doubleClick(screen.getByRole('heading', { level: 1 }))
    fireEvent.blur(field())
    fireEvent.click(screen.getByRole('button', { name: 'Rename simulation' }))
    fireEvent.change(field(), { target: { value: 'Other' } })
    fireEvent.keyDown(field(), { key: 'Escape' })
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Dam break')
    expect(puts).toEqual([])
  })

  it('shows the server’s refusal in a toast', async () => {
    refuse = true
    const { store } = renderTitle()
    fireEvent.click(screen.getByRole('button', { name: 'Rename simulation' }))
    fireEvent.change(field(), { target: { value: 'Taken' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    await waitFor(() => expect(store.get(toastsAtom)).toHaveLength(1))
    expect(store.get(toastsAtom)[0]).toMatchObject({
      kind: 'error',
      title: RENAME_FAILED_TITLE,
      description: 'Name is already used',
    })
  })
})
