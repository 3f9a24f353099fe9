import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/** scrypt cost: N=16384, r=8, p=1 (about 16 MiB and 50 ms per hash). */
const PARAMS = { N: 16384, r: 8, p: 1 } as const
const KEY_BYTES = 64
const SALT_BYTES = 16

/** A password check refused because too many are already waiting (see {@link WorkGate}). */
export class PasswordCheckBusyError extends Error {
  constructor() {
    super('Too many password checks are waiting')
    this.name = 'PasswordCheckBusyError'
  }
}

/**
 * Runs at most `concurrency` tasks at once and queues at most `queueLimit` more; a task beyond
 * that is refused at once with {@link PasswordCheckBusyError}, so a flood of logins can neither
 * occupy every libuv thread (fs and other crypto share the 4 of them) nor pile up memory.
 */
export class WorkGate {
  readonly #concurrency: number
  readonly #queueLimit: number
  #running = 0
  readonly #waiting: (() => void)[] = []

  constructor(concurrency: number, queueLimit: number) {
    this.#concurrency = concurrency
    this.#queueLimit = queueLimit
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#concurrency) {
      if (this.#waiting.length >= this.#queueLimit) throw new PasswordCheckBusyError()
      await new Promise<void>((resolve) => this.#waiting.push(resolve))
    } else this.#running += 1
    try {
      return await task()
    } finally {
      const next = this.#waiting.shift()
      // The slot passes straight to the next task, so `running` stays counted.
      if (next) next()
      else this.#running -= 1
    }
  }
}

/**
 * scrypt work of the whole process: 2 at once (about 16 MiB and 50 ms each), 32 waiting, so at
 * most about 1 s of queued hashing; more concurrent log-ins are told to try again.
 */
const SCRYPT_GATE = new WorkGate(2, 32)

function deriveKey(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return SCRYPT_GATE.run(() => deriveKeyNow(password, salt, options))
}

function deriveKeyNow(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_BYTES,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    )
  })
}

/** `scrypt$N$r$p$salt$key` (base64url): the parameters travel with the hash so they can change. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await deriveKey(password, salt, PARAMS)
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$')
}

/** A hash that matches no password, checked when the e-mail is unknown so both cases take as long. */
export const UNUSABLE_PASSWORD_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(SALT_BYTES).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || salt === undefined || key === undefined) return false
  const expected = Buffer.from(key, 'base64url')
  const actual = await deriveKey(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  })
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
