import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, render, waitFor } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { tokenStore } from '../../../api/index.ts'
import { toastsAtom } from '../../../state/toastsAtom.ts'
import { makeSimulation } from '../../../testing/fixtures.ts'
import { WarningAlertToasts } from './WarningAlertToasts.tsx'

/* A triggered warning alert shows in the UI (issue 14 item 3: it showed nothing). */

let triggered = false
const conditionCalls: string[] = []

beforeEach(() => {
  triggered = false
  conditionCalls.length = 0
  tokenStore.write({ accessToken: 'a', refreshToken: 'r', expiresAtMs: Date.now() + 60_000 })
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      conditionCalls.push(url.search)
      const body = [
        {
          id: 7,
          runId: 9,
          action: 'warning',
          valueType: 'runtime',
          operator: '>=',
          threshold: 1440,
          triggered,
        },
      ]
      return Promise.resolve(
        new Response(JSON.stringify(body), {
          status: 200,
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

describe('WarningAlertToasts', () => {
  it('toasts a warning alert of the running simulation when it triggers', async () => {
    const store = createStore()
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <JotaiProvider store={store}>
        <QueryClientProvider client={queryClient}>
          <WarningAlertToasts simulation={makeSimulation({ state: 'running', activeRunId: 9 })} />
        </QueryClientProvider>
      </JotaiProvider>,
    )
    await waitFor(() => expect(conditionCalls).toEqual(['?runId=9']))
    await waitFor(() => expect(queryClient.isFetching()).toBe(0))
    expect(store.get(toastsAtom)).toEqual([])
    triggered = true
    // What the 5 s poll of a running simulation does.
    await act(() => queryClient.refetchQueries({ queryKey: ['listConditions'] }))
    await waitFor(() => expect(store.get(toastsAtom)).toHaveLength(1))
    expect(store.get(toastsAtom)[0]).toMatchObject({
      kind: 'warning',
      title: 'Warning: runtime limit reached.',
      description: 'Runtime ≥ 1 days',
    })
  })
})
