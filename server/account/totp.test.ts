import { describe, expect, it } from 'vitest'
import { decodeBase32, encodeBase32, hotp, matchTotp, totpCode } from './totp.ts'

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890" (8-digit values, last 6 digits here).
const SEED = encodeBase32(Buffer.from('12345678901234567890'))

describe('TOTP (RFC 6238)', () => {
  it('gives the RFC test vectors', () => {
    expect(totpCode(SEED, 59_000)).toBe('287082')
    expect(totpCode(SEED, 1_111_111_109_000)).toBe('081804')
    expect(totpCode(SEED, 1_234_567_890_000)).toBe('005924')
    expect(totpCode(SEED, 20_000_000_000_000)).toBe('353130')
  })
  it('round-trips base32', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 17, 99])
    expect(decodeBase32(encodeBase32(bytes))).toEqual(bytes)
  })
  it('accepts one step of drift, refuses a used step and a wrong code', () => {
    const now = 1_700_000_000_000
    const previous = hotp(decodeBase32(SEED), Math.floor(now / 30_000) - 1)
    expect(matchTotp(SEED, previous, now, null)).toBe(Math.floor(now / 30_000) - 1)
    expect(matchTotp(SEED, totpCode(SEED, now), now, Math.floor(now / 30_000))).toBeNull()
    expect(matchTotp(SEED, '000000', now, null)).toBeNull()
    expect(matchTotp(SEED, totpCode(SEED, now - 120_000), now, null)).toBeNull()
  })
})
