import { describe, expect, it } from 'vitest'
import type { AccessGrant } from '../../../domain/accountAccess.ts'
import { accessGrantOptions, cutName } from './accessGrantOptions.ts'

const grant = (id: number, overrides: Partial<AccessGrant> = {}): AccessGrant => ({
  id,
  requesterId: 1,
  requester: { fullName: 'Ada Admin', avatarId: 9 },
  organization: { id: 20 + id, name: `Organization ${id}` },
  state: 'active',
  expiry: '2026-11-28T10:00:00.000Z',
  reason: 'support',
  createdAt: '2026-11-27T10:00:00.000Z',
  ...overrides,
})
const user = { id: 1, activeAccessGrantId: null, organization: { id: 1, name: 'Demo' } }

describe('accessGrantOptions', () => {
  it('offers only the user’s own active grants, named by organization and end', () => {
    const options = accessGrantOptions(
      [grant(1), grant(2, { requesterId: 5 }), grant(3, { state: 'revoked' }), grant(4)],
      user,
    )
    expect(options.map((option) => option.grantId)).toEqual([1, 4])
    expect(options[0]?.label).toMatch(/^Organization 1 \(until \d\d\.\d\d\.\d{4}, \d\d:\d\d\)$/)
  })

  it('keeps the grant the user acts through listed while the list catches up', () => {
    const acting = { ...user, activeAccessGrantId: 7, organization: { id: 27, name: 'Acme' } }
    expect(accessGrantOptions([grant(1)], acting).map((o) => [o.grantId, o.label])).toEqual([
      [7, 'Acme'],
      [1, expect.stringMatching(/^Organization 1/)],
    ])
  })
})

describe('cutName', () => {
  it('cuts names longer than 80 characters with an ellipsis and keeps shorter ones', () => {
    expect(cutName('Short name')).toBe('Short name')
    const long = 'x'.repeat(120)
    expect(cutName(long)).toBe(`${'x'.repeat(80)}…`)
    expect(cutName('y'.repeat(80))).toBe('y'.repeat(80))
  })
})
