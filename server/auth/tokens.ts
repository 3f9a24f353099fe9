import { createHash, randomBytes } from 'node:crypto'

/** An opaque bearer token: 32 random bytes, base64url. */
export function createToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Tokens are stored only as this digest, so a leaked table holds no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
