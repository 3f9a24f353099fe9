import { randomBytes } from 'node:crypto'

/*
 * Short-lived tickets for the VM websocket (issue 20 item 4): the page asks for one with its bearer
 * token (POST /remote_vms/{id}/ticket) and opens /ws/vms/{id}?ticket=…, so the session's access
 * token never travels in a URL (where proxies and logs keep it). A ticket opens one socket of one
 * VM, once, within VM_TICKET_TTL_MS, and carries the session it was issued to: logout or the
 * token's expiry still closes the stream.
 */

/** How long a ticket stays good: enough to open the socket right after asking. */
export const VM_TICKET_TTL_MS = 30_000

/** What a redeemed ticket stands for. */
export interface VmTicket {
  vmId: number
  sessionId: number
  accessExpiresAtMs: number
  expiresAtMs: number
}

/** The tickets issued by one server (in memory: the socket is opened on the server that issued it). */
export class VmTickets {
  readonly #tickets = new Map<string, VmTicket>()
  readonly #nowMs: () => number

  constructor(nowMs: () => number = Date.now) {
    this.#nowMs = nowMs
  }

  /** A new ticket for the VM and session. */
  issue(vmId: number, sessionId: number, accessExpiresAtMs: number): string {
    const nowMs = this.#nowMs()
    for (const [key, ticket] of this.#tickets)
      if (ticket.expiresAtMs <= nowMs) this.#tickets.delete(key)
    const key = randomBytes(24).toString('base64url')
    this.#tickets.set(key, {
      vmId,
      sessionId,
      accessExpiresAtMs,
      expiresAtMs: Math.min(nowMs + VM_TICKET_TTL_MS, accessExpiresAtMs),
    })
    return key
  }

  /** The ticket's grant if it is good for this VM (it is used up either way); else null. */
  redeem(key: string | undefined, vmId: number): VmTicket | null {
    if (!key) return null
    const ticket = this.#tickets.get(key)
    this.#tickets.delete(key)
    if (!ticket || ticket.vmId !== vmId || ticket.expiresAtMs <= this.#nowMs()) return null
    return ticket
  }
}
