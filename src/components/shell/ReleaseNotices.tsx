import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { POLL_INTERVALS_MS } from '../../../domain/constants.ts'
import { callApi } from '../../api/index.ts'
import { routeKey } from '../../queries/queries.ts'
import { Dialog } from '../Dialog.tsx'
import { readSeenRelease, recordSeenRelease, releaseNotesDue } from './releaseNotesSeen.ts'

/** The release the release notes describe (spec/account.md §2: 3.6.0, volume clips and volume). */
export const RELEASE_NOTES_VERSION = '3.6.0'

/** Words of the new-version modal. */
export const NEW_VERSION_TEXTS = {
  title: 'A new version of Dive is available',
  text: (version: string) =>
    `Version ${version} has been released. Reload the page to use it; unsaved input in open forms is lost.`,
  later: 'Later',
  reload: 'Reload',
} as const

/**
 * The release version, asked for every 10 minutes (spec/results.md §9). Returns the version the
 * page loaded with and the newest one the server reports.
 */
export function useReleaseVersion() {
  const query = useQuery({
    queryKey: routeKey('version'),
    queryFn: ({ signal }) => callApi('version', {}, { signal }),
    refetchInterval: POLL_INTERVALS_MS.releaseVersion,
    refetchIntervalInBackground: true,
    staleTime: POLL_INTERVALS_MS.releaseVersion,
  })
  // The first version seen is the one this page runs (set during render: derived state).
  const [loaded, setLoaded] = useState<string | null>(null)
  if (loaded === null && query.data !== undefined) setLoaded(query.data)
  return { loaded, latest: query.data ?? null }
}

/**
 * The new-version modal: opens when the server reports another release than the one this page
 * was loaded with; Reload loads it, Later hides it until the next release.
 */
export function NewVersionModal() {
  const { loaded, latest } = useReleaseVersion()
  const [dismissed, setDismissed] = useState<string | null>(null)
  if (loaded === null || latest === null || latest === loaded || dismissed === latest) return null
  return (
    <Dialog title={NEW_VERSION_TEXTS.title} onClose={() => setDismissed(latest)} size="small">
      <div className="dialog__body">
        <p>{NEW_VERSION_TEXTS.text(latest)}</p>
      </div>
      <footer className="dialog__footer">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setDismissed(latest)}
        >
          {NEW_VERSION_TEXTS.later}
        </button>
        <button
          type="button"
          className="button button--primary"
          data-autofocus
          onClick={() => window.location.reload()}
        >
          {NEW_VERSION_TEXTS.reload}
        </button>
      </footer>
    </Dialog>
  )
}

/** Local storage where it can be reached (null where the browser refuses it). */
function localStore(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/**
 * The release notes' open state for a user: they open by themselves once when the release this
 * page runs is newer than the last one the user has seen (kept per user in local storage), open
 * from the Help menu through `show`, and `close` records the running release as seen. On a first
 * visit (nothing recorded) the running release is recorded without opening them.
 */
export function useReleaseNotes(userId: number) {
  const { loaded } = useReleaseVersion()
  // undefined until the running release is known.
  const lastSeen = useMemo(
    () => (loaded === null ? undefined : readSeenRelease(localStore(), userId)),
    [loaded, userId],
  )
  const [shown, setShown] = useState(false)
  const [autoClosed, setAutoClosed] = useState(false)
  useEffect(() => {
    if (loaded !== null && lastSeen === null) recordSeenRelease(localStore(), userId, loaded)
  }, [loaded, lastSeen, userId])
  const due =
    loaded !== null && lastSeen !== undefined && releaseNotesDue(loaded, lastSeen) && !autoClosed
  return {
    open: shown || due,
    show: () => setShown(true),
    close: () => {
      setShown(false)
      setAutoClosed(true)
      if (loaded !== null) recordSeenRelease(localStore(), userId, loaded)
    },
  }
}

/** The release notes of 3.6.0: volume clips and the volume attribute. */
export function ReleaseNotesModal({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title={`What's new in Dive ${RELEASE_NOTES_VERSION}`} onClose={onClose}>
      <div className="dialog__body">
        <h3>Volume clips</h3>
        <p>
          In Results, add a volume clip (a box, cylinder or sphere) in the explorer: the particles
          inside it can be shown on their own, and the Statistics table computes over them only.
        </p>
        <h3>The volume attribute</h3>
        <p>
          Colour particles by the volume they stand for, in liters, and sum it in the Statistics
          table to read how much fluid a region holds.
        </p>
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
          Got it
        </button>
      </footer>
    </Dialog>
  )
}
