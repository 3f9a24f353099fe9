import RFB from '@novnc/novnc'
import { useEffect, useRef, useState } from 'react'
import { VM_CONNECTION_RETRY } from '../../../domain/constants.ts'
import { routePath } from '../../../domain/rest.ts'
import { VM_TICKET_PATH } from '../../../domain/rest/vmRoutes.ts'
import { api } from '../../api/index.ts'

/** What the VNC view reports: connected, or failed after the retries. */
export type VncStatus = 'connecting' | 'connected' | 'failed'

/**
 * The websocket URL of a VM's stream on this origin with a fresh short-lived ticket (asked for with
 * the session's bearer token), so the access token never appears in a URL.
 */
async function socketUrl(vmId: number, path: string, signal: AbortSignal): Promise<string> {
  const response = await api.requestRaw({
    method: 'POST',
    path: routePath(VM_TICKET_PATH, { id: vmId }),
    expectedStatus: 201,
    signal,
  })
  const { ticket } = (await response.json()) as { ticket: string }
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${protocol}//${window.location.host}${path}?ticket=${encodeURIComponent(ticket)}`
}

/**
 * The VM's desktop in noVNC, streamed through the product's own websocket. A connection that
 * fails or drops is tried again up to 3 times at 1 s intervals (spec/account.md §4); then the
 * window reports failed. Logging out ends the session on the server, which closes the socket.
 */
export function VncScreen({
  vmId,
  websocketUrl,
  password,
  label,
  onStatus,
}: {
  vmId: number
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
    let rfb: RFB | null = null
    const aborter = new AbortController()
    // A failed ticket or a dropped connection: tried again up to the retries, then failed.
    const retry = () => {
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
    }
    socketUrl(vmId, websocketUrl, aborter.signal).then((url) => {
      if (ended) return
      rfb = new RFB(target, url, { credentials: { password }, shared: true })
      rfb.scaleViewport = true
      rfb.background = '#1b1f24'
      rfb.addEventListener('connect', () => {
        failures.current = 0
        onStatusRef.current('connected')
      })
      rfb.addEventListener('disconnect', retry)
      rfb.addEventListener('securityfailure', () => onStatusRef.current('failed'))
    }, retry)
    return () => {
      ended = true
      aborter.abort()
      window.clearTimeout(retryTimer)
      rfb?.disconnect()
    }
  }, [vmId, websocketUrl, password, generation])

  return <div ref={targetRef} className="vnc-screen" role="application" aria-label={label} />
}
