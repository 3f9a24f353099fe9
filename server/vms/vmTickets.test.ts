import { expect, it } from 'vitest'
import { VM_TICKET_TTL_MS, VmTickets } from './vmTickets.ts'

it('opens one VM once, within its time, never past the access token', () => {
  let nowMs = 1_000_000
  const tickets = new VmTickets(() => nowMs)
  const accessExpiresAtMs = nowMs + 3600_000
  const first = tickets.issue(7, 11, accessExpiresAtMs)
  expect(tickets.redeem(first, 8)).toBeNull()
  // Tried on another VM, it is used up.
  expect(tickets.redeem(first, 7)).toBeNull()
  const second = tickets.issue(7, 11, accessExpiresAtMs)
  expect(tickets.redeem(second, 7)).toEqual({
    vmId: 7,
    sessionId: 11,
    accessExpiresAtMs,
    expiresAtMs: nowMs + VM_TICKET_TTL_MS,
  })
  expect(tickets.redeem(second, 7)).toBeNull()
  const late = tickets.issue(7, 11, accessExpiresAtMs)
  nowMs += VM_TICKET_TTL_MS
  expect(tickets.redeem(late, 7)).toBeNull()
  const shortSession = tickets.issue(7, 11, nowMs + 1000)
  nowMs += 1000
  expect(tickets.redeem(shortSession, 7)).toBeNull()
  expect(tickets.redeem(undefined, 7)).toBeNull()
})
