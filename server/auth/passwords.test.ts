import { describe, expect, it } from 'vitest'
import {
  PasswordCheckBusyError,
  UNUSABLE_PASSWORD_HASH,
  WorkGate,
  hashPassword,
  verifyPassword,
} from './passwords.ts'
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

describe('WorkGate (bounded scrypt work)', () => {
  it('runs at most its concurrency, queues up to its limit and refuses the rest at once', async () => {
    const gate = new WorkGate(2, 3)
    let running = 0
    let most = 0
    const releases: (() => void)[] = []
    const task = () =>
      new Promise<void>((resolve) => {
        running += 1
        most = Math.max(most, running)
        releases.push(() => {
          running -= 1
          resolve()
        })
      })
    const results = Array.from({ length: 10 }, () =>
      gate.run(task).then(
        () => 'done',
        (error: unknown) => (error instanceof PasswordCheckBusyError ? 'busy' : 'other'),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(running).toBe(2)
    while (releases.length > 0) {
      releases.shift()?.()
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    const outcomes = await Promise.all(results)
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(5)
    expect(outcomes.filter((o) => o === 'busy')).toHaveLength(5)
    expect(most).toBe(2)
    // Free again: a new task runs.
    await expect(gate.run(() => Promise.resolve(7))).resolves.toBe(7)
  })
})
