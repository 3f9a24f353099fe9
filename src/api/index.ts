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

/** The app's API client; components reach the server only through it. */
export const api = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  tokens: tokenStore,
  onLoginRequired: () => loginRequiredHandler(),
  // A minute ahead of the 15 min access token, so open websockets never see it expire.
  refreshAheadMs: 60_000,
  ...('locks' in navigator && {
    refreshLock: async <T>(run: () => Promise<T>): Promise<T> => {
      let result!: T
      await navigator.locks.request('dive.auth.refresh', async () => {
        result = await run()
      })
      return result
    },
  }),
})

export const callApi = api.callApi

/** The stored tokens, re-rendering on login, logout and changes from other tabs. */
export function useAuthTokens() {
  return useSyncExternalStore(tokenStore.subscribe, tokenStore.read)
}
