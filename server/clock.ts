/**
 * The server's time source. Timestamps it hands out strictly increase, so "newest first" is a
 * total order even for rows written in the same millisecond; tests inject a source to move time.
 */
export interface Clock {
  nowMs(): number
  /** nowMs() as ISO-8601 text, the form every timestamp is stored in. */
  nowIso(): string
}

export function createClock(sourceMs: () => number = Date.now): Clock {
  let lastMs = 0
  const nowMs = () => {
    lastMs = Math.max(sourceMs(), lastMs + 1)
    return lastMs
  }
  return { nowMs, nowIso: () => new Date(nowMs()).toISOString() }
}
