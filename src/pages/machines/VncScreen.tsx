import RFB from '@novnc/novnc'
import { useEffect, useRef, useState } from 'react'
import { VM_CONNECTION_RETRY } from '../../../domain/constants.ts'
import { tokenStore } from '../../api/index.ts'

/** What the VNC view reports: connected, or failed after the retries. */
export type VncStatus = 'connecting' | 'connected' | 'failed'

/** The websocket URL of a VM's stream on this origin, with the session's access token. */
function socketUrl(path: string): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
  const token = tokenStore.read()?.accessToken ?? ''
  return `${protocol}//${window.location.host}${path}?token=${encodeURIComponent(token)}`
}

/**
 * The VM's desktop in noVNC, streamed through the product's own websocket. A connection that
 * fails or drops is tried again up to 3 times at 1 s intervals (spec/account.md §4); then the
 * window reports failed. Logging out ends the session on the server, which closes the socket.
 */
export function VncScreen({
  websocketUrl,
  password,
  label,
  onStatus,
}: {
  websocketUrl: string
  password: string
  label: string
  onStatus: (status: VncStatus) => void
}) {
  const targetRef = useRef<HTMLDivElement>(null)
  const onStatusRef = useRef(onStatus)
  // Each new value opens a new connection; failures in a row count toward the retries.
  const [generation, setGeneration] = useState(0)
  const failures = useRef(0)
  useEffect(() => {
    onStatusRef.current = onStatus
  }, [onStatus])

  useEffect(() => {
    const target = targetRef.current
    if (!target) return
    let ended = false
    let retryTimer: number | undefined
    const rfb = new RFB(target, socketUrl(websocketUrl), {
      credentials: { password },
      shared: true,
    })
    rfb.scaleViewport = true
    rfb.background = '#1b1f24'
    rfb.addEventListener('connect', () => {
      failures.current = 0
      onStatusRef.current('connected')
    })
    rfb.addEventListener('disconnect', () => {
      if (ended) return
      failures.current += 1
      if (failures.current > VM_CONNECTION_RETRY.attempts) {
        onStatusRef.current('failed')
        return
      }
      onStatusRef.current('connecting')
      retryTimer = window.setTimeout(
        () => setGeneration((n) => n + 1),
        VM_CONNECTION_RETRY.intervalMs,
      )
    })
    rfb.addEventListener('securityfailure', () => onStatusRef.current('failed'))
    return () => {
      ended = true
      window.clearTimeout(retryTimer)
      rfb.disconnect()
    }
  }, [websocketUrl, password, generation])

  return <div ref={targetRef} className="vnc-screen" role="application" aria-label={label} />
}
