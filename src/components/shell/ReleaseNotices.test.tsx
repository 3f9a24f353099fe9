import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  NEW_VERSION_TEXTS,
  NewVersionModal,
  ReleaseNotesModal,
  useReleaseNotes,
} from './ReleaseNotices.tsx'
import { compareReleaseVersions, releaseSeenKey } from './releaseNotesSeen.ts'

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

const NOTES_TITLE = "What's new in Dive 3.6.0"

/** The release notes as the menu bar wires them: by themselves, or from the Help menu. */
function Notes({ userId }: { userId: number }) {
  const notes = useReleaseNotes(userId)
  return (
    <>
      {notes.open && <ReleaseNotesModal onClose={notes.close} />}
      <button type="button" onClick={notes.show}>
        Help: what's new
      </button>
    </>
  )
}

function renderNotes(userId: number) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Notes userId={userId} />
    </QueryClientProvider>,
  )
  return { queryClient, ...view }
}

describe('release notes on the first visit after a new version', () => {
  it('opens by itself once when the running release is newer than the last one seen, and records it when closed', async () => {
    window.localStorage.setItem(releaseSeenKey(7), '1.3.2')
    const first = renderNotes(7)
    const dialog = await screen.findByRole('dialog', { name: NOTES_TITLE })
    expect(dialog.textContent).toContain('Volume clips')
    // Not recorded until closed: a reload before closing shows the notes again.
    expect(window.localStorage.getItem(releaseSeenKey(7))).toBe('1.3.2')
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(window.localStorage.getItem(releaseSeenKey(7))).toBe('1.4.0')
    first.unmount()

    // The next visit on the same release: nothing opens.
    const second = renderNotes(7)
    await vi.waitFor(() => expect(second.queryClient.getQueryData(['version'])).toBe('1.4.0'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('keeps the last seen release per user', async () => {
    window.localStorage.setItem(releaseSeenKey(7), '1.4.0')
    window.localStorage.setItem(releaseSeenKey(8), '1.3.9')
    const seven = renderNotes(7)
    await vi.waitFor(() => expect(seven.queryClient.getQueryData(['version'])).toBe('1.4.0'))
    expect(screen.queryByRole('dialog')).toBeNull()
    seven.unmount()
    renderNotes(8)
    expect(await screen.findByRole('dialog', { name: NOTES_TITLE })).toBeTruthy()
  })

  it('does not open on a first visit (nothing recorded) or for an older release, but records it', async () => {
    const first = renderNotes(9)
    await vi.waitFor(() => expect(window.localStorage.getItem(releaseSeenKey(9))).toBe('1.4.0'))
    expect(screen.queryByRole('dialog')).toBeNull()
    first.unmount()
    // A rollback to an older release than the one seen does not announce it.
    window.localStorage.setItem(releaseSeenKey(9), '1.10.0')
    const rolledBack = renderNotes(9)
    await vi.waitFor(() => expect(rolledBack.queryClient.getQueryData(['version'])).toBe('1.4.0'))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(window.localStorage.getItem(releaseSeenKey(9))).toBe('1.10.0')
  })

  it('opens from the Help menu and closing records the running release', async () => {
    window.localStorage.setItem(releaseSeenKey(7), '1.4.0')
    const view = renderNotes(7)
    await vi.waitFor(() => expect(view.queryClient.getQueryData(['version'])).toBe('1.4.0'))
    fireEvent.click(screen.getByRole('button', { name: "Help: what's new" }))
    expect(screen.getByRole('dialog', { name: NOTES_TITLE })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(window.localStorage.getItem(releaseSeenKey(7))).toBe('1.4.0')
  })
})

describe('compareReleaseVersions', () => {
  it('orders numeric parts as numbers and pre-releases before their release', () => {
    expect(compareReleaseVersions('1.10.0', '1.9.3')).toBe(1)
    expect(compareReleaseVersions('1.4', '1.4.0')).toBe(0)
    expect(compareReleaseVersions('2.0.0-rc.1', '2.0.0')).toBe(-1)
    expect(compareReleaseVersions('2.0.0-rc.2', '2.0.0-rc.10')).toBe(-1)
    expect(compareReleaseVersions('0.1.0', '0.2.0')).toBe(-1)
  })
})
