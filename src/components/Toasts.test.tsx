import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { RouterProvider, createMemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOAST_DURATION_MS } from '../../domain/constants.ts'
import { pushToastAtom, toastsAtom } from '../state/toastsAtom.ts'
import { Toasts } from './Toasts.tsx'

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

function renderToasts() {
  const store = createStore()
  const router = createMemoryRouter([{ path: '/', element: <Toasts /> }])
  render(
    <JotaiProvider store={store}>
      <RouterProvider router={router} />
    </JotaiProvider>,
  )
  return store
}

describe('Toasts', () => {
  it('stacks toasts and closes each after its own duration', () => {
    const store = renderToasts()
    act(() => {
      store.set(pushToastAtom, { kind: 'error', title: 'Cloning simulation failed' })
      store.set(pushToastAtom, {
        kind: 'warning',
        title: 'Please start the simulation first.',
        durationMs: TOAST_DURATION_MS.simulation,
      })
    })
    expect(screen.getAllByRole('status')).toHaveLength(2)
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS.default + 10)
    })
    expect(screen.queryByText('Cloning simulation failed')).toBeNull()
    expect(screen.getByText('Please start the simulation first.')).toBeTruthy()
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS.simulation - TOAST_DURATION_MS.default)
    })
    expect(store.get(toastsAtom)).toEqual([])
  })

  it('replaces a toast pushed again with the same id instead of doubling it', () => {
    const store = renderToasts()
    act(() => {
      store.set(pushToastAtom, { id: 'results-1', kind: 'warning', title: 'Once' })
      store.set(pushToastAtom, { id: 'results-1', kind: 'warning', title: 'Once' })
    })
    expect(screen.getAllByText('Once')).toHaveLength(1)
  })

  it('closes a toast with its dismiss button', () => {
    const store = renderToasts()
    act(() => {
      store.set(pushToastAtom, { kind: 'info', title: 'Hello', description: 'World' })
    })
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }))
    expect(store.get(toastsAtom)).toEqual([])
  })
})
