import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  NEW_VERSION_TEXTS,
  NewVersionModal,
  RELEASE_NOTES_SEEN_KEY,
  ReleaseNotesModal,
  releaseNotesSeen,
} from './ReleaseNotices.tsx'

/* The release-version check (issue 14 item 3: GET /api/version was never called by the app). */

let version = '1.4.0'
let calls = 0

beforeEach(() => {
  version = '1.4.0'
  calls = 0
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(
        input instanceof Request ? input.url : input.toString(),
        'http://dive.test',
      )
      if (url.pathname !== '/api/version') return Promise.resolve(new Response('', { status: 404 }))
      calls++
      return Promise.resolve(
        new Response(version, { status: 200, headers: { 'content-type': 'text/plain' } }),
      )
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  window.localStorage.clear()
})

describe('NewVersionModal', () => {
  it('asks GET /api/version and opens the modal once the server reports another release', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={queryClient}>
        <NewVersionModal />
      </QueryClientProvider>,
    )
    await vi.waitFor(() => expect(queryClient.getQueryData(['version'])).toBe('1.4.0'))
    expect(calls).toBe(1)
    expect(screen.queryByRole('dialog')).toBeNull()
    // What the 10-minute check finds after a release.
    version = '1.5.0'
    await act(() => queryClient.refetchQueries({ queryKey: ['version'] }))
    const dialog = await screen.findByRole('dialog', { name: NEW_VERSION_TEXTS.title })
    expect(dialog.textContent).toContain('Version 1.5.0 has been released.')
    fireEvent.click(screen.getByRole('button', { name: 'Later' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('ReleaseNotesModal', () => {
  it('sets the local flag when shown, so it counts as seen', () => {
    expect(releaseNotesSeen(window.localStorage)).toBe(false)
    const onClose = vi.fn()
    render(<ReleaseNotesModal onClose={onClose} />)
    expect(screen.getByRole('dialog', { name: "What's new in Dive 3.6.0" }).textContent).toContain(
      'Volume clips',
    )
    expect(window.localStorage.getItem(RELEASE_NOTES_SEEN_KEY)).toBe('1')
    expect(releaseNotesSeen(window.localStorage)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }))
    expect(onClose).toHaveBeenCalled()
  })
})
