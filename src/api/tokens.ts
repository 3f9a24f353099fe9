import * as v from 'valibot'
import type { TokenResponse } from '../../domain/auth.ts'

/** localStorage key of the bearer tokens. */
export const AUTH_STORAGE_KEY = 'dive.auth'

const StoredTokensSchema = v.object({
  accessToken: v.string(),
  refreshToken: v.string(),
  /** When the access token runs out (epoch ms); kept for display and debugging. */
  expiresAtMs: v.number(),
})
export type AuthTokens = v.InferOutput<typeof StoredTokensSchema>

/** The tokens of this browser, kept in localStorage so a reload or a new tab stays logged in. */
export interface TokenStore {
  read: () => AuthTokens | null
  write: (tokens: AuthTokens) => void
  clear: () => void
  /** Called after every write or clear (also from other tabs); returns an unsubscribe. */
  subscribe: (listener: () => void) => () => void
}

export function tokensFromResponse(response: TokenResponse, nowMs: number): AuthTokens {
  return {
    accessToken: response.accessToken,
    refreshToken: response.refreshToken,
    expiresAtMs: nowMs + response.expiresIn * 1000,
  }
}

/**
 * A TokenStore over a Storage. read() returns the same object until the stored text changes, so it
 * can back useSyncExternalStore.
 */
export function createTokenStore(storage: Storage, eventTarget?: EventTarget): TokenStore {
  const listeners = new Set<() => void>()
  let cachedRaw: string | null = null
  let cachedTokens: AuthTokens | null = null

  function notify(): void {
    for (const listener of listeners) listener()
  }

  function read(): AuthTokens | null {
    const raw = storage.getItem(AUTH_STORAGE_KEY)
    if (raw === cachedRaw) return cachedTokens
    cachedRaw = raw
    cachedTokens = null
    if (raw !== null) {
      try {
        // localStorage is a trust boundary: anything unexpected counts as logged out.
        const parsed = v.safeParse(StoredTokensSchema, JSON.parse(raw))
        if (parsed.success) cachedTokens = parsed.output
      } catch {
        cachedTokens = null
      }
    }
    return cachedTokens
  }

  eventTarget?.addEventListener('storage', (event) => {
    if ((event as StorageEvent).key === AUTH_STORAGE_KEY || (event as StorageEvent).key === null)
      notify()
  })

  return {
    read,
    write(tokens) {
      storage.setItem(AUTH_STORAGE_KEY, JSON.stringify(tokens))
      notify()
    },
    clear() {
      storage.removeItem(AUTH_STORAGE_KEY)
      notify()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
