import { useSyncExternalStore } from 'react'
import { SMALL_SCREEN_WIDTH_PX } from '../../../../../domain/constants.ts'

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange)
  return () => window.removeEventListener('resize', onChange)
}

/** True when the window is narrower than the small-screen threshold (spec/results.md §9: 1700 px). */
export function isSmallScreen(widthPx: number): boolean {
  return widthPx < SMALL_SCREEN_WIDTH_PX
}

/** Whether the window is below the small-screen threshold, following resizes. */
export function useSmallScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => isSmallScreen(window.innerWidth),
    () => false,
  )
}
