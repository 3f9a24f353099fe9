import { useSyncExternalStore } from 'react'
import { createApiClient } from './client.ts'
import { createTokenStore } from './tokens.ts'

/** The browser's token store (localStorage 'dive.auth', synced across tabs). */
export const tokenStore = createTokenStore(window.localStorage, window)

let loginRequiredHandler: () => void = () => undefined

/** The router registers where a lost session sends the person (the login page). */
export function setLoginRequiredHandler(handler: () => void): void {
  loginRequiredHandler = handler
}

// jsdom has navigator.locks as null; older browsers lack it.
const locks = (navigator as { locks?: LockManager | null }).locks ?? null

/** The app's API client; components reach the server only through it. */
export const api = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  tokens: tokenStore,
  onLoginRequired: () => loginRequiredHandler(),
  // A minute ahead of the 15 min access token, so open websockets never see it expire (not in unit
  // tests: they script every request the client sends).
  ...(import.meta.env.MODE !== 'test' && { refreshAheadMs: 60_000 }),
  ...(locks && { refreshLock: <T>(run: () => Promise<T>) => withLock(locks, run) }),
})

/** Runs `run` holding the browser-wide refresh lock (all tabs of this origin). */
async function withLock<T>(locks: LockManager, run: () => Promise<T>): Promise<T> {
  let result!: T
  await locks.request('dive.auth.refresh', async () => {
    result = await run()
  })
  return result
}

export const callApi = api.callApi

/** The stored tokens, re-rendering on login, logout and changes from other tabs. */
export function useAuthTokens() {
  return useSyncExternalStore(tokenStore.subscribe, tokenStore.read)
}
