import { useEffect, useRef } from 'react'

/** True while typing or choosing in a field: keys then belong to it (Space, t, r, arrows). */
export function isEditingField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/**
 * Space toggles playback anywhere on the page unless a field has focus (spec/results.md §2,
 * spec/setup.md §2): the latest `toggle` runs once per press, and a focused button does not also
 * take the Space as a click.
 */
export function useSpaceToggle(enabled: boolean, toggle: () => void): void {
  const toggleRef = useRef(toggle)
  useEffect(() => {
    toggleRef.current = toggle
  })
  useEffect(() => {
    if (!enabled) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.code !== 'Space' && event.key !== ' ') return
      if (event.repeat || event.defaultPrevented || isEditingField(event.target)) return
      event.preventDefault()
      toggleRef.current()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [enabled])
}
