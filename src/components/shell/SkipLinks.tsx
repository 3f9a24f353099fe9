import { atom, useAtomValue, useSetAtom } from 'jotai'
import { useEffect } from 'react'

/** A place a skip link jumps to: the id of an element in the page. */
export interface SkipTarget {
  targetId: string
  label: string
}

/** The main content: every logged-in page has it (AppShell's <main>). */
export const MAIN_CONTENT_ID = 'main'

/** Skip targets the page shown adds after "Skip to main content" (the results page: view, timeline). */
export const pageSkipTargetsAtom = atom<readonly SkipTarget[]>([])
pageSkipTargetsAtom.debugLabel = 'pageSkipTargetsAtom'

/** A page's own skip targets, listed while it is mounted. Pass a stable (module-level) array. */
export function usePageSkipTargets(targets: readonly SkipTarget[]): void {
  const setTargets = useSetAtom(pageSkipTargetsAtom)
  useEffect(() => {
    setTargets(targets)
    return () => setTargets([])
  }, [setTargets, targets])
}

/** Moves focus to the target (made focusable by script if it is not) and brings it into view. */
function focusTarget(targetId: string): void {
  const target = document.getElementById(targetId)
  if (!target) return
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
  target.focus()
  target.scrollIntoView?.({ block: 'nearest' })
}

/**
 * The first Tab stops of every logged-in page (issue 23): links, hidden until focused, that jump
 * past the menu bar to the main content and to the page's own landmarks.
 */
export function SkipLinks() {
  const pageTargets = useAtomValue(pageSkipTargetsAtom)
  const targets = [{ targetId: MAIN_CONTENT_ID, label: 'Skip to main content' }, ...pageTargets]
  return (
    <nav className="skip-links" aria-label="Skip links">
      {targets.map((target) => (
        <a
          key={target.targetId}
          className="skip-link"
          href={`#${target.targetId}`}
          onClick={(event) => {
            event.preventDefault()
            focusTarget(target.targetId)
          }}
        >
          {target.label}
        </a>
      ))}
    </nav>
  )
}
