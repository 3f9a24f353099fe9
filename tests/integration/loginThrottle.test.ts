import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  LOGIN_THROTTLE,
  WRONG_CREDENTIALS_MESSAGE,
  tooManyLoginAttemptsMessage,
} from '../../domain/auth.ts'
import { buildApp } from '../../server/app.ts'
import { createClock } from '../../server/clock.ts'
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

// Issue 13 item 3: 100 wrong passwords, then the right one worked at once.
describeEachDialect('login throttling', (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(async () => {
    await server?.close()
  })

  const attempt = (email: string, password: string) =>
    server.request('POST', '/api/auth/login', { body: { email, password } })

  it('refuses an account after 5 wrong passwords, the right one included, until the window passes', async () => {
    const email = DEMO_USERS.manager.email
    const statuses: number[] = []
    for (let i = 0; i < 100; i += 1) statuses.push((await attempt(email, `wrong-${i}`)).status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_THROTTLE.accountFailures)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - LOGIN_THROTTLE.accountFailures)

    const right = await attempt(email, DEMO_PASSWORD)
    expect(right.status).toBe(429)
    expect(right.body).toEqual({
      code: 'too_many_requests',
      title: 'Too many requests',
      description: tooManyLoginAttemptsMessage(Number(right.headers.get('retry-after'))),
    })
    expect(right.body.description).toBe('Too many failed log-in attempts. Try again in 15 minutes.')
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(14 * 60)

    // Another account from the same address is not locked by this one.
    expect((await attempt(DEMO_USERS.contributor.email, DEMO_PASSWORD)).status).toBe(200)

    server.advanceClockMs(LOGIN_THROTTLE.windowMs + 1000)
    expect((await attempt(email, DEMO_PASSWORD)).status).toBe(200)
    // The success cleared the account's count: a typo afterwards is a plain 401 again.
    const typo = await attempt(email, 'typo')
    expect(typo.status).toBe(401)
    expect(typo.body.description).toBe(WRONG_CREDENTIALS_MESSAGE)
  })

  it('counts concurrent guesses as they start, so a burst gets no more than the limit checked', async () => {
    server.advanceClockMs(LOGIN_THROTTLE.windowMs + 1000)
    const email = DEMO_USERS.admin.email
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => attempt(email, `burst-${i}`)),
    )
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(
      LOGIN_THROTTLE.accountFailures,
    )
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true)
  })

  it('refuses an address after 20 failures over any accounts, even with a right password', async () => {
    server.advanceClockMs(LOGIN_THROTTLE.windowMs + 1000)
    for (let i = 0; i < LOGIN_THROTTLE.addressFailures; i += 1)
      expect((await attempt(`nobody-${i}@dive.example`, 'guess')).status).toBe(401)
    const next = await attempt(DEMO_USERS.contributor.email, DEMO_PASSWORD)
    expect(next.status).toBe(429)
    expect(next.body.code).toBe('too_many_requests')
    server.advanceClockMs(LOGIN_THROTTLE.windowMs + 1000)
    expect((await attempt(DEMO_USERS.contributor.email, DEMO_PASSWORD)).status).toBe(200)
  })
})

// Issue 13: the counts lived in memory, so a restart forgot them and a second process did not see them.
describeEachDialect('login throttling across processes', (dialect) => {
  let server: TestServer
  const others: FastifyInstance[] = []
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(async () => {
    for (const app of others) await app.close()
    await server?.close()
  })

  /** Another server on the same database and data directory, with its own clock. */
  const startAnother = async (offsetMs = 0) => {
    const app = await buildApp({
      db: server.database.handle.db,
      dataDir: server.dataDir,
      distDir: join(server.dataDir, 'no-dist'),
      clock: createClock(() => Date.now() + offsetMs),
    })
    others.push(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    return {
      app,
      login: async (email: string, password: string) =>
        (
          await fetch(`${baseUrl}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password }),
          })
        ).status,
    }
  }
  const rows = async () =>
    (await server.database.handle.db.selectFrom('login_failures').selectAll().execute()).length

  it('refuses on a second server what the first counted, after a restart too, and sweeps old rows', async () => {
    const email = DEMO_USERS.contributor.email
    for (let i = 0; i < LOGIN_THROTTLE.accountFailures; i += 1) {
      const reply = await server.request('POST', '/api/auth/login', {
        body: { email, password: `wrong-${i}` },
      })
      expect(reply.status).toBe(401)
    }
    const second = await startAnother()
    expect(await second.login(email, DEMO_PASSWORD)).toBe(429)
    await second.app.close()
    // A restart on the same database still refuses.
    const restarted = await startAnother()
    expect(await restarted.login(email, DEMO_PASSWORD)).toBe(429)
    await restarted.app.close()
    // Rows that left the window are deleted at start; the account may log in again.
    expect(await rows()).toBeGreaterThan(0)
    const later = await startAnother(LOGIN_THROTTLE.windowMs + 1000)
    expect(await rows()).toBe(0)
    expect(await later.login(email, DEMO_PASSWORD)).toBe(200)
  })
})
