import { describe, expect, it } from 'vitest'
import { UNUSABLE_PASSWORD_HASH, hashPassword, verifyPassword } from './passwords.ts'
import { createToken, hashToken } from './tokens.ts'

describe('passwords', () => {
  it('verifies the password it hashed and refuses another', async () => {
    const hash = await hashPassword('dive-demo')
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/)
    expect(await verifyPassword('dive-demo', hash)).toBe(true)
    expect(await verifyPassword('dive-demo ', hash)).toBe(false)
    expect(await verifyPassword('', hash)).toBe(false)
  })

  it('salts every hash, so equal passwords store differently', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'))
  })

  it('matches nothing with the unusable hash or a malformed one', async () => {
    expect(await verifyPassword('', UNUSABLE_PASSWORD_HASH)).toBe(false)
    expect(await verifyPassword('x', 'plain-text')).toBe(false)
    expect(await verifyPassword('x', 'scrypt$1$2')).toBe(false)
  })
})

describe('tokens', () => {
  it('creates 32-byte base64url tokens that differ each time', () => {
    const a = createToken()
    expect(a).toMatch(/^[\w-]{43}$/)
    expect(createToken()).not.toBe(a)
  })

  it('stores a token as its SHA-256 digest', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })
})
