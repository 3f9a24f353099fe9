import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { CONNECTION_TOAST_MS } from '../../domain/constants.ts'
import type { ConnectionToastState } from '../../domain/liveProtocol.ts'
import { callApi, tokenStore } from '../api/index.ts'
import { usePushToast } from '../components/Toasts.tsx'
import { applyLiveFrame } from './applyLiveFrame.ts'
import { LiveConnection, type SocketLike } from './LiveConnection.ts'

/** Words of the connection toast. */
export const CONNECTION_TOAST_TEXT: Record<ConnectionToastState, string> = {
  connected: 'Connected to the server.',
  reconnecting: 'Connection to the server lost. Reconnecting...',
  reconnected: 'Reconnected to the server.',
}

type ToastPusher = ReturnType<typeof usePushToast>

let connection: LiveConnection | null = null
let queryClientOfConnection: QueryClient | null = null
let pushToastOfConnection: ToastPusher | null = null

function liveUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${protocol}//${window.location.host}/ws/live`
}

/** The page's one live connection, created on first use. */
function liveConnection(queryClient: QueryClient, pushToast: ToastPusher): LiveConnection {
  queryClientOfConnection = queryClient
  pushToastOfConnection = pushToast
  if (connection) return connection
  const created = new LiveConnection({
    url: liveUrl(),
    // The browser socket has these members; its handler types are narrower than SocketLike says.
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    readToken: () => tokenStore.read()?.accessToken ?? null,
    onFrame: (frame) => {
      if (queryClientOfConnection && !applyLiveFrame(queryClientOfConnection, frame))
        console.warn('Unexpected live update', frame)
    },
    onUnexpected: (reason) => console.warn('Unexpected live frame:', reason),
    // An authenticated call with the stale token makes the API client refresh it (single flight).
    onUnauthorized: () => {
      void callApi('currentUser', undefined, { redirectOnAuthFailure: false }).catch(
        () => undefined,
      )
    },
    onConnectionChange: (state) => {
      // The first connect is silent: only changes of an established connection are news.
      if (state === 'connected') return
      pushToastOfConnection?.({
        id: 'live-connection',
        kind: state === 'reconnecting' ? 'warning' : 'success',
        title: CONNECTION_TOAST_TEXT[state],
        durationMs: CONNECTION_TOAST_MS,
      })
    },
  })
  document.addEventListener('visibilitychange', () =>
    created.setPageHidden(document.visibilityState === 'hidden'),
  )
  tokenStore.subscribe(() => {
    if (tokenStore.read() === null) created.stop()
    else created.start()
  })
  connection = created
  return created
}

/** Follows a simulation on the live channel while the calling component is mounted. */
export function useLiveSimulation(simulationId: number | undefined): void {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  useEffect(() => {
    if (simulationId === undefined) return
    const live = liveConnection(queryClient, pushToast)
    live.start()
    return live.subscribe(simulationId)
  }, [simulationId, queryClient, pushToast])
}
