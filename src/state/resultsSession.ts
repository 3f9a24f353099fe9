import { atom, useAtomValue } from 'jotai'
import { useCallback, useEffect, useSyncExternalStore } from 'react'
import {
  ResultsSession,
  type ResultsSocketLike,
  type SessionSnapshot,
} from '../../engine/results/ResultsSession.ts'
import { callApi, tokenStore } from '../api/index.ts'

/*
 * One results-server session per simulation for the Results page. Panels that need it (statistics,
 * explorer info) share it through useResultsSession; it closes a few seconds after the last user
 * unmounts, so a remount (React StrictMode, a panel toggled) keeps the same connection.
 */

/** Creates the session of a simulation; tests put a fake-socket factory here. */
export type ResultsSessionFactory = (simulationId: number) => ResultsSession

/** How long a session outlives its last user. */
export const SESSION_RELEASE_GRACE_MS = 5000

function resultsUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${protocol}//${window.location.host}/ws/results`
}

/** The browser's session: a real WebSocket, the stored token, page visibility and logout wired in. */
export const createBrowserResultsSession: ResultsSessionFactory = () => {
  const session = new ResultsSession({
    url: resultsUrl(),
    // The browser socket has these members; its handler types are narrower than the interface says.
    createSocket: (url) => new WebSocket(url) as unknown as ResultsSocketLike,
    readToken: () => tokenStore.read()?.accessToken ?? null,
    onUnexpected: (reason) => console.warn('Results session:', reason),
    // An authenticated call with the stale token makes the API client refresh it (single flight).
    onUnauthorized: () => {
      void callApi('currentUser', undefined, { redirectOnAuthFailure: false }).catch(
        () => undefined,
      )
    },
  })
  const onVisibility = () => session.setPageHidden(document.visibilityState === 'hidden')
  document.addEventListener('visibilitychange', onVisibility)
  const unsubscribeTokens = tokenStore.subscribe(() => {
    if (tokenStore.read() === null) session.stop()
    else if (session.getSnapshot().status === 'closed') session.start()
  })
  disposers.set(session, () => {
    document.removeEventListener('visibilitychange', onVisibility)
    unsubscribeTokens()
  })
  return session
}

const disposers = new WeakMap<ResultsSession, () => void>()

/** The factory the page uses (the browser one unless a test set another). */
export const resultsSessionFactoryAtom = atom<{ create: ResultsSessionFactory }>({
  create: createBrowserResultsSession,
})
resultsSessionFactoryAtom.debugLabel = 'resultsSessionFactoryAtom'

interface Entry {
  session: ResultsSession
  users: number
  releaseTimer: ReturnType<typeof setTimeout> | null
}

const registry = new Map<ResultsSessionFactory, Map<number, Entry>>()
const registryListeners = new Set<() => void>()

function notifyRegistry(): void {
  for (const listener of registryListeners) listener()
}

function subscribeRegistry(listener: () => void): () => void {
  registryListeners.add(listener)
  return () => registryListeners.delete(listener)
}

/** The running session of a simulation, if some component holds it. */
function peekResultsSession(
  simulationId: number,
  create: ResultsSessionFactory,
): ResultsSession | null {
  return registry.get(create)?.get(simulationId)?.session ?? null
}

/** Takes a share of the simulation's session (started on first use); call the release when done. */
export function acquireResultsSession(
  simulationId: number,
  create: ResultsSessionFactory = createBrowserResultsSession,
): { session: ResultsSession; release: () => void } {
  let bySimulation = registry.get(create)
  if (!bySimulation) {
    bySimulation = new Map()
    registry.set(create, bySimulation)
  }
  let entry = bySimulation.get(simulationId)
  if (!entry) {
    entry = { session: create(simulationId), users: 0, releaseTimer: null }
    bySimulation.set(simulationId, entry)
    entry.session.start()
    notifyRegistry()
  }
  const held = entry
  if (held.releaseTimer !== null) clearTimeout(held.releaseTimer)
  held.releaseTimer = null
  held.users += 1
  let released = false
  return {
    session: held.session,
    release: () => {
      if (released) return
      released = true
      held.users -= 1
      if (held.users > 0) return
      held.releaseTimer = setTimeout(() => {
        if (held.users > 0) return
        bySimulation.delete(simulationId)
        held.session.stop()
        disposers.get(held.session)?.()
        notifyRegistry()
      }, SESSION_RELEASE_GRACE_MS)
    },
  }
}

/** The simulation's results session while the caller is mounted (null on the first render). */
export function useResultsSession(simulationId: number): ResultsSession | null {
  const { create } = useAtomValue(resultsSessionFactoryAtom)
  useEffect(() => acquireResultsSession(simulationId, create).release, [simulationId, create])
  return useSyncExternalStore(subscribeRegistry, () => peekResultsSession(simulationId, create))
}

const IDLE_SNAPSHOT: SessionSnapshot = { status: 'idle', attempts: 0, opens: 0, toast: null }
const noSubscription = () => () => undefined

/** The session's connection state, re-rendering on every change. */
export function useResultsSessionSnapshot(session: ResultsSession | null): SessionSnapshot {
  const subscribe = useCallback(
    (listener: () => void) => (session ? session.subscribe(listener) : noSubscription()),
    [session],
  )
  return useSyncExternalStore(subscribe, () => session?.getSnapshot() ?? IDLE_SNAPSHOT)
}
