import { useEffect, useRef, useState } from 'react'

/**
 * Text for an aria-live="polite" region that follows `text` while `active`, at most once every
 * `intervalMs` (issue 23: playback announces the current output at most once a second, so a
 * screen reader is not flooded at 3 outputs/s). A change inside the interval is announced when
 * the interval ends, with the latest text; while inactive the last announcement stays.
 */
export function usePoliteAnnouncement(text: string, active: boolean, intervalMs: number): string {
  const [announced, setAnnounced] = useState('')
  const lastMsRef = useRef(-Infinity)
  useEffect(() => {
    if (!active || text === '') return
    const waitMs = lastMsRef.current + intervalMs - performance.now()
    const announce = () => {
      lastMsRef.current = performance.now()
      setAnnounced(text)
    }
    if (waitMs <= 0) {
      announce()
      return
    }
    const timer = setTimeout(announce, waitMs)
    return () => clearTimeout(timer)
  }, [text, active, intervalMs])
  return announced
}
